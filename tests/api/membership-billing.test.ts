import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import type { User } from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES } from '../../contracts/account-fields.ts';
import { MEMBERSHIP_MESSAGES, MEMBERSHIP_PLANS } from '../../contracts/membership.ts';
import { ORDER_MESSAGES } from '../../contracts/orders.ts';
import { emailOutbox, membershipCharges, memberships, paymentMethods, sessions, users } from '../../db/schema.ts';
import { formatEmailDate } from '../../server/domain/email-layout.ts';
import { type OutboxMail, readOutbox } from '../helpers/outbox.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

/*
 * Membership billing through the gateway (issue 21, "Free Premium"): joining saves the card as
 * the membership's payment method; a change to a dearer plan charges the pro-rated difference
 * once, however many requests race; a declined change changes nothing; a cheaper plan waits for
 * the renewal; the renewal job charges on the date, retries a declined renewal twice a day
 * apart and then lets the membership lapse; a reminder goes 7 days before; members already past
 * their renewal date are charged once. The job runs through `runOnce(now)` with an injected
 * clock. PAYMENT_DECLINE_RATE is 1: only the approve test card and saved methods pay (a saved
 * method ending 0002 declines).
 */

interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
}

interface MembershipBody {
  plan: 'basic' | 'premium';
  status: string;
  startedAt: string;
  renewsOn: string;
  pendingPlan: 'basic' | 'premium' | null;
  nextChargeCents: number | null;
  paymentMethod: { id: number; provider: string; last4Digits: string; expiryMonth: string; expiryYear: number } | null;
  lastCharge: { kind: string; plan: string; amountCents: number; chargedAt: string; last4: string | null } | null;
  retryOn: string | null;
}

interface Account {
  token: string;
  user: User;
  email: string;
}

const PASSWORD = 'Harbour-Billing-Pass-42';
const YEAR = new Date().getFullYear();
const EXPIRY = `07/${String((YEAR + 2) % 100).padStart(2, '0')}`;
const APPROVE = '4242 4242 4242 4242';
const DECLINE = '4000 0000 0000 0002';
const DAY = 86_400_000;
const BASIC = MEMBERSHIP_PLANS.find((plan) => plan.id === 'basic')!.monthlyPriceCents;
const PREMIUM = MEMBERSHIP_PLANS.find((plan) => plan.id === 'premium')!.monthlyPriceCents;

const postgresAvailable = await isPostgresReachable();
const kinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'pglite', skip: false },
  { kind: 'postgres', skip: !postgresAvailable },
];

function card(number = APPROVE) {
  return { Number: number, Expiry: EXPIRY, Cvc: '123', Name: 'Ann Lee' };
}

