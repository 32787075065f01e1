import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBERSHIP_MESSAGES, MEMBERSHIP_PLANS } from '../../contracts/membership.ts';
import type { Order } from '../../contracts/orders.ts';
import { memberships, pointsLedger, products, returnRequests, users } from '../../db/schema.ts';
import { createSession } from '../../server/domain/sessions.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/*
 * Property test of the points ledger (issue 11 acceptance: "for any sequence of earn, redeem,
 * cancel and return, the balance equals the ledger's sum and is never negative"). fast-check
 * generates short sequences of what one shopper can do — orders fulfilled (earn), orders
 * cancelled before fulfilment, redemptions (affordable or not), cancelled redemptions,
 * fulfilled redemptions, returns of fulfilled orders (whole or partial), plan switches — and
 * runs them against one real shop (PGlite, through inject) with a fresh shopper per run.
 * After every step: the balance is the ledger's sum, never negative, every running balance is
 * ≥ 0, and it is what a model of the rules says (spec-decisions: points are earned when an
 * order becomes Succeeded, reversed by a return, never below zero; a cancelled redemption
 * gives its points back).
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

type Step =
  | { kind: 'earn'; lines: { product: number; quantity: number }[] }
  | { kind: 'placeAndCancel'; product: number; quantity: number }
  | { kind: 'redeem'; prize: number; quantity: number }
  | { kind: 'cancelRedemption'; pick: number }
  | { kind: 'fulfilRedemption'; pick: number }
  | { kind: 'return'; pick: number; whole: boolean }
  | { kind: 'switchPlan' };

interface ModelOrder {
  order: Order;
  /** Points still held from this order: earned and not reversed (earning orders). */
  held: number;
  redemption: boolean;
  state: 'Processing' | 'Succeeded' | 'Cancelled' | 'Returned';
}

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('earn' as const),
      lines: fc.uniqueArray(
        fc.record({ product: fc.nat({ max: PRICES.length - 1 }), quantity: fc.integer({ min: 1, max: 3 }) }),
        { minLength: 1, maxLength: 2, selector: (line) => line.product },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('placeAndCancel' as const),
      product: fc.nat({ max: PRICES.length - 1 }),
      quantity: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('redeem' as const),
      prize: fc.nat({ max: COSTS.length - 1 }),
      quantity: fc.integer({ min: 1, max: 4 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancelRedemption' as const), pick: fc.nat({ max: 7 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fulfilRedemption' as const), pick: fc.nat({ max: 7 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('return' as const), pick: fc.nat({ max: 7 }), whole: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('switchPlan' as const) }) },
);

describe('points ledger property (PGlite, one shop)', () => {
  let shop: TestShop;
  let admin: { userId: number; email: string };
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
    admin = { userId: adminRow!.id, email: adminRow!.email };
  });
  afterAll(async () => {
    await shop?.app.services.mailer.idle();
    await shop?.close();
  });

  async function call<T>(token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
    const response = await shop.app.inject({
      method,
      url,
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

  it('for any sequence of earn, redeem, cancel and return: balance = ledger sum = the model, never negative', async () => {
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Plan>('basic', 'premium'),
        fc.array(stepArbitrary, { minLength: 1, maxLength: 8 }),
        async (startPlan, sequenceOfSteps) => {
          const shopper = await newShopper(startPlan);
          let plan: Plan = startPlan;
          let balance = 0;
          const placed: ModelOrder[] = [];

          const place = async (lines: { product: number; quantity: number }[]) => {
            sequence += 1;
            const answer = await call<{ order: Order }>(shopper.token, 'POST', '/api/orders', {
              sessionId: `ledger_property_${sequence}`,
              userEmail: shopper.email,
              orderItems: lines.map((line) => ({ productId: productIds[line.product]!, quantity: line.quantity })),
              paymentMethod: 'credit_card',
              cardData: { Number: '4242 4242 4242 4242', Expiry: EXPIRY, Cvc: '123', Name: 'Prop Shopper' },
              shippingAddress: SHIPPING,
            });
            expect(answer.status).toBe(201);
            return answer.body.order;
          };
          const pick = (pickIndex: number, filter: (entry: ModelOrder) => boolean) => {
            const candidates = placed.filter(filter);
            return candidates.length ? candidates[pickIndex % candidates.length] : undefined;
          };

          for (const step of sequenceOfSteps) {
            steps += 1;
            switch (step.kind) {
              case 'earn': {
                const order = await place(step.lines);
                const subtotalCents = step.lines.reduce((sum, line) => sum + PRICES[line.product]! * line.quantity, 0);
                expect(Math.round(order.subtotal * 100)).toBe(subtotalCents);
                // Nothing is earned at placement.
                expect(await ledgerBalance(shopper.userId)).toBe(balance);
                await shop.app.services.orders.markSucceeded(order.id);
                const rate = MEMBERSHIP_PLANS.find((candidate) => candidate.id === plan)!.pointsPerDollar;
                const earned = Math.floor(subtotalCents / 100) * rate;
                balance += earned;
                placed.push({ order, held: earned, redemption: false, state: 'Succeeded' });
                break;
              }
              case 'placeAndCancel': {
                const order = await place([{ product: step.product, quantity: step.quantity }]);
                const cancelled = await call<Order>(shopper.token, 'PUT', `/api/orders/${order.id}/cancel`);
                expect(cancelled.status).toBe(200);
                placed.push({ order, held: 0, redemption: false, state: 'Cancelled' });
                break;
              }
              case 'redeem': {
                const cost = COSTS[step.prize]! * step.quantity;
                const answer = await call<Order & { message?: string }>(shopper.token, 'POST', '/api/redemptions', {
                  productId: prizeIds[step.prize]!,
                  quantity: step.quantity,
                  shippingAddress: SHIPPING,
                });
                if (cost <= balance) {
                  expect(answer.status).toBe(201);
                  expect(answer.body.pointsSpent).toBe(cost);
                  balance -= cost;
                  placed.push({ order: answer.body, held: 0, redemption: true, state: 'Processing' });
                } else {
                  expect(answer.status).toBe(409);
                  expect(answer.body.message).toBe(MEMBERSHIP_MESSAGES.notEnoughPoints);
                }
                break;
              }
              case 'cancelRedemption': {
                const target = pick(step.pick, (entry) => entry.redemption && entry.state !== 'Returned');
                if (!target) break;
                const answer = await call<Order>(shopper.token, 'PUT', `/api/orders/${target.order.id}/cancel`);
                if (target.state === 'Processing') {
                  expect(answer.status).toBe(200);
                  balance += target.order.pointsSpent;
                  target.state = 'Cancelled';
                } else {
                  // Already cancelled, or fulfilled: refused, and no points move.
                  expect(answer.status).toBe(409);
                }
                break;
              }
              case 'fulfilRedemption': {
                const target = pick(step.pick, (entry) => entry.redemption && entry.state === 'Processing');
                if (!target) break;
                await shop.app.services.orders.markSucceeded(target.order.id);
                target.state = 'Succeeded';
                break;
              }
              case 'return': {
                const target = pick(step.pick, (entry) => entry.state === 'Succeeded');
                if (!target) break;
                const { items } = target.order;
                const wanted = step.whole
                  ? items.map((item) => ({ orderItemId: item.id, quantity: item.quantity }))
                  : [{ orderItemId: items[0]!.id, quantity: Math.max(1, items[0]!.quantity - 1) }];
                const asked = await call(shopper.token, 'POST', `/api/orders/${target.order.id}/returns`, {
                  reason: 'Property test return',
                  items: wanted,
                });
                expect(asked.status).toBe(201);
                const [request] = await shop.database.db
                  .select({ id: returnRequests.id })
                  .from(returnRequests)
                  .where(eq(returnRequests.orderId, target.order.id));
                await shop.app.services.backOffice.approveReturn(request!.id, admin);
                const backQuantity = wanted.reduce((sum, line) => sum + line.quantity, 0);
                if (target.redemption) {
                  const ordered = items.reduce((sum, item) => sum + item.quantity, 0);
                  balance += Math.floor((target.order.pointsSpent * backQuantity) / ordered);
                } else {
                  const linesCents = wanted.reduce((sum, line) => {
                    const item = items.find((candidate) => candidate.id === line.orderItemId)!;
                    return sum + Math.round(item.unitPrice * 100) * line.quantity;
                  }, 0);
                  const subtotalCents = Math.round(target.order.subtotal * 100);
                  const share = Math.floor((target.held * linesCents) / subtotalCents);
                  const taken = Math.min(share, target.held, balance);
                  balance -= taken;
                  target.held -= taken;
                }
                target.state = 'Returned';
                break;
              }
              case 'switchPlan': {
                const next: Plan = plan === 'basic' ? 'premium' : 'basic';
                const answer = await call(shopper.token, 'PUT', '/api/membership', { plan: next });
                expect(answer.status).toBe(200);
                plan = next;
                break;
              }
            }
            await expectLedgerSound(shopper.token, shopper.userId, balance, step);
          }
        },
      ),
      { numRuns: 25 },
    );
    console.log(`ledger property: ${steps} steps checked`);
  }, 120_000);

  async function ledgerBalance(userId: number): Promise<number> {
    const [row] = await shop.database.db
      .select({ sum: sql<number>`coalesce(sum(${pointsLedger.points}), 0)::int` })
      .from(pointsLedger)
      .where(eq(pointsLedger.userId, userId));
    return Number(row?.sum ?? 0);
  }

  /** The balance is the ledger's sum, the model's number, never negative, and so is every running balance. */
  async function expectLedgerSound(token: string, userId: number, expected: number, step: Step): Promise<void> {
    const answer = await call<{
      balance: number;
      entries: { points: number; balanceAfter: number }[];
      totalCount: number;
    }>(token, 'GET', '/api/points');
    expect(answer.status).toBe(200);
    const { balance, entries, totalCount } = answer.body;
    const label = `after ${JSON.stringify(step)}`;
    expect(balance, label).toBe(await ledgerBalance(userId));
    expect(balance, label).toBe(expected);
    expect(balance, label).toBeGreaterThanOrEqual(0);
    expect(totalCount).toBeLessThanOrEqual(25);
    let running = balance;
    for (const entry of entries) {
      expect(entry.balanceAfter, label).toBe(running);
      expect(entry.balanceAfter, label).toBeGreaterThanOrEqual(0);
      running -= entry.points;
    }
    expect(running, label).toBe(0);
  }
});
