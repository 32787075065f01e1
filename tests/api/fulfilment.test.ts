import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../contracts/account.ts';
import { AUSTRALIAN_ADDRESS_MESSAGES } from '../../contracts/australian-address.ts';
import { COLLECT_RULES } from '../../contracts/fulfilment.ts';
import type { Order } from '../../contracts/orders.ts';
import { auditLog, orderFulfilments, orders, products } from '../../db/schema.ts';
import { type OutboxMail, readOutbox } from '../helpers/outbox.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

/*
 * Issue 22, "Fulfilment with tracking" and "Click & collect", through inject on PGlite and
 * PostgreSQL: orders placed for delivery or collection (collect: no address, no delivery
 * charge, a contact phone), Australian states and postcodes, the owner shipping with a
 * carrier and tracking number, ready → collected, the uncollected-order job (a reminder at 7
 * days, cancelled and refunded at 14) and the e-mails of each step read back from the outbox
 * with their HTML and text parts.
 */

interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
}

interface Account {
  token: string;
  user: User;
  email: string;
}

interface OrderDetail {
  /** Set on an error answer. */
  message?: string;
  order: Order;
  history: { status: string; actor: string; note: string | null }[];
  allowedMoves: string[];
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const PASSWORD = 'Harbour-Fulfilment-Pass-42';
const ADMIN_PASSWORD = 'Harbour-Fulfilment-Admin-42';
const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const ACCOUNT_PHONE = '0412 345 678';
const SHIPPING = {
  fullName: 'Ann Lee',
  addressLine1: '14 Boundary Lane',
  city: 'Silverwater',
  state: 'NSW',
  postalCode: '2128',
  country: 'Australia',
};
const DAY_MS = 86_400_000;

const postgresAvailable = await isPostgresReachable();
const kinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'pglite', skip: false },
  { kind: 'postgres', skip: !postgresAvailable },
];

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`delivery, click & collect and fulfilment on ${kind}`, () => {
    let shop: TestShop;
    let outbox: string;
    let adminToken: string;
    let alice: Account;
    let productIds: number[] = [];
    let nextProduct = 0;
    let sequence = 0;

    async function call<T = ErrorBody>(
      method: Method,
      url: string,
      options: { token?: string | null; body?: unknown } = {},
    ): Promise<{ status: number; body: T; text: string }> {
      sequence += 1;
      const token = options.token === undefined ? adminToken : options.token;
      const response = await shop.app.inject({
        method,
        url,
        remoteAddress: `10.41.${(sequence >> 8) & 255}.${sequence & 255}`,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
      });
      const text = response.body;
      return { status: response.statusCode, body: (text ? JSON.parse(text) : null) as T, text };
    }

    async function register(tag: string, address: Record<string, string> = SHIPPING) {
      sequence += 1;
      const email = `fulfilment.${tag.toLowerCase()}.${sequence}.${kind}@example.com`;
      const { fullName: _, ...postal } = address;
      return call<{ token: string; user: User }>('POST', '/api/auth/register', {
        token: null,
        body: {
          firstName: 'Ann',
          lastName: tag,
          email,
          password: PASSWORD,
          PhoneNumber: ACCOUNT_PHONE,
          address: postal,
        },
      }).then((answer) => ({ ...answer, email }));
    }

    async function account(tag: string): Promise<Account> {
      const answer = await register(tag);
      expect(answer.status, answer.text).toBe(201);
      return { ...answer.body, email: answer.email };
    }

    async function freshProduct(priceCents: number, stock: number): Promise<number> {
      const id = productIds[nextProduct];
      nextProduct += 1;
      if (id === undefined) throw new Error('The test shop has too few products');
      await shop.database.db
        .update(products)
        .set({ priceCents, discountPriceCents: null, stockQuantity: stock, isActive: true })
        .where(eq(products.id, id));
      shop.app.services.catalog.invalidate();
      return id;
    }

    async function stockOf(id: number): Promise<number> {
      const [row] = await shop.database.db
        .select({ stock: products.stockQuantity })
        .from(products)
        .where(eq(products.id, id));
      return row?.stock ?? Number.NaN;
    }

    function orderBody(who: Account, productId: number, extra: Record<string, unknown> = {}) {
      sequence += 1;
      return {
        sessionId: `session_${Date.now()}_${kind}_${sequence}`,
        userEmail: who.email,
        orderItems: [{ productId, quantity: 1, productName: 'x', unitPrice: 0.01 }],
        paymentMethod: 'credit_card',
        paymentMethodId: null,
        cardData: { Number: '4242 4242 4242 4242', Expiry: EXPIRY, Cvc: '123', Name: 'Ann Lee' },
        shippingAddress: SHIPPING,
        ...extra,
      };
    }

    async function place(who: Account, productId: number, extra: Record<string, unknown> = {}): Promise<Order> {
      const answer = await call<{ order: Order }>('POST', '/api/orders', {
        token: who.token,
        body: orderBody(who, productId, extra),
      });
      expect(answer.status, answer.text).toBe(201);
      return answer.body.order;
    }

    const collect = { fulfilment: 'collect', shippingAddress: undefined };

    /** E-mails written to the outbox while `run` runs (after every send has finished). */
    async function mailsDuring(run: () => Promise<unknown>): Promise<OutboxMail[]> {
      await shop.app.services.mailer.idle();
      const before = new Set((await readOutbox(outbox)).map((mail) => mail.file));
      await run();
      await shop.app.services.mailer.idle();
      return (await readOutbox(outbox)).filter((mail) => !before.has(mail.file));
    }

    const ship = (orderId: number, body: unknown) =>
      call<OrderDetail>('POST', `/api/admin/orders/${orderId}/ship`, { body });
    const ready = (orderId: number) => call<OrderDetail>('POST', `/api/admin/orders/${orderId}/ready-to-collect`);
    const collected = (orderId: number) => call<OrderDetail>('POST', `/api/admin/orders/${orderId}/collected`);

    async function fulfilmentRow(orderId: number) {
      const [row] = await shop.database.db.select().from(orderFulfilments).where(eq(orderFulfilments.orderId, orderId));
      return row;
    }

    beforeAll(async () => {
      outbox = mkdtempSync(join(tmpdir(), 'harbour-fulfilment-outbox-'));
      shop = await createTestShop(kind, { products: 30, env: { MAIL_OUTBOX_DIR: outbox, PAYMENT_DECLINE_RATE: '1' } });
      productIds = (await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id)).map(
        (row) => row.id,
      );
      const email = `fulfilment.admin.${kind}@example.com`;
      await shop.app.services.accounts.ensureAdmin(email, ADMIN_PASSWORD);
      const signedIn = await call<{ token: string }>('POST', '/api/auth/login', {
        token: null,
        body: { email, password: ADMIN_PASSWORD },
      });
      expect(signedIn.status, signedIn.text).toBe(200);
      adminToken = signedIn.body.token;
      alice = await account('Alice');
    });
    afterAll(async () => {
      await shop?.app.services.mailer.idle();
      await shop?.close();
      if (outbox) rmSync(outbox, { recursive: true, force: true });
    });

    describe('placing orders', () => {
      it('delivers by default (the spec’s body unchanged), charging $10 inc GST and calling the account’s phone', async () => {
        const product = await freshProduct(8_900, 10);
        const order = await place(alice, product);
        expect(order).toMatchObject({
          fulfilment: 'delivery',
          contactPhone: ACCOUNT_PHONE,
          subtotal: 89,
          taxAmount: 8.9,
          shippingCost: 10,
          shippingTaxAmount: 0.91,
          total: 107.9,
          shippingAddress: { ...SHIPPING, addressLine2: null },
          fulfilmentRecord: null,
        });
      });

      it('collects with no address and no delivery charge, keeping the contact phone given', async () => {
        const product = await freshProduct(8_900, 10);
        const order = await place(alice, product, { ...collect, contactPhone: '0400 111 222' });
        expect(order).toMatchObject({
          fulfilment: 'collect',
          contactPhone: '0400 111 222',
          shippingAddress: null,
          shippingCost: 0,
          shippingTaxAmount: 0,
          taxAmount: 8.9,
          total: 97.9,
          gstFreeExport: false,
        });
        const [row] = await shop.database.db.select().from(orders).where(eq(orders.id, order.id));
        expect(row).toMatchObject({
          fulfilment: 'collect',
          shipFullName: null,
          shipAddressLine1: null,
          shipCountry: null,
        });
        // An address sent with a collect order is not kept either.
        const withAddress = await place(alice, product, { fulfilment: 'collect' });
        expect(withAddress).toMatchObject({ shippingAddress: null, shippingCost: 0, contactPhone: ACCOUNT_PHONE });
      });

      it('refuses a delivery without an address, a bad contact phone and an unknown fulfilment with 400', async () => {
        const product = await freshProduct(1_000, 10);
        const cases: [Record<string, unknown>, string, string][] = [
          [{ shippingAddress: undefined }, 'shippingAddress', 'A delivery needs a shipping address'],
          [{ fulfilment: 'delivery', shippingAddress: null }, 'shippingAddress', 'A delivery needs a shipping address'],
          [
            { ...collect, contactPhone: 'call me' },
            'contactPhone',
            'Please enter a valid phone number, e.g. 0412 345 678',
          ],
          [{ fulfilment: 'drone' }, 'fulfilment', "fulfilment must be 'delivery' or 'collect'"],
        ];
        for (const [extra, field, message] of cases) {
          const answer = await call('POST', '/api/orders', {
            token: alice.token,
            body: orderBody(alice, product, extra),
          });
          expect(answer.status, JSON.stringify(extra)).toBe(400);
          expect(answer.body.errors?.[field]).toEqual([message]);
        }
        expect(await stockOf(product)).toBe(10);
      });

      it('counts fulfilment and contact phone in the idempotency key’s body', async () => {
        const product = await freshProduct(1_000, 10);
        const body = orderBody(alice, product);
        const first = await call<{ order: Order }>('POST', '/api/orders', { token: alice.token, body });
        expect(first.status).toBe(201);
        const again = await call<{ order: Order }>('POST', '/api/orders', { token: alice.token, body });
        expect(again.body.order.id).toBe(first.body.order.id);
        for (const change of [collect, { contactPhone: '0400 999 888' }]) {
          const other = await call('POST', '/api/orders', { token: alice.token, body: { ...body, ...change } });
          expect(other.status, JSON.stringify(change)).toBe(422);
        }
      });
    });

    describe('Australian addresses', () => {
      it('takes a state’s full name and stores its code; refuses an unknown state and a postcode that is not 4 digits', async () => {
        const product = await freshProduct(1_000, 10);
        const victoria = await place(alice, product, {
          shippingAddress: { ...SHIPPING, state: 'victoria', postalCode: '3000' },
        });
        expect(victoria.shippingAddress).toMatchObject({ state: 'VIC', postalCode: '3000' });
        const cases: [Record<string, string>, string, string][] = [
          [{ state: 'Sydney' }, 'shippingAddress.state', AUSTRALIAN_ADDRESS_MESSAGES.state],
          [{ postalCode: '200' }, 'shippingAddress.postalCode', AUSTRALIAN_ADDRESS_MESSAGES.postcode],
          [{ postalCode: '2OOO' }, 'shippingAddress.postalCode', AUSTRALIAN_ADDRESS_MESSAGES.postcode],
          [{ state: '' }, 'shippingAddress.state', 'State is required'],
        ];
        for (const [change, field, message] of cases) {
          const answer = await call('POST', '/api/orders', {
            token: alice.token,
            body: orderBody(alice, product, { shippingAddress: { ...SHIPPING, ...change } }),
          });
          expect(answer.status, JSON.stringify(change)).toBe(400);
          expect(answer.body.errors?.[field]).toEqual([message]);
        }
        // Other countries keep their own states and postcodes.
        const abroad = await place(alice, product, {
          shippingAddress: { ...SHIPPING, state: 'California', postalCode: '90210', country: 'United States' },
        });
        expect(abroad.shippingAddress).toMatchObject({ state: 'California', postalCode: '90210' });
        expect(abroad).toMatchObject({ gstFreeExport: true, taxAmount: 0, shippingTaxAmount: 0 });
      });

      it('holds registration and the address book to the same rules', async () => {
        const refused = await register('Badstate', { ...SHIPPING, state: 'Sydney' });
        expect(refused.status).toBe(400);
        expect((refused.body as unknown as ErrorBody).errors?.['address.state']).toEqual([
          AUSTRALIAN_ADDRESS_MESSAGES.state,
        ]);
        const registered = await register('Queenslander', { ...SHIPPING, state: 'Queensland', postalCode: '4000' });
        expect(registered.status, registered.text).toBe(201);
        const book = await call<{ state: string }[]>('GET', '/api/addresses', { token: registered.body.token });
        expect(book.body[0]).toMatchObject({ state: 'QLD', postalCode: '4000' });

        const address = { addressType: 'Work', ...SHIPPING };
        const bad = await call('POST', '/api/addresses', {
          token: alice.token,
          body: { ...address, postalCode: '21280' },
        });
        expect(bad.status).toBe(400);
        expect(bad.body.errors?.postalCode).toEqual([AUSTRALIAN_ADDRESS_MESSAGES.postcode]);
        const good = await call<{ state: string }>('POST', '/api/addresses', {
          token: alice.token,
          body: { ...address, state: 'Australian Capital Territory', postalCode: '2600' },
        });
        expect(good.status, good.text).toBe(201);
        expect(good.body.state).toBe('ACT');
      });
    });

    describe('shipping a delivery', () => {
      it('records the carrier and tracking number, moves the order to Succeeded and e-mails the tracking link', async () => {
        const product = await freshProduct(8_900, 10);
        const order = await place(alice, product);
        let answer: Awaited<ReturnType<typeof ship>> | undefined;
        const mails = await mailsDuring(async () => {
          answer = await ship(order.id, { carrier: 'australia-post', trackingNumber: ' 33ab 1234 5678 ' });
        });
        expect(answer?.status, answer?.text).toBe(200);
        const detail = answer!.body;
        expect(detail.order.status).toBe('Succeeded');
        expect(detail.order.fulfilmentRecord).toMatchObject({
          method: 'delivery',
          carrier: 'australia-post',
          carrierName: 'Australia Post',
          trackingNumber: '33AB 1234 5678',
          trackingUrl: 'https://auspost.com.au/mypost/track/details/33AB%201234%205678',
          readyAt: null,
          collectedAt: null,
        });
        expect(detail.order.fulfilmentRecord?.shippedAt).toBeTruthy();
        expect(detail.history.map((event) => event.status)).toEqual(
          expect.arrayContaining(['Processing', 'Shipped', 'Succeeded']),
        );
        const [row] = await shop.database.db.select().from(orders).where(eq(orders.id, order.id));
        expect(row?.fulfilledAt).toBeTruthy();
        expect(await fulfilmentRow(order.id)).toMatchObject({ method: 'delivery', carrier: 'australia-post' });
        const audit = await shop.database.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'order.shipped'), eq(auditLog.entityId, String(order.id))));
        expect(audit).toHaveLength(1);

        // The shopper sees it on their own order.
        const mine = await call<Order>('GET', `/api/orders/${order.id}`, { token: alice.token });
        expect(mine.body.fulfilmentRecord).toEqual(detail.order.fulfilmentRecord);

        const shipped = mails.filter((mail) => mail.to.includes(alice.email));
        expect(shipped.map((mail) => mail.subject)).toEqual([
          `Your Harbour Tools order ${order.orderNumber} is on its way`,
        ]);
        const [mail] = shipped;
        expect(mail?.html).toContain('href="https://auspost.com.au/mypost/track/details/33AB%201234%205678"');
        expect(mail?.text).toContain('Tracking number: 33AB 1234 5678.');
        expect(mail?.text).toContain('Australia Post');
        expect(mail?.text).toContain(
          'Track your parcel: https://auspost.com.au/mypost/track/details/33AB%201234%205678',
        );
      });

      it('shows an "other" carrier’s number alone, with no link', async () => {
        const product = await freshProduct(2_000, 10);
        const order = await place(alice, product);
        const answer = await ship(order.id, { carrier: 'other', trackingNumber: 'TNT-998877' });
        expect(answer.status).toBe(200);
        expect(answer.body.order.fulfilmentRecord).toMatchObject({
          carrierName: 'Other carrier',
          trackingNumber: 'TNT-998877',
          trackingUrl: null,
        });
      });

      it('refuses a bad carrier or number (400), a second shipment and a collect order (409), another’s id (404)', async () => {
        const product = await freshProduct(2_000, 10);
        const order = await place(alice, product);
        const badCarrier = await ship(order.id, { carrier: 'pigeon', trackingNumber: 'AB123456' });
        expect(badCarrier.status).toBe(400);
        expect(badCarrier.body).toMatchObject({ errors: { carrier: ['Choose the carrier'] } });
        const noNumber = await ship(order.id, { carrier: 'startrack', trackingNumber: '  ' });
        expect(noNumber.body).toMatchObject({ errors: { trackingNumber: ['Enter the tracking number'] } });
        const oddNumber = await ship(order.id, { carrier: 'startrack', trackingNumber: '<script>' });
        expect(oddNumber.status).toBe(400);
        expect((await ship(order.id, { carrier: 'startrack', trackingNumber: 'ST123456' })).status).toBe(200);
        const again = await ship(order.id, { carrier: 'startrack', trackingNumber: 'ST123456' });
        expect(again.status).toBe(409);

        const toCollect = await place(alice, product, collect);
        const wrongWay = await ship(toCollect.id, { carrier: 'startrack', trackingNumber: 'ST123457' });
        expect(wrongWay.status).toBe(409);
        expect(wrongWay.body.message).toBe('This is a click & collect order: mark it ready to collect instead.');
        expect(await fulfilmentRow(toCollect.id)).toBeUndefined();
        expect((await ship(999_999, { carrier: 'startrack', trackingNumber: 'ST123458' })).status).toBe(404);
      });

      it('sends no shipped e-mail to a shopper who turned order updates off', async () => {
        const quiet = await account('Quiet');
        const saved = await call('PUT', '/api/preferences', {
          token: quiet.token,
          body: { marketingEmails: false, orderUpdateEmails: false, preferredContactMethod: 'email' },
        });
        expect(saved.status, saved.text).toBe(200);
        const product = await freshProduct(2_000, 10);
        const order = await place(quiet, product);
        const mails = await mailsDuring(() =>
          ship(order.id, { carrier: 'couriers-please', trackingNumber: 'CP12345678' }),
        );
        expect(mails.filter((mail) => mail.to.includes(quiet.email))).toEqual([]);
      });
    });

    describe('click & collect', () => {
      it('ready to collect (still Processing) then collected (Succeeded), each e-mailed and audited', async () => {
        const product = await freshProduct(4_500, 10);
        const order = await place(alice, product, collect);
        const early = await collected(order.id);
        expect(early.status).toBe(409);
        expect(early.body.message).toBe('Mark the order ready to collect before it is collected.');

        let answer: Awaited<ReturnType<typeof ready>> | undefined;
        const mails = await mailsDuring(async () => {
          answer = await ready(order.id);
        });
        expect(answer?.status, answer?.text).toBe(200);
        expect(answer?.body.order.status).toBe('Processing');
        expect(answer?.body.order.fulfilmentRecord).toMatchObject({ method: 'collect', collectedAt: null });
        expect(answer?.body.order.fulfilmentRecord?.readyAt).toBeTruthy();
        expect(answer?.body.history.map((event) => event.status)).toContain('Ready to collect');
        expect((await ready(order.id)).status).toBe(409);

        const [mail] = mails.filter((candidate) => candidate.to.includes(alice.email));
        expect(mail?.subject).toBe(`Your Harbour Tools order ${order.orderNumber} is ready to collect`);
        for (const part of [mail?.text ?? '', mail?.html ?? '']) {
          expect(part).toContain('14 Boundary Lane, Silverwater NSW 2128');
          expect(part).toContain('Mon–Fri 8:00–17:00, Sat 9:00–16:00, Sun closed');
          expect(part).toContain('photo ID');
          expect(part).toContain(order.orderNumber);
        }

        const done = await collected(order.id);
        expect(done.status, done.text).toBe(200);
        expect(done.body.order.status).toBe('Succeeded');
        expect(done.body.order.fulfilmentRecord?.collectedAt).toBeTruthy();
        expect(done.body.history.map((event) => event.status)).toEqual(
          expect.arrayContaining(['Ready to collect', 'Collected', 'Succeeded']),
        );
        const actions = await shop.database.db
          .select({ action: auditLog.action })
          .from(auditLog)
          .where(eq(auditLog.entityId, String(order.id)));
        expect(actions.map((entry) => entry.action)).toEqual(
          expect.arrayContaining(['order.ready-to-collect', 'order.collected']),
        );
      });

      it('refuses ready to collect on a delivery order (409)', async () => {
        const product = await freshProduct(1_000, 10);
        const order = await place(alice, product);
        const answer = await ready(order.id);
        expect(answer.status).toBe(409);
        expect(answer.body.message).toBe('This order is for delivery: mark it shipped instead.');
      });

      it('refuses a malformed or out-of-range order id (400), an unknown one (404) and collecting what is not ready (409), writing nothing', async () => {
        for (const path of ['ship', 'ready-to-collect', 'collected']) {
          for (const id of ['abc', '0', '99999999999']) {
            const answer = await call<ErrorBody>('POST', `/api/admin/orders/${id}/${path}`, {
              body: { carrier: 'startrack', trackingNumber: 'ST999999' },
            });
            expect(answer.status, `${path} ${id}`).toBe(400);
            expect(typeof answer.body.message).toBe('string');
          }
          expect((await call<ErrorBody>('POST', `/api/admin/orders/999999/${path}`, { body: {} })).status).not.toBe(
            500,
          );
        }
        expect((await ready(999_999)).status).toBe(404);
        expect((await collected(999_999)).status).toBe(404);
        const product = await freshProduct(1_000, 10);
        const order = await place(alice, product, collect);
        const early = await collected(order.id);
        expect(early.status).toBe(409);
        expect(await fulfilmentRow(order.id)).toBeUndefined();
      });

      it('keeps the spec’s one-step status move working, recorded as collected or shipped', async () => {
        const product = await freshProduct(1_000, 10);
        const toCollect = await place(alice, product, collect);
        const moved = await call<OrderDetail>('PUT', `/api/admin/orders/${toCollect.id}/status`, {
          body: { status: 'Succeeded' },
        });
        expect(moved.status, moved.text).toBe(200);
        expect(moved.body.order.fulfilmentRecord).toMatchObject({ method: 'collect' });
        expect(moved.body.order.fulfilmentRecord?.collectedAt).toBeTruthy();
        const toDeliver = await place(alice, product);
        const shipped = await call<OrderDetail>('PUT', `/api/admin/orders/${toDeliver.id}/status`, {
          body: { status: 'Succeeded' },
        });
        expect(shipped.body.order.fulfilmentRecord).toMatchObject({
          method: 'delivery',
          carrier: null,
          trackingUrl: null,
        });
      });
    });

    describe('uncollected orders', () => {
      it('reminds once after 7 days ready and cancels and refunds after 14, stock back, even with two runs at once', async () => {
        const product = await freshProduct(3_000, 10);
        const order = await place(alice, product, collect);
        expect(await stockOf(product)).toBe(9);
        expect((await ready(order.id)).status).toBe(200);
        const { fulfilment } = shop.app.services;
        const readyAt = (await fulfilmentRow(order.id))?.readyAt ?? new Date();
        const daysReady = (days: number) => new Date(readyAt.getTime() + days * DAY_MS + 60_000);

        const quiet = await mailsDuring(() => fulfilment.runOnce(daysReady(COLLECT_RULES.reminderAfterDays - 1)));
        expect(quiet.filter((mail) => mail.subject.includes(order.orderNumber))).toEqual([]);

        const reminders = await mailsDuring(() =>
          Promise.all([
            fulfilment.runOnce(daysReady(COLLECT_RULES.reminderAfterDays)),
            fulfilment.runOnce(daysReady(COLLECT_RULES.reminderAfterDays)),
          ]),
        );
        const mine = reminders.filter((mail) => mail.subject.includes(order.orderNumber));
        expect(mine.map((mail) => mail.subject)).toEqual([
          `Reminder: your Harbour Tools order ${order.orderNumber} is waiting to be collected`,
        ]);
        expect(mine[0]?.text).toContain('we will cancel it and refund your payment in full');
        expect(mine[0]?.html).toContain('photo ID');
        expect((await fulfilmentRow(order.id))?.collectReminderSentAt).toBeTruthy();
        const [still] = await shop.database.db.select().from(orders).where(eq(orders.id, order.id));
        expect(still?.status).toBe('Processing');

        const outcomes = await Promise.all([
          fulfilment.runOnce(daysReady(COLLECT_RULES.expireAfterDays)),
          fulfilment.runOnce(daysReady(COLLECT_RULES.expireAfterDays)),
        ]);
        expect(outcomes.reduce((sum, outcome) => sum + outcome.failed, 0)).toBe(0);
        const cancelled = await call<Order>('GET', `/api/orders/${order.id}`, { token: alice.token });
        expect(cancelled.body).toMatchObject({
          status: 'Cancelled',
          paymentStatus: 'Refunded',
          refundedAmount: order.total,
        });
        expect(await stockOf(product)).toBe(10);
        // Later runs leave it alone.
        const later = await fulfilment.runOnce(daysReady(COLLECT_RULES.expireAfterDays + 1));
        expect(later.failed).toBe(0);
      });

      it('leaves a collected order, and one not yet ready, alone', async () => {
        const product = await freshProduct(3_000, 10);
        const waiting = await place(alice, product, collect);
        const picked = await place(alice, product, collect);
        await ready(picked.id);
        await collected(picked.id);
        const far = new Date(Date.now() + 30 * DAY_MS);
        await shop.app.services.fulfilment.runOnce(far);
        const rows = await shop.database.db.select({ id: orders.id, status: orders.status }).from(orders);
        const statusOf = (id: number) => rows.find((row) => row.id === id)?.status;
        expect(statusOf(waiting.id)).toBe('Processing');
        expect(statusOf(picked.id)).toBe('Succeeded');
      });
    });
  });
}
