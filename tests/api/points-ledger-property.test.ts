import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBERSHIP_MESSAGES, MEMBERSHIP_PLANS } from '../../contracts/membership.ts';
import type { Order } from '../../contracts/orders.ts';
import { POINTS_MESSAGES, type PointsLedger, RETURN_WINDOW_DAYS } from '../../contracts/points.ts';
import { memberships, orders, pointsLedger, products, returnRequests, users } from '../../db/schema.ts';
import { APPROVE_CARD } from '../../server/domain/payments.ts';
import { createSession } from '../../server/domain/sessions.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/*
 * Property test of points that follow the money (issue 21 acceptance: "earn → spend → return is
 * impossible"). fast-check generates sequences of what a shopper and the shop can do — place an
 * order, fulfil one (points earned, pending), spend points on a redemption, ask for a return
 * (approved, rejected, or left open), decide an open return, cancel an order, staff grants and
 * take-backs — with time passing between them (the shopper's timestamps in the database moved
 * back by whole days; nothing sleeps). They run against one real shop (PGlite, through inject)
 * with a fresh shopper per run. After every step:
 *   - available ≥ 0 and pending ≥ 0; available + pending is the ledger's sum;
 *   - available is exactly what a model of the rules says: the points of orders kept past their
 *     30-day window (less what their returns took back, none held by an open return) plus staff
 *     grants, less take-backs and points spent (plus what cancelled or returned redemptions gave
 *     back) — so points from an order that was returned inside its window never bought anything;
 *   - available never exceeds kept-past-window earnings + net staff grants − net spends;
 *   - a redemption succeeds exactly when the model's available covers it, a take-back exactly
 *     when it does not exceed it, a return is accepted exactly inside the window.
 */

const SHIPPING = {
  fullName: 'Prop Shopper',
  addressLine1: '1 Property Street',
  city: 'Sydney',
  state: 'NSW',
  postalCode: '2000',
  country: 'Australia',
};
const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
/** Prices of the products orders are made of (cents). */
const PRICES = [4_599, 12_000, 750] as const;
/** Points prices of the redemption products. */
const COSTS = [30, 75] as const;

type Plan = 'basic' | 'premium';
type Decision = 'approve' | 'reject' | 'later';

type Step =
  | { kind: 'place'; lines: { product: number; quantity: number }[] }
  | { kind: 'fulfil'; pick: number }
  | { kind: 'spend'; prize: number; quantity: number }
  | { kind: 'return'; pick: number; whole: boolean; decision: Decision }
  | { kind: 'decide'; pick: number; approve: boolean }
  | { kind: 'cancel'; pick: number }
  | { kind: 'grant'; points: number }
  | { kind: 'takeBack'; points: number }
  | { kind: 'time'; days: number };

interface ModelOrder {
  order: Order;
  redemption: boolean;
  state: 'Processing' | 'Succeeded' | 'Cancelled';
  /** Model day it was fulfilled on. */
  fulfilledDay: number | null;
  /** Points the order earned and still holds (earning orders). */
  held: number;
  /** Points it was paid with and not given back (redemption orders). */
  spent: number;
  returnRequest: { id: number; items: { orderItemId: number; quantity: number }[] } | null;
  returned: boolean;
}

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      lines: fc.uniqueArray(
        fc.record({ product: fc.nat({ max: PRICES.length - 1 }), quantity: fc.integer({ min: 1, max: 3 }) }),
        { minLength: 1, maxLength: 2, selector: (line) => line.product },
      ),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('fulfil' as const), pick: fc.nat({ max: 7 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('spend' as const),
      prize: fc.nat({ max: COSTS.length - 1 }),
      quantity: fc.integer({ min: 1, max: 4 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('return' as const),
      pick: fc.nat({ max: 7 }),
      whole: fc.boolean(),
      decision: fc.constantFrom<Decision>('approve', 'reject', 'later'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('decide' as const), pick: fc.nat({ max: 7 }), approve: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat({ max: 7 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('grant' as const), points: fc.integer({ min: 1, max: 300 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('takeBack' as const), points: fc.integer({ min: 1, max: 300 }) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('time' as const),
      days: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(RETURN_WINDOW_DAYS)),
    }),
  },
);

describe('points follow the money: a property over earn, spend, return, cancel, grants and time (PGlite)', () => {
  let shop: TestShop;
  let admin: { userId: number; email: string; token: string };
  let productIds: number[] = [];
  let prizeIds: number[] = [];
  let sequence = 0;

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 8, env: { PAYMENT_DECLINE_RATE: '1' } });
    const ids = (await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id)).map(
      (row) => row.id,
    );
    productIds = ids.slice(0, PRICES.length);
    prizeIds = ids.slice(PRICES.length, PRICES.length + COSTS.length);
    for (const [index, id] of productIds.entries()) {
      await shop.database.db
        .update(products)
        .set({
          priceCents: PRICES[index]!,
          discountPriceCents: null,
          stockQuantity: 1_000_000,
          isActive: true,
          isRedemption: false,
          pointsCost: null,
        })
        .where(eq(products.id, id));
    }
    for (const [index, id] of prizeIds.entries()) {
      await shop.database.db
        .update(products)
        .set({ stockQuantity: 1_000_000, isActive: true, isRedemption: true, pointsCost: COSTS[index]! })
        .where(eq(products.id, id));
    }
    const [adminRow] = await shop.database.db
      .insert(users)
      .values({ email: 'ledger.property.admin@example.com', firstName: 'Prop', lastName: 'Admin', role: 'admin' })
      .returning({ id: users.id, email: users.email });
    const { token } = await createSession(shop.database.db, adminRow!.id, 'ledger-property');
    admin = { userId: adminRow!.id, email: adminRow!.email, token };
  });
  afterAll(async () => {
    await shop?.app.services.mailer.idle();
    await shop?.close();
  });

  async function call<T>(token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
    sequence += 1;
    const response = await shop.app.inject({
      method,
      url,
      remoteAddress: `127.0.${(sequence >> 8) & 255}.${sequence & 255}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: response.statusCode, body: response.json() as T };
  }

  async function newShopper(plan: Plan): Promise<{ userId: number; email: string; token: string }> {
    sequence += 1;
    const email = `ledger.property.${sequence}@example.com`;
    const [row] = await shop.database.db
      .insert(users)
      .values({ email, firstName: 'Prop', lastName: `Shopper ${sequence}` })
      .returning({ id: users.id });
    const now = new Date();
    await shop.database.db.insert(memberships).values({
      userId: row!.id,
      plan,
      status: 'active',
      startedAt: now,
      renewsOn: new Date(now.getTime() + 30 * 86_400_000),
    });
    const { token } = await createSession(shop.database.db, row!.id, 'ledger-property');
    return { userId: row!.id, email, token };
  }

  /** Days pass for one shopper: their fulfilment times and ledger times move back (no clock is faked, nothing sleeps). */
  async function daysPass(userId: number, days: number): Promise<void> {
    await shop.database.db.execute(
      sql`update ${orders} set fulfilled_at = fulfilled_at - make_interval(days => ${days}), created_at = created_at - make_interval(days => ${days}) where user_id = ${userId}`,
    );
    await shop.database.db.execute(
      sql`update ${pointsLedger} set available_at = available_at - make_interval(days => ${days}), created_at = created_at - make_interval(days => ${days}) where user_id = ${userId}`,
    );
  }

  it('available ≥ 0, equal to the model, never more than kept-past-window earnings + net grants − net spends', async () => {
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Plan>('basic', 'premium'),
        fc.array(stepArbitrary, { minLength: 1, maxLength: 14 }),
        async (plan, sequenceOfSteps) => {
          const shopper = await newShopper(plan);
          const rate = MEMBERSHIP_PLANS.find((candidate) => candidate.id === plan)!.pointsPerDollar;
          let day = 0;
          let grants = 0;
          const placed: ModelOrder[] = [];

          const pick = (pickIndex: number, filter: (entry: ModelOrder) => boolean) => {
            const candidates = placed.filter(filter);
            return candidates.length ? candidates[pickIndex % candidates.length] : undefined;
          };
          const windowOpen = (entry: ModelOrder) =>
            entry.fulfilledDay !== null && day < entry.fulfilledDay + RETURN_WINDOW_DAYS;
          /** Earnings the shopper keeps and may spend: windows passed, no return being decided. */
          const keptPastWindow = () =>
            placed
              .filter((entry) => !entry.redemption && entry.state === 'Succeeded' && !windowOpen(entry))
              .filter((entry) => !entry.returnRequest)
              .reduce((sum, entry) => sum + entry.held, 0);
          const netSpent = () => placed.reduce((sum, entry) => sum + entry.spent, 0);
          const modelAvailable = () => keptPastWindow() + grants - netSpent();
          const modelTotal = () => placed.reduce((sum, entry) => sum + entry.held, 0) + grants - netSpent();

          for (const step of sequenceOfSteps) {
            steps += 1;
            switch (step.kind) {
              case 'place': {
                sequence += 1;
                const answer = await call<{ order: Order }>(shopper.token, 'POST', '/api/orders', {
                  sessionId: `ledger_property_${sequence}`,
                  userEmail: shopper.email,
                  orderItems: step.lines.map((line) => ({
                    productId: productIds[line.product]!,
                    quantity: line.quantity,
                  })),
                  paymentMethod: 'credit_card',
                  cardData: { Number: APPROVE_CARD, Expiry: EXPIRY, Cvc: '123', Name: 'Prop Shopper' },
                  shippingAddress: SHIPPING,
                });
                expect(answer.status).toBe(201);
                placed.push({
                  order: answer.body.order,
                  redemption: false,
                  state: 'Processing',
                  fulfilledDay: null,
                  held: 0,
                  spent: 0,
                  returnRequest: null,
                  returned: false,
                });
                break;
              }
              case 'fulfil': {
                const target = pick(step.pick, (entry) => entry.state === 'Processing');
                if (!target) break;
                await shop.app.services.orders.markSucceeded(target.order.id);
                target.state = 'Succeeded';
                target.fulfilledDay = day;
                if (!target.redemption) {
                  const subtotalCents = Math.round(target.order.subtotal * 100);
                  target.held = Math.floor(subtotalCents / 100) * rate;
                }
                break;
              }
              case 'spend': {
                const cost = COSTS[step.prize]! * step.quantity;
                const answer = await call<Order & { message?: string }>(shopper.token, 'POST', '/api/redemptions', {
                  productId: prizeIds[step.prize]!,
                  quantity: step.quantity,
                  shippingAddress: SHIPPING,
                });
                if (cost <= modelAvailable()) {
                  expect(answer.status).toBe(201);
                  expect(answer.body.pointsSpent).toBe(cost);
                  placed.push({
                    order: answer.body,
                    redemption: true,
                    state: 'Processing',
                    fulfilledDay: null,
                    held: 0,
                    spent: cost,
                    returnRequest: null,
                    returned: false,
                  });
                } else {
                  expect(answer.status).toBe(409);
                  expect(answer.body.message).toBe(MEMBERSHIP_MESSAGES.notEnoughPoints);
                }
                break;
              }
              case 'return': {
                const target = pick(step.pick, (entry) => entry.state === 'Succeeded');
                if (!target) break;
                const { items } = target.order;
                const wanted = step.whole
                  ? items.map((item) => ({ orderItemId: item.id, quantity: item.quantity }))
                  : [{ orderItemId: items[0]!.id, quantity: Math.max(1, items[0]!.quantity - 1) }];
                const asked = await call<{ message?: string }>(
                  shopper.token,
                  'POST',
                  `/api/orders/${target.order.id}/returns`,
                  { reason: 'Property test return', items: wanted },
                );
                if (!windowOpen(target)) {
                  expect(asked.status).toBe(409);
                  expect(asked.body.message).toBe(POINTS_MESSAGES.returnWindowClosed);
                  break;
                }
                if (target.returnRequest || target.returned) {
                  expect(asked.status).toBe(409);
                  break;
                }
                expect(asked.status).toBe(201);
                const [request] = await shop.database.db
                  .select({ id: returnRequests.id })
                  .from(returnRequests)
                  .where(
                    sql`${returnRequests.orderId} = ${target.order.id} and ${returnRequests.status} = 'Requested'`,
                  );
                target.returnRequest = { id: request!.id, items: wanted };
                if (step.decision !== 'later') await decide(target, step.decision === 'approve');
                break;
              }
              case 'decide': {
                const target = pick(step.pick, (entry) => entry.returnRequest !== null);
                if (!target) break;
                await decide(target, step.approve);
                break;
              }
              case 'cancel': {
                const target = pick(step.pick, (entry) => entry.state !== 'Cancelled');
                if (!target) break;
                const answer = await call<Order>(shopper.token, 'PUT', `/api/orders/${target.order.id}/cancel`);
                if (target.state === 'Processing') {
                  expect(answer.status).toBe(200);
                  target.state = 'Cancelled';
                  target.spent = 0;
                } else {
                  // Fulfilled orders cannot be cancelled (they may be returned): no points move.
                  expect(answer.status).toBe(409);
                }
                break;
              }
              case 'grant':
              case 'takeBack': {
                const points = step.kind === 'grant' ? step.points : -step.points;
                const answer = await call<PointsLedger & { message?: string }>(
                  admin.token,
                  'POST',
                  `/api/admin/users/${shopper.userId}/points`,
                  { points, reason: `Property ${step.kind}` },
                );
                if (modelAvailable() + points >= 0) {
                  expect(answer.status).toBe(201);
                  grants += points;
                } else {
                  expect(answer.status).toBe(409);
                  expect(answer.body.message).toBe(POINTS_MESSAGES.takeBackTooLarge);
                }
                break;
              }
              case 'time': {
                await daysPass(shopper.userId, step.days);
                day += step.days;
                break;
              }
            }
            await expectSound(shopper, step, modelAvailable(), modelTotal(), {
              kept: keptPastWindow(),
              grants,
              spent: netSpent(),
            });
          }

          /** The shop approves or rejects the target's open return. */
          async function decide(target: ModelOrder, approve: boolean): Promise<void> {
            const request = target.returnRequest!;
            target.returnRequest = null;
            if (!approve) {
              await shop.app.services.backOffice.rejectReturn(request.id, 'Property test says no', admin);
              return;
            }
            await shop.app.services.backOffice.approveReturn(request.id, admin);
            target.returned = true;
            const { items } = target.order;
            if (target.redemption) {
              const ordered = items.reduce((sum, item) => sum + item.quantity, 0);
              const back = request.items.reduce((sum, line) => sum + line.quantity, 0);
              target.spent -= Math.floor((target.order.pointsSpent * back) / ordered);
            } else {
              // The returned lines' share of the subtotal, rounded down, all taken: the points were never spendable.
              const linesCents = request.items.reduce((sum, line) => {
                const item = items.find((candidate) => candidate.id === line.orderItemId)!;
                return sum + Math.round(item.unitPrice * 100) * line.quantity;
              }, 0);
              const subtotalCents = Math.round(target.order.subtotal * 100);
              target.held -= Math.floor((target.held * linesCents) / subtotalCents);
            }
          }
        },
      ),
      {
        numRuns: 40,
        // The journeys the rules are for, tried first whatever the seed: earn → spend → return;
        // a return asked for inside the window and decided after it; a take-back of pending points.
        examples: [
          [
            'premium',
            [
              { kind: 'place', lines: [{ product: 1, quantity: 1 }] },
              { kind: 'fulfil', pick: 0 },
              { kind: 'spend', prize: 0, quantity: 2 },
              { kind: 'return', pick: 0, whole: true, decision: 'approve' },
              { kind: 'time', days: RETURN_WINDOW_DAYS },
              { kind: 'spend', prize: 0, quantity: 1 },
            ],
          ],
          [
            'basic',
            [
              { kind: 'place', lines: [{ product: 1, quantity: 2 }] },
              { kind: 'fulfil', pick: 0 },
              { kind: 'time', days: 29 },
              { kind: 'return', pick: 0, whole: false, decision: 'later' },
              { kind: 'time', days: 3 },
              { kind: 'spend', prize: 1, quantity: 2 },
              { kind: 'decide', pick: 0, approve: true },
              { kind: 'spend', prize: 0, quantity: 3 },
            ],
          ],
          [
            'basic',
            [
              { kind: 'place', lines: [{ product: 1, quantity: 1 }] },
              { kind: 'fulfil', pick: 0 },
              { kind: 'return', pick: 0, whole: true, decision: 'later' },
              { kind: 'time', days: 31 },
              { kind: 'decide', pick: 0, approve: false },
              { kind: 'takeBack', points: 121 },
              { kind: 'takeBack', points: 120 },
            ],
          ],
        ],
      },
    );
    console.log(`points property: ${steps} steps checked`);
  }, 240_000);

  async function ledgerSum(userId: number): Promise<number> {
    const [row] = await shop.database.db
      .select({ sum: sql<number>`coalesce(sum(${pointsLedger.points}), 0)::int` })
      .from(pointsLedger)
      .where(eq(pointsLedger.userId, userId));
    return Number(row?.sum ?? 0);
  }

  async function expectSound(
    shopper: { userId: number; token: string },
    step: Step,
    expectedAvailable: number,
    expectedTotal: number,
    bound: { kept: number; grants: number; spent: number },
  ): Promise<void> {
    const answer = await call<PointsLedger>(shopper.token, 'GET', '/api/points');
    expect(answer.status).toBe(200);
    const { balance, available, pending, entries, totalCount } = answer.body;
    const label = `after ${JSON.stringify(step)}`;
    expect(available, label).toBeGreaterThanOrEqual(0);
    expect(pending, label).toBeGreaterThanOrEqual(0);
    expect(balance, label).toBe(available);
    expect(available, label).toBeLessThanOrEqual(bound.kept + bound.grants - bound.spent);
    expect(available, label).toBe(expectedAvailable);
    expect(available + pending, label).toBe(await ledgerSum(shopper.userId));
    expect(available + pending, label).toBe(expectedTotal);
    // The account summary (the header's points) shows the same spendable number.
    expect((await shop.app.services.points.balance(shopper.userId)) === available, label).toBe(true);
    if (totalCount <= entries.length) {
      let running = available + pending;
      for (const entry of entries) {
        expect(entry.balanceAfter, label).toBe(running);
        running -= entry.points;
      }
      expect(running, label).toBe(0);
    }
  }
});