/** A calendar month after `date`, as the shop counts it. */
function oneMonthAfter(date: Date): Date {
  const next = new Date(date);
  next.setMonth(next.getMonth() + 1);
  return next;
}

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`membership billing on ${kind}`, () => {
    let shop: TestShop;
    let chargeSpy: MockInstance;
    let sequence = 0;

    function nextIp(): string {
      sequence += 1;
      return `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
    }

    async function call<T = ErrorBody>(method: string, url: string, options: { token?: string; body?: unknown } = {}) {
      const response = await shop.app.inject({
        method: method as 'GET',
        url,
        remoteAddress: nextIp(),
        headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
        ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
      });
      return { status: response.statusCode, body: response.json() as T, text: response.body };
    }

    async function register(tag: string): Promise<Account> {
      sequence += 1;
      const email = `billing.${tag}.${sequence}.${kind}@example.com`;
      const answer = await call<{ token: string; user: User }>('POST', '/api/auth/register', {
        body: {
          firstName: 'Ann',
          lastName: tag,
          email,
          password: PASSWORD,
          PhoneNumber: '0412 345 678',
          address: {
            addressLine1: '1 Main St',
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

    async function join(account: Account, plan: 'basic' | 'premium', number = APPROVE): Promise<MembershipBody> {
      const answer = await call<MembershipBody>('POST', '/api/membership', {
        token: account.token,
        body: { plan, password: PASSWORD, confirmPassword: PASSWORD, cardData: card(number) },
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

    async function row(account: Account) {
      const [found] = await shop.database.db.select().from(memberships).where(eq(memberships.userId, account.user.id));
      return found!;
    }

    async function chargesOf(account: Account) {
      return shop.database.db
        .select()
        .from(membershipCharges)
        .where(eq(membershipCharges.userId, account.user.id))
        .orderBy(membershipCharges.id);
    }

    /** Gateway calls since `from` (the test's own member's only, when one is named). */
    async function callsSince(from: number, account?: Account) {
      const calls = chargeSpy.mock.calls
        .slice(from)
        .map((args) => args[0] as { amountCents: number; source: unknown; idempotencyKey: string });
      if (!account) return calls;
      // The idempotency key names the charge row, and the row its member.
      const ids = new Set((await chargesOf(account)).map((charge) => charge.id));
      return calls.filter((call) => ids.has(Number(call.idempotencyKey.split(':')[1])));
    }

    async function mails(account: Account, mailKind: string) {
      await shop.app.services.mailer.idle();
      return shop.database.db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.recipient, account.email), eq(emailOutbox.kind, mailKind)));
    }

    function billing() {
      return (
        shop.app.services as unknown as {
          membershipBilling: { runOnce(now: Date): Promise<unknown> };
        }
      ).membershipBilling;
    }

    /** Sets the paid period of a membership (tests cannot wait a month). */
    async function setPeriod(account: Account, periodStartedAt: Date, renewsOn: Date) {
      await shop.database.db
        .update(memberships)
        .set({ periodStartedAt, renewsOn })
        .where(eq(memberships.userId, account.user.id));
    }

    let outbox: string;

    /** Every e-mail to this address, both parts read back. */
    async function mailTexts(account: Account): Promise<OutboxMail[]> {
      await shop.app.services.mailer.idle();
      return (await readOutbox(outbox)).filter((mail) => mail.to.includes(account.email));
    }

    beforeAll(async () => {
      outbox = mkdtempSync(joinPath(tmpdir(), 'harbour-billing-outbox-'));
      shop = await createTestShop(kind, {
        products: 3,
        env: { PAYMENT_DECLINE_RATE: '1', MAIL_OUTBOX_DIR: outbox },
      });
      chargeSpy = vi.spyOn(shop.app.services.gateway, 'charge');
    });
    afterAll(async () => {
      chargeSpy?.mockRestore();
      await shop?.app.services.mailer.idle();
      await shop?.close();
      if (outbox) rmSync(outbox, { recursive: true, force: true });
    });

    it('joining saves the card (last 4 and expiry only) as the method that pays the membership', async () => {
      const account = await register('saver');
      const member = await join(account, 'basic');
      const methods = await shop.database.db
        .select()
        .from(paymentMethods)
        .where(eq(paymentMethods.id, member.paymentMethod?.id ?? 0));
      expect(methods).toHaveLength(1);
      expect(methods[0]).toMatchObject({ last4Digits: '4242', expiryMonth: '07', expiryYear: YEAR + 2 });
      expect(JSON.stringify(methods[0])).not.toContain('4242424242424242');
      expect(member).toMatchObject({
        plan: 'basic',
        status: 'active',
        pendingPlan: null,
        nextChargeCents: BASIC,
        paymentMethod: { last4Digits: '4242', provider: 'Visa' },
        lastCharge: { kind: 'join', plan: 'basic', amountCents: BASIC, last4: '4242' },
        retryOn: null,
      });
      // The welcome e-mail says what was charged, with its GST, and the renewal as a human date.
      const [welcome, ...others] = (await mailTexts(account)).filter((mail) =>
        /Welcome to .+ Basic membership/.test(mail.subject),
      );
      expect(others).toEqual([]);
      for (const part of [welcome!.text, welcome!.html]) {
        expect(part).toContain('$9.99, includes GST of $0.91');
        expect(part).toContain(`renews on ${formatEmailDate(new Date(member.renewsOn))}`);
        expect(part).toContain('Visa ending 4242');
        expect(part).not.toMatch(
          /(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{4}/,
        );
      }
    });

    it('/api/docs shows the billing fields of a membership', async () => {
      const docs = await call<{ components: { schemas: Record<string, { properties: Record<string, unknown> }> } }>(
        'GET',
        '/api/docs/json',
      );
      expect(Object.keys(docs.body.components.schemas.Membership!.properties)).toEqual(
        expect.arrayContaining([
          'pendingPlan',
          'nextChargeCents',
          'retryOn',
          'paymentMethod',
          'lastCharge',
          'renewsOn',
        ]),
      );
      expect(Object.keys(docs.body.components.schemas.ChangeMembershipPlan!.properties)).toEqual(
        expect.arrayContaining(['plan', 'cardData', 'paymentMethodId']),
      );
    });

    it('a Google-only account (no password) confirms with a fresh Google sign-in, never "incorrect"', async () => {
      const account = await register('google.only');
      await shop.database.db.update(users).set({ passwordHash: null }).where(eq(users.id, account.user.id));
      const before = chargeSpy.mock.calls.length;
      const body = { plan: 'basic', password: 'whatever-typed', confirmPassword: 'whatever-typed', cardData: card() };
      const refused = await call('POST', '/api/membership', { token: account.token, body });
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.message).toBe(ACCOUNT_MESSAGES.confirmWithGoogle);
      expect(refused.text).not.toContain('incorrect');
      expect(chargeSpy.mock.calls.length).toBe(before);
      // The session signed in with Google a moment ago: that confirms it is the owner.
      await shop.database.db
        .update(sessions)
        .set({ provenBy: 'google', provenAt: new Date() })
        .where(eq(sessions.userId, account.user.id));
      const joined = await call<MembershipBody>('POST', '/api/membership', { token: account.token, body });
      expect(joined.status, joined.text).toBe(201);
      expect(joined.body).toMatchObject({ plan: 'basic', status: 'active' });
    });

    it('Basic → Premium charges the pro-rated difference once, whatever 20 requests racing', async () => {
      const account = await register('upgrader');
      await join(account, 'basic');
      const now = Date.now();
      await setPeriod(account, new Date(now - 10 * DAY), new Date(now + 20 * DAY));
      const before = chargeSpy.mock.calls.length;
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          call<MembershipBody>('PUT', '/api/membership', { token: account.token, body: { plan: 'premium' } }),
        ),
      );
      const finished = Date.now();
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses, answers.map((answer) => answer.text).join('\n')).toEqual([200, ...Array(19).fill(409)]);
      for (const answer of answers.filter((candidate) => candidate.status === 409)) {
        expect(answer.body).toMatchObject({ message: MEMBERSHIP_MESSAGES.samePlan });
      }
      const calls = await callsSince(before, account);
      expect(calls).toHaveLength(1);
      // floor((premium − basic) × msLeft / periodMs), msLeft read while the request ran.
      const periodMs = 30 * DAY;
      const most = Math.floor(((PREMIUM - BASIC) * (now + 20 * DAY - started)) / periodMs);
      const least = Math.floor(((PREMIUM - BASIC) * (now + 20 * DAY - finished)) / periodMs);
      expect(calls[0]!.amountCents).toBeGreaterThanOrEqual(least);
      expect(calls[0]!.amountCents).toBeLessThanOrEqual(most);
      expect(calls[0]!.amountCents).toBe(666);
      expect(calls[0]!.source).toMatchObject({ kind: 'saved', last4: '4242' });
      const upgrades = (await chargesOf(account)).filter((charge) => charge.kind === 'upgrade');
      expect(upgrades).toMatchObject([{ status: 'approved', amountCents: 666, plan: 'premium' }]);
      const after = await membershipOf(account);
      expect(after).toMatchObject({
        plan: 'premium',
        status: 'active',
        nextChargeCents: PREMIUM,
        lastCharge: { kind: 'upgrade', amountCents: 666 },
      });
      // The renewal date does not move: the upgrade paid for the rest of this period.
      expect(Date.parse(after!.renewsOn)).toBe(now + 20 * DAY);
      const receipts = await mails(account, 'membership-charge');
      // The first month's charge is in the welcome e-mail; the upgrade has its own receipt.
      expect(receipts.map((mail) => mail.subject)).toEqual([expect.stringContaining('$6.66')]);
      const receipt = (await mailTexts(account)).find((mail) => mail.subject.includes('$6.66 charged'));
      for (const part of [receipt!.text, receipt!.html]) {
        expect(part).toContain('$6.66, includes GST of $0.61');
        expect(part).toContain(`renews on ${formatEmailDate(new Date(now + 20 * DAY))} for $19.99`);
      }
    });

    it('a declined upgrade answers 402 with the spec text and changes nothing', async () => {
      const account = await register('declined.upgrade');
      const joined = await join(account, 'basic');
      const before = chargeSpy.mock.calls.length;
      const byCard = await call('PUT', '/api/membership', {
        token: account.token,
        body: { plan: 'premium', cardData: card(DECLINE) },
      });
      expect(byCard.status, byCard.text).toBe(402);
      expect(byCard.body).toEqual({ message: ORDER_MESSAGES.declined });
      // The saved method now declines too (a card ending 0002).
      await shop.database.db
        .update(paymentMethods)
        .set({ last4Digits: '0002' })
        .where(eq(paymentMethods.id, joined.paymentMethod!.id));
      const bySaved = await call('PUT', '/api/membership', { token: account.token, body: { plan: 'premium' } });
      expect(bySaved.status, bySaved.text).toBe(402);
      expect(bySaved.body).toEqual({ message: ORDER_MESSAGES.declined });
      expect(await callsSince(before, account)).toHaveLength(2);
      const after = await membershipOf(account);
      expect(after).toMatchObject({ plan: 'basic', status: 'active', pendingPlan: null, lastCharge: { kind: 'join' } });
      expect(after?.paymentMethod?.id).toBe(joined.paymentMethod!.id);
      expect((await chargesOf(account)).filter((charge) => charge.status === 'approved')).toHaveLength(1);
      expect(await shop.app.services.memberships.planOf(account.user.id)).toBe('basic');
    });

    it('a cheaper plan waits for the renewal, which charges the cheaper price; a dearer choice cancels it', async () => {
      const account = await register('downgrader');
      const joined = await join(account, 'premium');
      const before = chargeSpy.mock.calls.length;
      const down = await call<MembershipBody>('PUT', '/api/membership', {
        token: account.token,
        body: { plan: 'basic' },
      });
      expect(down.status, down.text).toBe(200);
      expect(down.body).toMatchObject({ plan: 'premium', pendingPlan: 'basic', nextChargeCents: BASIC });
      const back = await call<MembershipBody>('PUT', '/api/membership', {
        token: account.token,
        body: { plan: 'premium' },
      });
      expect(back.status, back.text).toBe(200);
      expect(back.body).toMatchObject({ plan: 'premium', pendingPlan: null, nextChargeCents: PREMIUM });
      expect(await callsSince(before, account)).toHaveLength(0);
      expect((await call('PUT', '/api/membership', { token: account.token, body: { plan: 'basic' } })).status).toBe(
        200,
      );
      expect(await shop.app.services.memberships.planOf(account.user.id)).toBe('premium');

      const renewsOn = new Date(joined.renewsOn);
      await billing().runOnce(new Date(renewsOn.getTime() + 60_000));
      expect((await callsSince(before, account)).map((call) => call.amountCents)).toEqual([BASIC]);
      expect(await membershipOf(account)).toMatchObject({
        plan: 'basic',
        pendingPlan: null,
        renewsOn: oneMonthAfter(renewsOn).toISOString(),
        lastCharge: { kind: 'renewal', amountCents: BASIC },
      });
    });

    it('renews on the date, once; a declined renewal is retried twice a day apart, then lapses with an e-mail', async () => {
      const [good, bad] = [await register('renews'), await register('lapses')];
      const goodJoined = await join(good, 'basic');
      const badJoined = await join(bad, 'premium');
      await shop.database.db
        .update(paymentMethods)
        .set({ last4Digits: '0002' })
        .where(eq(paymentMethods.id, badJoined.paymentMethod!.id));
      const renewsOn = new Date(goodJoined.renewsOn);
      await setPeriod(bad, new Date(badJoined.startedAt), renewsOn);
      const before = chargeSpy.mock.calls.length;
      const goodCalls = () => callsSince(before, good);
      const badCalls = () => callsSince(before, bad);

      await billing().runOnce(new Date(renewsOn.getTime() - 60_000));
      expect(await goodCalls()).toHaveLength(0);
      expect(await badCalls()).toHaveLength(0);

      const due = renewsOn.getTime() + 60_000;
      await billing().runOnce(new Date(due));
      await billing().runOnce(new Date(due + 1000));
      expect((await goodCalls()).map((call) => call.amountCents)).toEqual([BASIC]);
      expect(await membershipOf(good)).toMatchObject({
        status: 'active',
        renewsOn: oneMonthAfter(renewsOn).toISOString(),
        lastCharge: { kind: 'renewal', amountCents: BASIC },
      });
      expect((await mails(good, 'membership-charge')).length).toBe(1);

      expect((await badCalls()).map((call) => call.amountCents)).toEqual([PREMIUM]);
      const retrying = await membershipOf(bad);
      expect(retrying).toMatchObject({
        status: 'past_due',
        plan: 'premium',
        retryOn: new Date(due + DAY).toISOString(),
      });
      // Benefits are kept while the renewal is retried.
      expect(await shop.app.services.memberships.planOf(bad.user.id)).toBe('premium');

      await billing().runOnce(new Date(due + DAY - 60_000));
      expect(await badCalls()).toHaveLength(1);
      await billing().runOnce(new Date(due + DAY));
      expect(await badCalls()).toHaveLength(2);
      expect(await membershipOf(bad)).toMatchObject({ status: 'past_due' });
      await billing().runOnce(new Date(due + 2 * DAY));
      expect(await badCalls()).toHaveLength(3);
      expect(await membershipOf(bad)).toMatchObject({ status: 'lapsed', nextChargeCents: null });
      expect(await shop.app.services.memberships.planOf(bad.user.id)).toBeNull();
      await billing().runOnce(new Date(due + 3 * DAY));
      await billing().runOnce(new Date(due + 40 * DAY));
      expect(await badCalls()).toHaveLength(3);
      expect(await mails(bad, 'membership-lapsed')).toHaveLength(1);
      expect(await chargesOf(bad)).toMatchObject([
        { kind: 'join', status: 'approved' },
        { kind: 'renewal', status: 'declined', attempts: 3, amountCents: PREMIUM },
      ]);
      // A lapsed member may join again.
      const rejoined = await call<MembershipBody>('POST', '/api/membership', {
        token: bad.token,
        body: { plan: 'basic', password: PASSWORD, confirmPassword: PASSWORD, cardData: card() },
      });
      expect(rejoined.status, rejoined.text).toBe(201);
    });

    it('the same plan with a card or saved method changes the card that pays the renewals, charging nothing', async () => {
      const account = await register('new.card');
      const joined = await join(account, 'basic');
      await shop.database.db
        .update(paymentMethods)
        .set({ last4Digits: '0002' })
        .where(eq(paymentMethods.id, joined.paymentMethod!.id));
      const renewsOn = new Date(joined.renewsOn).getTime();
      await billing().runOnce(new Date(renewsOn + 60_000));
      expect(await membershipOf(account)).toMatchObject({ status: 'past_due' });
      const before = chargeSpy.mock.calls.length;
      const same = await call('PUT', '/api/membership', { token: account.token, body: { plan: 'basic' } });
      expect(same.status, same.text).toBe(409);
      const changed = await call<MembershipBody>('PUT', '/api/membership', {
        token: account.token,
        body: { plan: 'basic', cardData: card('5555 5555 5555 4444') },
      });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.body.paymentMethod).toMatchObject({ last4Digits: '4444', provider: 'MasterCard' });
      expect(changed.body.paymentMethod?.id).not.toBe(joined.paymentMethod!.id);
      expect(await callsSince(before, account)).toHaveLength(0);
      // A past-due renewal is tried again at the next pass, on the new card.
      await billing().runOnce(new Date(renewsOn + 120_000));
      expect((await callsSince(before, account)).map((call) => call.source)).toEqual([
        { kind: 'saved', last4: '4444', provider: 'MasterCard' },
      ]);
      expect(await membershipOf(account)).toMatchObject({ status: 'active', lastCharge: { kind: 'renewal' } });
    });

    it('an upgrade left pending by a process that died does not keep the renewal from being charged', async () => {
      const account = await register('stuck');
      const joined = await join(account, 'basic');
      const renewsOn = new Date(joined.renewsOn);
      const due = new Date(renewsOn.getTime() + 60_000);
      // The upgrade's claim was written and its process killed before the gateway answered.
      await shop.database.db.insert(membershipCharges).values({
        userId: account.user.id,
        kind: 'upgrade',
        periodStart: new Date(joined.startedAt),
        plan: 'premium',
        amountCents: 100,
        status: 'pending',
        attempts: 1,
        updatedAt: new Date(due.getTime() - 11 * 60_000),
        createdAt: new Date(due.getTime() - 11 * 60_000),
      });
      const before = chargeSpy.mock.calls.length;
      await billing().runOnce(due);
      expect((await callsSince(before, account)).map((call) => call.amountCents)).toEqual([BASIC]);
      expect(await membershipOf(account)).toMatchObject({
        status: 'active',
        renewsOn: oneMonthAfter(renewsOn).toISOString(),
      });
    });

    it('a reminder goes 7 days before the renewal, once a period', async () => {
      const account = await register('reminded');
      const joined = await join(account, 'basic');
      const renewsOn = new Date(joined.renewsOn).getTime();
      await billing().runOnce(new Date(renewsOn - 8 * DAY));
      expect(await mails(account, 'membership-reminder')).toHaveLength(0);
      await billing().runOnce(new Date(renewsOn - 7 * DAY + 60_000));
      await billing().runOnce(new Date(renewsOn - 6 * DAY));
      await billing().runOnce(new Date(renewsOn - DAY));
      const reminders = await mails(account, 'membership-reminder');
      expect(reminders).toHaveLength(1);
      expect(reminders[0]!.subject).toContain('$9.99');
    });

    it('members already past their renewal date are charged once, for a period starting now', async () => {
      const account = await register('overdue');
      await join(account, 'basic');
      const now = new Date(Date.now() + DAY);
      await setPeriod(account, new Date(now.getTime() - 120 * DAY), new Date(now.getTime() - 90 * DAY));
      const before = chargeSpy.mock.calls.length;
      await billing().runOnce(now);
      await billing().runOnce(new Date(now.getTime() + 3_600_000));
      await billing().runOnce(new Date(now.getTime() + 2 * DAY));
      expect((await callsSince(before, account)).map((call) => call.amountCents)).toEqual([BASIC]);
      expect(await membershipOf(account)).toMatchObject({
        status: 'active',
        renewsOn: oneMonthAfter(now).toISOString(),
      });
    });

    it('cancelling: one click, nothing charged at the renewal, benefits to the end of the paid period', async () => {
      const account = await register('canceller');
      const joined = await join(account, 'premium');
      const cancelled = await call<MembershipBody>('DELETE', '/api/membership', { token: account.token });
      expect(cancelled.status, cancelled.text).toBe(200);
      expect(cancelled.body).toMatchObject({ status: 'cancelling', nextChargeCents: null });
      const before = chargeSpy.mock.calls.length;
      const renewsOn = new Date(joined.renewsOn).getTime();
      await billing().runOnce(new Date(renewsOn - 7 * DAY + 60_000));
      expect(await mails(account, 'membership-reminder')).toHaveLength(0);
      expect(await shop.app.services.memberships.planOf(account.user.id)).toBe('premium');
      await billing().runOnce(new Date(renewsOn + 60_000));
      expect(await callsSince(before, account)).toHaveLength(0);
      expect((await row(account)).status).toBe('cancelled');
    });
  });
}
