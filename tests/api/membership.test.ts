import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import type { User } from '../../contracts/account.ts';
import { MEMBERSHIP_MESSAGES, MEMBERSHIP_PLANS } from '../../contracts/membership.ts';
import { CARD_MESSAGES, ORDER_MESSAGES, type Order } from '../../contracts/orders.ts';
import { priceOrder } from '../../contracts/pricing.ts';
import { memberships, orders, pointsLedger, products, returnRequests, users } from '../../db/schema.ts';
import { readOutbox } from '../helpers/outbox.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

/*
 * Membership, points and redemptions through inject, on PGlite and on PostgreSQL (issue 11:
 * "API tests on both databases for every route and message"; spec-decisions "Stock": points
 * are earned when an order becomes Succeeded; "Catalogue and pages": a return reverses them,
 * cancelling a redemption order gives its points and stock back). PAYMENT_DECLINE_RATE is 1:
 * only the approve test card and saved methods pay.
 */

interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
}

interface Answer<T> {
  status: number;
  body: T;
  text: string;
}

interface Account {
  token: string;
  user: User;
  email: string;
}

interface MembershipBody {
  plan: 'basic' | 'premium';
  status: 'active' | 'cancelling' | 'cancelled' | 'past_due' | 'lapsed';
  startedAt: string;
  renewsOn: string;
  pendingPlan: 'basic' | 'premium' | null;
  nextChargeCents: number | null;
  retryOn: string | null;
  paymentMethod: { id: number; provider: string; last4Digits: string; expiryMonth: string; expiryYear: number } | null;
  lastCharge: { kind: string; plan: string; amountCents: number; chargedAt: string; last4: string | null } | null;
}

interface LedgerEntry {
  id: number;
  kind: 'earn' | 'redeem' | 'reverse' | 'adjust';
  points: number;
  orderId: number | null;
  note: string;
  createdAt: string;
  availableAt: string | null;
  balanceAfter: number;
}

interface Ledger {
  balance: number;
  available: number;
  pending: number;
  pendingReleases: { points: number; availableAt: string | null }[];
  entries: LedgerEntry[];
  page: number;
  totalCount: number;
  totalPages: number;
}

/** An empty ledger's balances (issue 21: available and pending apart). */
const NO_POINTS = { balance: 0, available: 0, pending: 0, pendingReleases: [] };

interface Product {
  id: number;
  name: string;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const PASSWORD = 'Harbour-Member-Pass-42';
const FUTURE_EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const APPROVE = '4242 4242 4242 4242';
const DECLINE = '4000 0000 0000 0002';
/** Luhn-valid, neither test card: declined at PAYMENT_DECLINE_RATE 1. */
const OTHER_CARD = '5555 5555 5555 4444';
const SHIPPING = {
  fullName: 'Ann Lee',
  addressLine1: '14 Boundary Lane',
  city: 'Silverwater',
  state: 'NSW',
  postalCode: '2128',
  country: 'Australia',
};
const THIS_YEAR = new Date().getFullYear();

const postgresAvailable = await isPostgresReachable();
const kinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'pglite', skip: false },
  { kind: 'postgres', skip: !postgresAvailable },
];

const basicPrice = MEMBERSHIP_PLANS.find((plan) => plan.id === 'basic')!.monthlyPriceCents;
const premiumPrice = MEMBERSHIP_PLANS.find((plan) => plan.id === 'premium')!.monthlyPriceCents;

function card(number = APPROVE): Record<string, string> {
  return { Number: number, Expiry: FUTURE_EXPIRY, Cvc: '123', Name: 'Ann Lee' };
}

function oneMonthAfter(iso: string): string {
  const date = new Date(iso);
  date.setMonth(date.getMonth() + 1);
  return date.toISOString();
}

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`membership, points and redemptions API on ${kind}`, () => {
    let shop: TestShop;
    let outbox: string;
    let productIds: number[] = [];
    let nextProduct = 0;
    let sequence = 0;
    let admin: { userId: number; email: string };
    let chargeSpy: MockInstance;

    function nextIp(): string {
      sequence += 1;
      return `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
    }

    function uniqueEmail(tag: string): string {
      sequence += 1;
      return `member.${tag}.${sequence}.${kind}@example.com`;
    }

    async function call<T = ErrorBody>(
      method: Method,
      url: string,
      options: { token?: string; body?: unknown } = {},
    ): Promise<Answer<T>> {
      const response = await shop.app.inject({
        method,
        url,
        headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
        remoteAddress: nextIp(),
        ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
      });
      const text = response.body;
      return { status: response.statusCode, body: (text ? JSON.parse(text) : null) as T, text };
    }

    async function register(tag: string): Promise<Account> {
      const email = uniqueEmail(tag);
      const answer = await call<{ token: string; user: User }>('POST', '/api/auth/register', {
        body: {
          firstName: 'Ann',
          lastName: tag,
          email,
          password: PASSWORD,
          PhoneNumber: '0412 345 678',
          address: {
            addressLine1: '1 Main Street',
            city: 'Sydney',
            state: 'NSW',
            postalCode: '2000',
            country: 'Australia',
          },
        },
      });
      expect(answer.status, answer.text).toBe(201);
      return { ...answer.body, email };
    }

    function joinBody(account: Account, plan: string, overrides: Record<string, unknown> = {}) {
      return {
        plan,
        name: 'Ann Lee',
        email: account.email,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        cardData: card(),
        ...overrides,
      };
    }

    async function joinPlan(account: Account, plan: 'basic' | 'premium'): Promise<MembershipBody> {
      const answer = await call<MembershipBody>('POST', '/api/membership', {
        token: account.token,
        body: joinBody(account, plan),
      });
      expect(answer.status, answer.text).toBe(201);
      return answer.body;
    }

    async function membershipOf(account: Account): Promise<MembershipBody | null> {
      const answer = await call<{ membership: MembershipBody | null }>('GET', '/api/membership', {
        token: account.token,
      });
      expect(answer.status, answer.text).toBe(200);
      return answer.body.membership;
    }

    async function membershipRows(account: Account) {
      return shop.database.db.select().from(memberships).where(eq(memberships.userId, account.user.id));
    }

    /** The next unused seeded product, set to a known price, stock and (optionally) points price. */
    async function fresh(options: {
      priceCents: number;
      stock: number;
      pointsCost?: number | null;
      isRedemption?: boolean;
    }): Promise<Product> {
      const id = productIds[nextProduct];
      nextProduct += 1;
      if (id === undefined) throw new Error('The test shop has too few products');
      const [row] = await shop.database.db
        .update(products)
        .set({
          priceCents: options.priceCents,
          discountPriceCents: null,
          stockQuantity: options.stock,
          isActive: true,
          isRedemption: options.isRedemption ?? options.pointsCost !== undefined,
          pointsCost: options.pointsCost ?? null,
        })
        .where(eq(products.id, id))
        .returning({ id: products.id, name: products.name });
      if (!row) throw new Error(`Product ${id} is missing`);
      return row;
    }

    async function stockOf(id: number): Promise<number> {
      const [row] = await shop.database.db
        .select({ stock: products.stockQuantity })
        .from(products)
        .where(eq(products.id, id));
      return row?.stock ?? Number.NaN;
    }

    async function place(account: Account, lines: { productId: number; quantity: number }[]): Promise<Order> {
      sequence += 1;
      const answer = await call<{ order: Order }>('POST', '/api/orders', {
        token: account.token,
        body: {
          sessionId: `session_${Date.now()}_${kind}_${sequence}`,
          userEmail: account.email,
          orderItems: lines,
          paymentMethod: 'credit_card',
          cardData: card(),
          shippingAddress: SHIPPING,
        },
      });
      expect(answer.status, answer.text).toBe(201);
      return answer.body.order;
    }

    async function ledger(account: Account, page?: number): Promise<Ledger> {
      const answer = await call<Ledger>('GET', `/api/points${page === undefined ? '' : `?page=${page}`}`, {
        token: account.token,
      });
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    }

    /** Every point the shopper holds, spendable or pending (issue 21): the ledger's sum. */
    async function balanceOf(account: Account): Promise<number> {
      const { balance, available, pending } = await ledger(account);
      const [row] = await shop.database.db
        .select({ sum: sql<number>`coalesce(sum(${pointsLedger.points}), 0)::int` })
        .from(pointsLedger)
        .where(eq(pointsLedger.userId, account.user.id));
      expect(balance, 'the balance is the available points').toBe(available);
      expect(available + pending, 'available and pending make the ledger sum').toBe(Number(row?.sum));
      expect(available).toBeGreaterThanOrEqual(0);
      return available + pending;
    }

    /** The shopper's 30-day return windows pass (issue 21): their orders' earned points become spendable. */
    async function windowPasses(account: Account): Promise<void> {
      await shop.database.db.execute(
        sql`update ${orders} set fulfilled_at = fulfilled_at - interval '31 days' where user_id = ${account.user.id}`,
      );
      await shop.database.db.execute(
        sql`update ${pointsLedger} set available_at = available_at - interval '31 days' where user_id = ${account.user.id}`,
      );
    }

    /** Every ledger entry, newest first, checking the running balance row by row. */
    async function allEntries(account: Account): Promise<LedgerEntry[]> {
      const first = await ledger(account);
      const entries = [...first.entries];
      for (let page = 2; page <= first.totalPages; page += 1) entries.push(...(await ledger(account, page)).entries);
      expect(entries.length).toBe(first.totalCount);
      let running = first.available + first.pending;
      for (const entry of entries) {
        expect(entry.balanceAfter, `balance after entry ${entry.id}`).toBe(running);
        running -= entry.points;
      }
      expect(running, 'the oldest entry starts from zero').toBe(0);
      return entries;
    }

    function redemptionBody(productId: number, quantity: number) {
      return { productId, quantity, shippingAddress: SHIPPING };
    }

    async function redeem(account: Account, productId: number, quantity: number) {
      return call<Order & ErrorBody>('POST', '/api/redemptions', {
        token: account.token,
        body: redemptionBody(productId, quantity),
      });
    }

    async function fulfil(order: Order): Promise<Order> {
      return shop.app.services.orders.markSucceeded(order.id);
    }

    /** Asks for a return of these lines through the API, then the shop approves it. */
    async function returnAndApprove(
      account: Account,
      order: Order,
      items: { orderItemId: number; quantity: number }[],
    ): Promise<Order> {
      const asked = await call('POST', `/api/orders/${order.id}/returns`, {
        token: account.token,
        body: { reason: 'Not what I needed', items },
      });
      expect(asked.status, asked.text).toBe(201);
      const [request] = await shop.database.db
        .select({ id: returnRequests.id })
        .from(returnRequests)
        .where(eq(returnRequests.orderId, order.id));
      const approved = await shop.app.services.backOffice.approveReturn(request!.id, admin);
      return approved.order;
    }

    function charges(): number {
      return chargeSpy.mock.calls.length;
    }

    beforeAll(async () => {
      outbox = mkdtempSync(joinPath(tmpdir(), 'harbour-membership-outbox-'));
      shop = await createTestShop(kind, {
        products: 40,
        env: { MAIL_OUTBOX_DIR: outbox, PAYMENT_DECLINE_RATE: '1' },
      });
      productIds = (await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id)).map(
        (row) => row.id,
      );
      const adminEmail = uniqueEmail('admin');
      await shop.app.services.accounts.ensureAdmin(adminEmail, 'Member-Admin-Pass-2024');
      const [adminRow] = await shop.database.db.select().from(users).where(eq(users.email, adminEmail));
      admin = { userId: adminRow!.id, email: adminEmail };
      chargeSpy = vi.spyOn(shop.app.services.gateway, 'charge');
    });
    afterAll(async () => {
      chargeSpy?.mockRestore();
      await shop?.app.services.mailer.idle();
      await shop?.close();
      if (outbox) rmSync(outbox, { recursive: true, force: true });
    });

    describe('POST /api/membership: joining', () => {
      let visitor: Account;
      beforeAll(async () => {
        visitor = await register('visitor');
      });

      it('a shopper who never joined has no membership and no points', async () => {
        expect(await membershipOf(visitor)).toBeNull();
        expect(await ledger(visitor)).toEqual({ ...NO_POINTS, entries: [], page: 1, totalCount: 0, totalPages: 1 });
      });

      const withCard = (field: string, value: unknown) => (body: Record<string, unknown>) => ({
        ...body,
        cardData: { ...(body.cardData as object), [field]: value },
      });
      const withField = (field: string, value: unknown) => (body: Record<string, unknown>) => ({
        ...body,
        [field]: value,
      });
      const without = (field: string) => (body: Record<string, unknown>) => {
        const copy = { ...body };
        delete copy[field];
        return copy;
      };
      const plansText = 'Choose the Basic or the Premium plan';
      const cases: [string, (body: Record<string, unknown>) => Record<string, unknown>, string, string][] = [
        ['no plan', without('plan'), 'plan', plansText],
        ['a plan that does not exist', withField('plan', 'gold'), 'plan', plansText],
        ['no password', without('password'), 'password', 'Password is required'],
        [
          'an empty password (and confirmation)',
          (body) => ({ ...body, password: '', confirmPassword: '' }),
          'password',
          'Password is required',
        ],
        [
          'a password of 5 characters',
          (body) => ({ ...body, password: 'abcde', confirmPassword: 'abcde' }),
          'password',
          'Password must be at least 6 characters',
        ],
        [
          'a confirmation that differs',
          withField('confirmPassword', `${PASSWORD}x`),
          'confirmPassword',
          'Passwords do not match',
        ],
        [
          'a password but no confirmation and no password',
          (body) => ({ ...without('password')(body), confirmPassword: 'something' }),
          'password',
          'Password is required',
        ],
        [
          'a saved method id that is not one',
          (body) => ({ ...body, cardData: null, paymentMethodId: 0 }),
          'paymentMethodId',
          'paymentMethodId must be the id of a saved payment method',
        ],
        [
          'a saved method id as text',
          (body) => ({ ...body, cardData: null, paymentMethodId: 'visa' }),
          'paymentMethodId',
          'paymentMethodId must be the id of a saved payment method',
        ],
        ['a blank name', withField('name', '   '), 'name', 'Name is required'],
        ['an e-mail that is not one', withField('email', 'not-an-email'), 'email', 'Email is invalid'],
        [
          'neither a card nor a saved method',
          (body) => ({ ...body, cardData: null }),
          'cardData',
          'Enter a card, or choose a saved payment method',
        ],
        ['a 15-digit card number', withCard('Number', '4242 4242 4242 424'), 'cardData.Number', CARD_MESSAGES.number],
        [
          'a card number failing Luhn',
          withCard('Number', '4242 4242 4242 4241'),
          'cardData.Number',
          CARD_MESSAGES.number,
        ],
        ['no card number', withCard('Number', undefined), 'cardData.Number', CARD_MESSAGES.number],
        ['a blank name on the card', withCard('Name', '  '), 'cardData.Name', CARD_MESSAGES.name],
        ['an expiry in the past', withCard('Expiry', '01/20'), 'cardData.Expiry', CARD_MESSAGES.expiry],
        ['an expiry as MM/YYYY', withCard('Expiry', `07/${THIS_YEAR + 2}`), 'cardData.Expiry', CARD_MESSAGES.expiry],
        ['a 2-digit CVV', withCard('Cvc', '12'), 'cardData.Cvc', CARD_MESSAGES.cvv],
        ['letters for a CVV', withCard('Cvc', 'abc'), 'cardData.Cvc', CARD_MESSAGES.cvv],
      ];

      for (const [label, change, field, message] of cases) {
        it(`${label} → 400 '${message}' on ${field}, nothing charged or recorded`, async () => {
          const before = charges();
          const answer = await call('POST', '/api/membership', {
            token: visitor.token,
            body: change(joinBody(visitor, 'basic')),
          });
          expect(answer.status, answer.text).toBe(400);
          expect(answer.body).toEqual({ message: `Invalid field: ${field}`, errors: { [field]: [message] } });
          expect(charges()).toBe(before);
          expect(await membershipOf(visitor)).toBeNull();
          expect(await membershipRows(visitor)).toEqual([]);
        });
      }

      it('names every bad field of one body at once', async () => {
        const answer = await call('POST', '/api/membership', {
          token: visitor.token,
          body: {
            plan: 'platinum',
            password: 'abc',
            confirmPassword: 'abd',
            cardData: { Number: '1234', Expiry: 'soon', Cvc: '', Name: '' },
          },
        });
        expect(answer.status).toBe(400);
        expect(answer.body.errors).toEqual({
          plan: [plansText],
          password: ['Password must be at least 6 characters'],
          confirmPassword: ['Passwords do not match'],
          'cardData.Number': [CARD_MESSAGES.number],
          'cardData.Name': [CARD_MESSAGES.name],
          'cardData.Expiry': [CARD_MESSAGES.expiry],
          'cardData.Cvc': [CARD_MESSAGES.cvv],
        });
        const second = await call('POST', '/api/membership', {
          token: visitor.token,
          body: { plan: 'basic', password: '', cardData: null, email: 'x' },
        });
        expect(second.status).toBe(400);
        expect(second.body.errors).toEqual({
          password: ['Password is required'],
          email: ['Email is invalid'],
          cardData: ['Enter a card, or choose a saved payment method'],
        });
        expect(await membershipOf(visitor)).toBeNull();
      });

      it(`a wrong account password → 400 '${MEMBERSHIP_MESSAGES.wrongPassword}' on password, before any charge`, async () => {
        const before = charges();
        for (const password of ['Harbour-Member-Pass-43', 'harbour-member-pass-42']) {
          const answer = await call('POST', '/api/membership', {
            token: visitor.token,
            body: joinBody(visitor, 'premium', { password, confirmPassword: password }),
          });
          expect(answer.status, answer.text).toBe(400);
          expect(answer.body).toEqual({
            message: MEMBERSHIP_MESSAGES.wrongPassword,
            errors: { password: [MEMBERSHIP_MESSAGES.wrongPassword] },
          });
        }
        expect(charges()).toBe(before);
        expect(await membershipRows(visitor)).toEqual([]);
      });

      it('the decline card → 402 with the spec text, nothing recorded; so does another card at decline rate 1', async () => {
        for (const number of [DECLINE, OTHER_CARD]) {
          const before = charges();
          const answer = await call('POST', '/api/membership', {
            token: visitor.token,
            body: joinBody(visitor, 'basic', { cardData: card(number) }),
          });
          expect(answer.status, answer.text).toBe(402);
          expect(answer.body).toEqual({ message: ORDER_MESSAGES.declined });
          expect(answer.text).not.toContain(number.replace(/\s/g, '').slice(0, 12));
          expect(charges()).toBe(before + 1);
          expect(chargeSpy.mock.calls.at(-1)?.[0]).toMatchObject({ amountCents: basicPrice });
          expect(await membershipOf(visitor)).toBeNull();
          expect(await membershipRows(visitor)).toEqual([]);
        }
      });

      it("a saved method: another shopper's → 404, one ending 0002 → 402, one of one's own → 201", async () => {
        const [owner, other] = await Promise.all([register('saved.owner'), register('saved.other')]);
        const saved = { paymentType: 'Credit Card', provider: 'Visa', expiryMonth: '07', expiryYear: THIS_YEAR + 2 };
        const made = await Promise.all([
          call<{ id: number }>('POST', '/api/paymentmethods', {
            token: owner.token,
            body: { ...saved, last4Digits: '4242' },
          }),
          call<{ id: number }>('POST', '/api/paymentmethods', {
            token: owner.token,
            body: { ...saved, last4Digits: '0002' },
          }),
          call<{ id: number }>('POST', '/api/paymentmethods', {
            token: other.token,
            body: { ...saved, last4Digits: '4242' },
          }),
        ]);
        expect(made.map((answer) => answer.status)).toEqual([201, 201, 201]);
        const [good, failing, others] = made.map((answer) => answer.body.id) as [number, number, number];

        const before = charges();
        const foreign = await call('POST', '/api/membership', {
          token: owner.token,
          body: joinBody(owner, 'basic', { cardData: null, paymentMethodId: others }),
        });
        expect(foreign.status, foreign.text).toBe(404);
        expect(foreign.body).toEqual({ message: 'Payment method not found' });
        expect(charges()).toBe(before);

        const declined = await call('POST', '/api/membership', {
          token: owner.token,
          body: joinBody(owner, 'basic', { cardData: null, paymentMethodId: failing }),
        });
        expect(declined.status, declined.text).toBe(402);
        expect(declined.body).toEqual({ message: ORDER_MESSAGES.declined });
        expect(await membershipRows(owner)).toEqual([]);

        const joined = await call<MembershipBody>('POST', '/api/membership', {
          token: owner.token,
          body: joinBody(owner, 'premium', { cardData: null, paymentMethodId: good }),
        });
        expect(joined.status, joined.text).toBe(201);
        expect(joined.body.plan).toBe('premium');
        expect(chargeSpy.mock.calls.at(-1)?.[0]).toMatchObject({
          amountCents: premiumPrice,
          source: { kind: 'saved', last4: '4242' },
        });
        expect(await membershipOf(other)).toBeNull();
      });

      it('join Basic → 201 with the plan, renewing a month later, a welcome e-mail; joining again → 409', async () => {
        const member = await register('basic.joiner');
        const before = charges();
        const answer = await call<MembershipBody>('POST', '/api/membership', {
          token: member.token,
          body: joinBody(member, 'basic'),
        });
        expect(answer.status, answer.text).toBe(201);
        expect(answer.body).toEqual({
          plan: 'basic',
          status: 'active',
          startedAt: expect.any(String),
          renewsOn: expect.any(String),
          pendingPlan: null,
          nextChargeCents: basicPrice,
          retryOn: null,
          // The card is saved (last 4 and expiry only) to pay the renewals.
          paymentMethod: {
            id: expect.any(Number),
            provider: 'Visa',
            last4Digits: '4242',
            expiryMonth: FUTURE_EXPIRY.slice(0, 2),
            expiryYear: 2000 + Number(FUTURE_EXPIRY.slice(3)),
          },
          lastCharge: {
            kind: 'join',
            plan: 'basic',
            amountCents: basicPrice,
            chargedAt: expect.any(String),
            last4: '4242',
          },
        });
        const started = Date.parse(answer.body.startedAt);
        expect(Math.abs(started - Date.now())).toBeLessThan(60_000);
        expect(answer.body.renewsOn).toBe(oneMonthAfter(answer.body.startedAt));
        const days = (Date.parse(answer.body.renewsOn) - started) / 86_400_000;
        expect(days).toBeGreaterThanOrEqual(28 - 1 / 24);
        expect(days).toBeLessThanOrEqual(31 + 1 / 24);
        expect(charges()).toBe(before + 1);
        expect(chargeSpy.mock.calls.at(-1)?.[0]).toMatchObject({ amountCents: basicPrice, source: { kind: 'card' } });
        expect(await membershipOf(member)).toEqual(answer.body);
        const [row] = await membershipRows(member);
        expect(row).toMatchObject({ plan: 'basic', status: 'active', transactionId: expect.stringMatching(/^sim_/) });
        expect(JSON.stringify(row)).not.toContain('4242424242424242');

        await shop.app.services.mailer.idle();
        const welcome = (await readOutbox(outbox)).filter(
          (mail) => mail.to.includes(member.email) && /^Welcome to .+ Basic membership$/.test(mail.subject),
        );
        expect(welcome).toHaveLength(1);

        for (const plan of ['basic', 'premium']) {
          const again = await call('POST', '/api/membership', { token: member.token, body: joinBody(member, plan) });
          expect(again.status, again.text).toBe(409);
          expect(again.body).toEqual({ message: MEMBERSHIP_MESSAGES.alreadyMember });
        }
        expect(charges()).toBe(before + 1);
        expect(await membershipOf(member)).toEqual(answer.body);
      });
    });

    describe('PUT and DELETE /api/membership: switching and cancelling', () => {
      it(`not a member → 404 '${MEMBERSHIP_MESSAGES.notMember}' on PUT and DELETE`, async () => {
        const stranger = await register('stranger');
        const put = await call('PUT', '/api/membership', { token: stranger.token, body: { plan: 'premium' } });
        expect(put.status, put.text).toBe(404);
        expect(put.body).toEqual({ message: MEMBERSHIP_MESSAGES.notMember });
        const del = await call('DELETE', '/api/membership', { token: stranger.token });
        expect(del.status, del.text).toBe(404);
        expect(del.body).toEqual({ message: MEMBERSHIP_MESSAGES.notMember });
        expect(await membershipRows(stranger)).toEqual([]);
      });

      it('a plan that does not exist → 400 on plan', async () => {
        const member = await register('bad.plan');
        await joinPlan(member, 'basic');
        for (const body of [{ plan: 'gold' }, {}]) {
          const answer = await call('PUT', '/api/membership', { token: member.token, body });
          expect(answer.status, answer.text).toBe(400);
          expect(answer.body).toEqual({
            message: 'Invalid field: plan',
            errors: { plan: ['Choose the Basic or the Premium plan'] },
          });
        }
        expect((await membershipOf(member))?.plan).toBe('basic');
      });

      it('switch, cancel at period end (benefits kept), resume, lapse, join again', async () => {
        const member = await register('lifecycle');
        const joined = await joinPlan(member, 'basic');
        const cheap = await fresh({ priceCents: 4_000, stock: 50 });
        const chargesAfterJoin = charges();

        const switched = await call<MembershipBody>('PUT', '/api/membership', {
          token: member.token,
          body: { plan: 'premium' },
        });
        expect(switched.status, switched.text).toBe(200);
        // A dearer plan is paid at once for the rest of the month (issue 21): nearly the whole difference.
        expect(switched.body).toEqual({
          ...joined,
          plan: 'premium',
          nextChargeCents: premiumPrice,
          lastCharge: {
            ...joined.lastCharge,
            kind: 'upgrade',
            plan: 'premium',
            amountCents: expect.any(Number),
            chargedAt: expect.any(String),
          },
        });
        expect(charges()).toBe(chargesAfterJoin + 1);
        expect(chargeSpy.mock.calls.at(-1)?.[0].amountCents).toBeGreaterThan(premiumPrice - basicPrice - 5);
        expect(chargeSpy.mock.calls.at(-1)?.[0].amountCents).toBeLessThanOrEqual(premiumPrice - basicPrice);
        const upgraded = switched.body;

        const same = await call('PUT', '/api/membership', { token: member.token, body: { plan: 'premium' } });
        expect(same.status, same.text).toBe(409);
        expect(same.body).toEqual({ message: MEMBERSHIP_MESSAGES.samePlan });

        const cancelled = await call<MembershipBody>('DELETE', '/api/membership', { token: member.token });
        expect(cancelled.status, cancelled.text).toBe(200);
        expect(cancelled.body).toEqual({ ...upgraded, status: 'cancelling', nextChargeCents: null });
        expect(await membershipOf(member)).toEqual(cancelled.body);

        // Until the paid month ends the shopper keeps Premium: free shipping below $100, 2 points a dollar.
        const order = await place(member, [{ productId: cheap.id, quantity: 1 }]);
        expect(order.shippingCost).toBe(0);
        expect(order.total).toBe(44);
        await fulfil(order);
        expect(await balanceOf(member)).toBe(80);

        const again = await call('DELETE', '/api/membership', { token: member.token });
        expect(again.status, again.text).toBe(409);
        expect(again.body).toEqual({ message: MEMBERSHIP_MESSAGES.alreadyCancelling });

        // Choosing a plan again while cancelling keeps the membership going.
        const resumed = await call<MembershipBody>('PUT', '/api/membership', {
          token: member.token,
          body: { plan: 'premium' },
        });
        expect(resumed.status, resumed.text).toBe(200);
        expect(resumed.body).toEqual(upgraded);
        // A cheaper plan waits for the renewal: Premium stays until then.
        const down = await call<MembershipBody>('PUT', '/api/membership', {
          token: member.token,
          body: { plan: 'basic' },
        });
        expect(down.status, down.text).toBe(200);
        expect(down.body).toEqual({ ...upgraded, pendingPlan: 'basic', nextChargeCents: basicPrice });
        expect((await call('DELETE', '/api/membership', { token: member.token })).status).toBe(200);

        // The paid month runs out: the membership is over and gives nothing more.
        await shop.database.db
          .update(memberships)
          .set({ renewsOn: new Date(Date.now() - 60_000) })
          .where(eq(memberships.userId, member.user.id));
        const lapsed = await membershipOf(member);
        // The pending Basic never took over: no renewal came.
        expect(lapsed).toMatchObject({ plan: 'premium', status: 'cancelled' });
        const late = await place(member, [{ productId: cheap.id, quantity: 1 }]);
        expect(late.shippingCost).toBe(10);
        await fulfil(late);
        expect(await balanceOf(member)).toBe(80);
        for (const method of ['PUT', 'DELETE'] as const) {
          const answer = await call(method, '/api/membership', {
            token: member.token,
            ...(method === 'PUT' ? { body: { plan: 'premium' } } : {}),
          });
          expect(answer.status, `${method} ${answer.text}`).toBe(404);
          expect(answer.body).toEqual({ message: MEMBERSHIP_MESSAGES.notMember });
        }
        expect(charges()).toBe(chargesAfterJoin + 3);

        const rejoined = await joinPlan(member, 'premium');
        expect(rejoined.status).toBe('active');
        expect(Date.parse(rejoined.renewsOn)).toBeGreaterThan(Date.now() + 27 * 86_400_000);
        expect(await membershipOf(member)).toEqual(rejoined);
      });
    });

    describe('points: earned when an order becomes Succeeded', () => {
      it('a Basic member earns 158 points on a $158.40 subtotal, only when the order is fulfilled', async () => {
        const member = await register('earner');
        await joinPlan(member, 'basic');
        const drill = await fresh({ priceCents: 7_920, stock: 10 });
        const order = await place(member, [{ productId: drill.id, quantity: 2 }]);
        expect(order.subtotal).toBe(158.4);
        expect(order.shippingCost).toBe(0);
        expect(order.status).toBe('Processing');
        expect(await ledger(member)).toEqual({ ...NO_POINTS, entries: [], page: 1, totalCount: 0, totalPages: 1 });

        const fulfilled = await fulfil(order);
        expect(fulfilled.status).toBe('Succeeded');
        const after = await ledger(member);
        // Pending for the 30-day return window (issue 21), then spendable.
        expect(after).toEqual({
          balance: 0,
          available: 0,
          pending: 158,
          pendingReleases: [{ points: 158, availableAt: after.entries[0]!.availableAt }],
          entries: [
            {
              id: expect.any(Number),
              kind: 'earn',
              points: 158,
              orderId: order.id,
              note: `Order ${order.orderNumber}`,
              createdAt: expect.any(String),
              availableAt: expect.any(String),
              balanceAfter: 158,
            },
          ],
          page: 1,
          totalCount: 1,
          totalPages: 1,
        });
        expect(Math.abs(Date.parse(after.entries[0]!.createdAt) - Date.now())).toBeLessThan(60_000);
        expect(Date.parse(after.entries[0]!.availableAt!) - Date.parse(after.entries[0]!.createdAt)).toBe(
          30 * 86_400_000,
        );
        // Fulfilling twice is refused and earns nothing more.
        await expect(fulfil(order)).rejects.toMatchObject({ statusCode: 409 });
        expect(await balanceOf(member)).toBe(158);
      });

      it('Basic pays $10 shipping below $100 and earns 1 a dollar; Premium ships free and earns 2 a dollar', async () => {
        const [basic, premium] = await Promise.all([register('basic.ship'), register('premium.ship')]);
        await joinPlan(basic, 'basic');
        await joinPlan(premium, 'premium');
        const saw = await fresh({ priceCents: 4_599, stock: 20 });

        const basicOrder = await place(basic, [{ productId: saw.id, quantity: 1 }]);
        const premiumOrder = await place(premium, [{ productId: saw.id, quantity: 1 }]);
        const basicTotals = priceOrder([{ unitPriceCents: 4_599, quantity: 1 }], 'basic');
        const premiumTotals = priceOrder([{ unitPriceCents: 4_599, quantity: 1 }], 'premium');
        expect(basicOrder).toMatchObject({ subtotal: 45.99, taxAmount: 4.6, shippingCost: 10, total: 60.59 });
        expect(basicOrder.total).toBe(basicTotals.totalCents / 100);
        expect(premiumOrder).toMatchObject({ subtotal: 45.99, taxAmount: 4.6, shippingCost: 0, total: 50.59 });
        expect(premiumOrder.total).toBe(premiumTotals.totalCents / 100);
        // The card was charged what the order says.
        const charged = chargeSpy.mock.calls.slice(-2).map((callArgs) => callArgs[0].amountCents);
        expect(charged).toEqual([6_059, 5_059]);

        await fulfil(basicOrder);
        await fulfil(premiumOrder);
        expect(await balanceOf(basic)).toBe(45);
        expect(await balanceOf(premium)).toBe(90);

        // Over $100 everyone ships free; Premium earns 2 per whole dollar.
        const big = await place(premium, [{ productId: saw.id, quantity: 3 }]);
        expect(big).toMatchObject({ subtotal: 137.97, shippingCost: 0 });
        await fulfil(big);
        expect(await balanceOf(premium)).toBe(90 + 274);
      });

      it('earns at the plan held when the order is fulfilled; a non-member and a cancelled order earn nothing', async () => {
        const [member, plain] = await Promise.all([register('switcher'), register('plain')]);
        await joinPlan(member, 'basic');
        const hammer = await fresh({ priceCents: 12_000, stock: 20 });
        const order = await place(member, [{ productId: hammer.id, quantity: 1 }]);
        expect((await call('PUT', '/api/membership', { token: member.token, body: { plan: 'premium' } })).status).toBe(
          200,
        );
        await fulfil(order);
        expect(await balanceOf(member)).toBe(240);

        const cancelled = await place(member, [{ productId: hammer.id, quantity: 1 }]);
        const cancel = await call<Order>('PUT', `/api/orders/${cancelled.id}/cancel`, { token: member.token });
        expect(cancel.status, cancel.text).toBe(200);
        await expect(fulfil(cancelled)).rejects.toMatchObject({ statusCode: 409 });
        expect(await balanceOf(member)).toBe(240);

        const plainOrder = await place(plain, [{ productId: hammer.id, quantity: 1 }]);
        await fulfil(plainOrder);
        expect(await ledger(plain)).toEqual({ ...NO_POINTS, entries: [], page: 1, totalCount: 0, totalPages: 1 });
      });
    });

    describe('GET /api/points: the ledger', () => {
      it('lists entries newest first, 25 a page, each with the balance after it', async () => {
        const member = await register('pager');
        // 30 entries written straight into the ledger: +1, +2, … +30.
        for (let index = 1; index <= 30; index += 1) {
          await shop.database.db
            .insert(pointsLedger)
            .values({ userId: member.user.id, kind: 'earn', points: index, orderId: null, note: `Gift ${index}` });
        }
        const first = await ledger(member);
        expect(first).toMatchObject({ balance: 465, page: 1, totalCount: 30, totalPages: 2 });
        expect(first.entries.map((entry) => entry.points)).toEqual(Array.from({ length: 25 }, (_, i) => 30 - i));
        expect(first.entries.map((entry) => entry.balanceAfter)).toEqual(
          Array.from({ length: 25 }, (_, i) => ((30 - i) * (31 - i)) / 2),
        );
        expect(first.entries[0]).toEqual({
          id: expect.any(Number),
          kind: 'earn',
          points: 30,
          orderId: null,
          note: 'Gift 30',
          createdAt: expect.any(String),
          availableAt: expect.any(String),
          balanceAfter: 465,
        });
        const second = await ledger(member, 2);
        expect(second).toMatchObject({ balance: 465, page: 2, totalCount: 30, totalPages: 2 });
        expect(second.entries.map((entry) => [entry.points, entry.balanceAfter])).toEqual([
          [5, 15],
          [4, 10],
          [3, 6],
          [2, 3],
          [1, 1],
        ]);
        expect(await ledger(member, 3)).toEqual({
          ...NO_POINTS,
          balance: 465,
          available: 465,
          entries: [],
          page: 3,
          totalCount: 30,
          totalPages: 2,
        });
        await allEntries(member);
      });

      it('runs the balance in the order entries were written, not by their transactions’ start times', async () => {
        // Under concurrency a redemption whose transaction began first can take the shopper's
        // lock after an earning committed, and spend those points: its created_at is earlier.
        const member = await register('pager.race');
        const now = Date.now();
        await shop.database.db.insert(pointsLedger).values({
          userId: member.user.id,
          kind: 'earn',
          points: 50,
          orderId: null,
          note: 'Earned first',
          createdAt: new Date(now),
        });
        await shop.database.db.insert(pointsLedger).values({
          userId: member.user.id,
          kind: 'redeem',
          points: -50,
          orderId: null,
          note: 'Spent it',
          createdAt: new Date(now - 1_000),
        });
        const { entries, balance } = await ledger(member);
        expect(balance).toBe(0);
        expect(entries.map((entry) => [entry.note, entry.points, entry.balanceAfter])).toEqual([
          ['Spent it', -50, 0],
          ['Earned first', 50, 50],
        ]);
      });

      it('another shopper sees only their own ledger', async () => {
        const other = await register('pager.other');
        expect(await ledger(other)).toEqual({ ...NO_POINTS, entries: [], page: 1, totalCount: 0, totalPages: 1 });
      });

      for (const [query, message] of [
        ['page=0', 'page must be 1 or more'],
        ['page=-1', 'page must be 1 or more'],
        ['page=1.5', 'page must be a whole number'],
        ['page=abc', 'page must be a whole number'],
        ['page=10001', 'page must be at most 10000'],
      ] as const) {
        it(`?${query} → 400 '${message}'`, async () => {
          const member = await register('pager.bad');
          const answer = await call('GET', `/api/points?${query}`, { token: member.token });
          expect(answer.status, answer.text).toBe(400);
          expect(answer.body).toEqual({ message: 'Invalid query parameter: page', errors: { page: [message] } });
        });
      }
    });

    describe('POST /api/redemptions', () => {
      let redeemer: Account;
      let prize: Product;
      let ordinary: Product;

      beforeAll(async () => {
        redeemer = await register('redeemer');
        await joinPlan(redeemer, 'basic');
        prize = await fresh({ priceCents: 5_000, stock: 5, pointsCost: 50 });
        ordinary = await fresh({ priceCents: 10_000, stock: 100 });
      });

      async function orderCount(): Promise<number> {
        return shop.database.db.$count(orders);
      }

      it('lists redemption products with their points price (1 point per dollar of the price)', async () => {
        const answer = await call<{
          items: { id: number; price: number; isRedemption: boolean; pointsCost: number }[];
        }>('GET', '/api/products/redemption?limit=100');
        expect(answer.status, answer.text).toBe(200);
        const listed = answer.body.items;
        expect(listed.find((product) => product.id === prize.id)).toMatchObject({ isRedemption: true, pointsCost: 50 });
        for (const product of listed) {
          expect(product.isRedemption).toBe(true);
          expect(product.pointsCost).toBeGreaterThan(0);
        }
        expect(listed.find((product) => product.id === ordinary.id)).toBeUndefined();
      });

      it(`not enough points → 409 '${MEMBERSHIP_MESSAGES.notEnoughPoints}', nothing taken`, async () => {
        const ordersBefore = await orderCount();
        const answer = await redeem(redeemer, prize.id, 1);
        expect(answer.status, answer.text).toBe(409);
        expect(answer.body).toEqual({
          message: MEMBERSHIP_MESSAGES.notEnoughPoints,
          errors: { points: ['You have 0 points; this needs 50'] },
        });
        expect(await stockOf(prize.id)).toBe(5);
        expect(await orderCount()).toBe(ordersBefore);
        expect(await ledger(redeemer)).toMatchObject({ balance: 0, totalCount: 0 });
      });

      it('earns 200 points to spend', async () => {
        const order = await place(redeemer, [{ productId: ordinary.id, quantity: 2 }]);
        await fulfil(order);
        await windowPasses(redeemer);
        expect(await balanceOf(redeemer)).toBe(200);
        expect((await ledger(redeemer)).available).toBe(200);
      });

      it('a product that is not for redemption → 400; one without a points price → 400; an unknown one → 404', async () => {
        const unpriced = await fresh({ priceCents: 2_000, stock: 5, isRedemption: true, pointsCost: null });
        const ordersBefore = await orderCount();
        for (const productId of [ordinary.id, unpriced.id]) {
          const answer = await redeem(redeemer, productId, 1);
          expect(answer.status, answer.text).toBe(400);
          expect(answer.body).toEqual({
            message: MEMBERSHIP_MESSAGES.notRedeemable,
            errors: { productId: [MEMBERSHIP_MESSAGES.notRedeemable] },
          });
        }
        const unknown = await redeem(redeemer, 2_000_000_000, 1);
        expect(unknown.status, unknown.text).toBe(404);
        expect(unknown.body).toEqual({ message: 'Product not found' });
        expect(await orderCount()).toBe(ordersBefore);
        expect(await stockOf(ordinary.id)).toBe(98);
        expect(await balanceOf(redeemer)).toBe(200);
      });

      const invalid: [string, Record<string, unknown>, string, string][] = [
        ['no product', { productId: undefined }, 'productId', 'productId must be a product id'],
        ['a product id as text', { productId: 'abc' }, 'productId', 'productId must be a product id'],
        ['product id 0', { productId: 0 }, 'productId', 'productId must be a product id'],
        ['quantity 0', { quantity: 0 }, 'quantity', 'quantity must be at least 1'],
        ['quantity 1.5', { quantity: 1.5 }, 'quantity', 'quantity must be a whole number'],
        ['quantity 21', { quantity: 21 }, 'quantity', 'At most 20 at a time'],
        ['no quantity', { quantity: undefined }, 'quantity', 'quantity must be a whole number'],
        [
          'no shipping address',
          { shippingAddress: undefined },
          'shippingAddress',
          'Invalid input: expected object, received undefined',
        ],
        [
          'a shipping address without a city',
          { shippingAddress: { ...SHIPPING, city: '' } },
          'shippingAddress.city',
          'City is required',
        ],
      ];
      for (const [label, change, field, message] of invalid) {
        it(`${label} → 400 '${message}' on ${field}`, async () => {
          const ordersBefore = await orderCount();
          const answer = await call('POST', '/api/redemptions', {
            token: redeemer.token,
            body: { ...redemptionBody(prize.id, 1), ...change },
          });
          expect(answer.status, answer.text).toBe(400);
          expect(answer.body).toEqual({ message: `Invalid field: ${field}`, errors: { [field]: [message] } });
          expect(await orderCount()).toBe(ordersBefore);
          expect(await balanceOf(redeemer)).toBe(200);
        });
      }

      it('out of stock → 409 naming the product; short stock → 409 with what is left; nothing taken', async () => {
        const scarce = await fresh({ priceCents: 1_000, stock: 0, pointsCost: 10 });
        const ordersBefore = await orderCount();
        const none = await redeem(redeemer, scarce.id, 1);
        expect(none.status, none.text).toBe(409);
        expect(none.body).toEqual({
          message: `${scarce.name} is no longer available`,
          errors: { quantity: [`${scarce.name} is no longer available`] },
        });
        await shop.database.db.update(products).set({ stockQuantity: 2 }).where(eq(products.id, scarce.id));
        const short = await redeem(redeemer, scarce.id, 3);
        expect(short.status, short.text).toBe(409);
        expect(short.body).toEqual({
          message: `Only 2 left of ${scarce.name}`,
          errors: { quantity: [`Only 2 left of ${scarce.name}`] },
        });
        expect(await stockOf(scarce.id)).toBe(2);
        expect(await orderCount()).toBe(ordersBefore);
        expect(await balanceOf(redeemer)).toBe(200);
      });

      let redemption: Order;

      it('success → 201: an order paid with points, total 0, stock and balance down, nothing charged', async () => {
        const chargesBefore = charges();
        const answer = await redeem(redeemer, prize.id, 2);
        expect(answer.status, answer.text).toBe(201);
        redemption = answer.body;
        expect(redemption).toMatchObject({
          orderNumber: `HT-${100_000 + redemption.id}`,
          status: 'Processing',
          paymentStatus: 'Paid',
          transactionId: null,
          cardBrand: null,
          cardLast4: null,
          email: redeemer.email,
          totalAmount: 0,
          subtotal: 0,
          taxAmount: 0,
          shippingCost: 0,
          total: 0,
          pointsSpent: 100,
          shippingAddress: { ...SHIPPING, addressLine2: null },
          returnStatus: null,
        });
        expect(redemption.items).toEqual([
          expect.objectContaining({
            productId: prize.id,
            productName: prize.name,
            quantity: 2,
            unitPrice: 0,
            lineTotal: 0,
          }),
        ]);
        expect(charges()).toBe(chargesBefore);
        expect(await stockOf(prize.id)).toBe(3);
        expect(await balanceOf(redeemer)).toBe(100);
        const [newest] = await allEntries(redeemer);
        expect(newest).toEqual({
          id: expect.any(Number),
          kind: 'redeem',
          points: -100,
          orderId: redemption.id,
          note: `Redeemed 2 × ${prize.name}`,
          createdAt: expect.any(String),
          availableAt: expect.any(String),
          balanceAfter: 100,
        });
        const read = await call<Order>('GET', `/api/orders/${redemption.id}`, { token: redeemer.token });
        expect(read.status).toBe(200);
        expect(read.body).toEqual(redemption);
      });

      it('cancelling the redemption order gives its points and stock back, once', async () => {
        const answer = await call<Order>('PUT', `/api/orders/${redemption.id}/cancel`, { token: redeemer.token });
        expect(answer.status, answer.text).toBe(200);
        expect(answer.body).toMatchObject({ id: redemption.id, status: 'Cancelled', paymentStatus: 'Refunded' });
        expect(await stockOf(prize.id)).toBe(5);
        expect(await balanceOf(redeemer)).toBe(200);
        const [newest] = await allEntries(redeemer);
        expect(newest).toMatchObject({
          kind: 'reverse',
          points: 100,
          orderId: redemption.id,
          note: `Order ${redemption.orderNumber} cancelled: points returned`,
          balanceAfter: 200,
        });

        const again = await call('PUT', `/api/orders/${redemption.id}/cancel`, { token: redeemer.token });
        expect(again.status).toBe(409);
        expect(again.body).toEqual({ message: ORDER_MESSAGES.alreadyCancelled });
        expect(await stockOf(prize.id)).toBe(5);
        expect(await balanceOf(redeemer)).toBe(200);
      });

      it('spends exactly the balance, then 409 for one point more', async () => {
        const answer = await redeem(redeemer, prize.id, 4);
        expect(answer.status, answer.text).toBe(201);
        expect(await balanceOf(redeemer)).toBe(0);
        const more = await redeem(redeemer, prize.id, 1);
        expect(more.status).toBe(409);
        expect(more.body).toEqual({
          message: MEMBERSHIP_MESSAGES.notEnoughPoints,
          errors: { points: ['You have 0 points; this needs 50'] },
        });
        expect(await stockOf(prize.id)).toBe(1);
        // Fulfilled, it earns nothing (nothing was paid) and can no longer be cancelled.
        await fulfil(answer.body);
        expect(await balanceOf(redeemer)).toBe(0);
        const cancel = await call('PUT', `/api/orders/${answer.body.id}/cancel`, { token: redeemer.token });
        expect(cancel.status).toBe(409);
        expect(cancel.body).toEqual({ message: ORDER_MESSAGES.cannotCancel });
        // Returning one of the four redeemed items gives its points and its stock back.
        const returned = await returnAndApprove(redeemer, answer.body, [
          { orderItemId: answer.body.items[0]!.id, quantity: 1 },
        ]);
        expect(returned.returnStatus).toBe('Approved');
        expect(await stockOf(prize.id)).toBe(2);
        expect(await balanceOf(redeemer)).toBe(50);
        const [newest] = await allEntries(redeemer);
        expect(newest).toMatchObject({
          kind: 'reverse',
          points: 50,
          orderId: answer.body.id,
          note: `Order ${answer.body.orderNumber} returned: points returned`,
          balanceAfter: 50,
        });
        // A quarter of its points came back: the payment (in points) is partly refunded (issue 22), and no
        // adjustment note is issued, as no money moved.
        expect(returned.paymentStatus).toBe('Partially refunded');
        expect(returned.refundedAmount).toBe(0);
        expect(returned.adjustmentNotes).toEqual([]);
      });
    });

    describe('returns reverse the points an order earned', () => {
      it('in proportion to what is returned', async () => {
        const member = await register('returner');
        await joinPlan(member, 'basic');
        const level = await fresh({ priceCents: 6_000, stock: 10 });
        const order = await place(member, [{ productId: level.id, quantity: 3 }]);
        await fulfil(order);
        expect(await balanceOf(member)).toBe(180);
        const returned = await returnAndApprove(member, order, [{ orderItemId: order.items[0]!.id, quantity: 1 }]);
        expect(returned.returnStatus).toBe('Approved');
        expect(await balanceOf(member)).toBe(120);
        const [newest] = await allEntries(member);
        expect(newest).toMatchObject({
          kind: 'reverse',
          points: -60,
          orderId: order.id,
          note: `Order ${order.orderNumber} returned`,
          balanceAfter: 120,
        });
        expect(await stockOf(level.id)).toBe(8);
      });

      it('rounds a share down (in the shopper’s favour) and takes back all of a full return', async () => {
        const member = await register('returner.odd');
        await joinPlan(member, 'basic');
        const [saw, bits] = [
          await fresh({ priceCents: 4_599, stock: 10 }),
          await fresh({ priceCents: 2_050, stock: 10 }),
        ];
        const mixed = await place(member, [
          { productId: saw.id, quantity: 3 },
          { productId: bits.id, quantity: 1 },
        ]);
        expect(mixed.subtotal).toBe(158.47);
        await fulfil(mixed);
        expect(await balanceOf(member)).toBe(158);
        const sawLine = mixed.items.find((item) => item.productId === saw.id)!;
        await returnAndApprove(member, mixed, [{ orderItemId: sawLine.id, quantity: 2 }]);
        // 158 × 91.98 / 158.47 = 91.7…: 91 points go back.
        expect(await balanceOf(member)).toBe(158 - 91);

        const whole = await place(member, [{ productId: bits.id, quantity: 2 }]);
        await fulfil(whole);
        expect(await balanceOf(member)).toBe(67 + 41);
        await returnAndApprove(
          member,
          whole,
          whole.items.map((item) => ({ orderItemId: item.id, quantity: item.quantity })),
        );
        expect(await balanceOf(member)).toBe(67);
        await allEntries(member);
      });

      it('points cannot be spent inside the return window, nor the order returned after it (issue 21)', async () => {
        const member = await register('spender');
        await joinPlan(member, 'basic');
        const bench = await fresh({ priceCents: 10_000, stock: 10 });
        const treat = await fresh({ priceCents: 8_000, stock: 10, pointsCost: 80 });
        const order = await place(member, [{ productId: bench.id, quantity: 1 }]);
        await fulfil(order);
        expect(await balanceOf(member)).toBe(100);
        expect((await redeem(member, treat.id, 1)).status).toBe(409);

        await windowPasses(member);
        expect((await redeem(member, treat.id, 1)).status).toBe(201);
        expect(await balanceOf(member)).toBe(20);
        const late = await call('POST', `/api/orders/${order.id}/returns`, {
          token: member.token,
          body: { reason: 'Not what I needed', items: [{ orderItemId: order.items[0]!.id, quantity: 1 }] },
        });
        expect(late.status, late.text).toBe(409);
        expect(await balanceOf(member)).toBe(20);
        const entries = await allEntries(member);
        expect(entries.every((entry) => entry.balanceAfter >= 0)).toBe(true);
      });
    });
  });
}
