import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBERSHIP_MESSAGES } from '../../contracts/membership.ts';
import type { Order } from '../../contracts/orders.ts';
import { memberships, pointsLedger, products, returnRequests, users } from '../../db/schema.ts';
import { APPROVE_CARD } from '../../server/domain/payments.ts';
import { createSession } from '../../server/domain/sessions.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/*
 * Issue 21, "Points survive a refund": earn on a fulfilled order, spend the points, return the
 * order. On the code before this issue the points were spendable the moment they were earned
 * and the return's clawback was capped at the balance left (0), so as Premium $1,000 spent
 * bought $2,000 of goods. Now earned points stay pending for the 30-day return window: the
 * spend is refused, and the return takes the order's points back in full.
 */

const SHIPPING = {
  fullName: 'Refund Shopper',
  addressLine1: '1 Refund Street',
  city: 'Sydney',
  state: 'NSW',
  postalCode: '2000',
  country: 'Australia',
};
const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
/** $100.00 ex GST: a Premium member earns 200 points when an order of one is fulfilled. */
const PRICE_CENTS = 10_000;
const EARNED = 200;
/** The prize costs 150 points: less than one order earns. */
const PRIZE_COST = 150;

describe('points survive a refund (issue 21 regression)', () => {
  let shop: TestShop;
  let earnerId: number;
  let prizeId: number;
  let admin: { token: string };
  let sequence = 0;
  let address = 10;

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 4, env: { PAYMENT_DECLINE_RATE: '1' } });
    const [earner, prize] = await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id);
    earnerId = earner!.id;
    prizeId = prize!.id;
    await shop.database.db
      .update(products)
      .set({
        priceCents: PRICE_CENTS,
        discountPriceCents: null,
        stockQuantity: 10_000,
        isActive: true,
        isRedemption: false,
        pointsCost: null,
      })
      .where(eq(products.id, earnerId));
    await shop.database.db
      .update(products)
      .set({ stockQuantity: 10_000, isActive: true, isRedemption: true, pointsCost: PRIZE_COST })
      .where(eq(products.id, prizeId));
    const [adminRow] = await shop.database.db
      .insert(users)
      .values({ email: 'points.refund.admin@example.com', firstName: 'Refund', lastName: 'Admin', role: 'admin' })
      .returning({ id: users.id });
    admin = { token: (await createSession(shop.database.db, adminRow!.id, 'points-refund')).token };
  });
  afterAll(async () => {
    await shop?.app.services.mailer.idle();
    await shop?.close();
  });

  async function call<T>(token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
    address += 1;
    const response = await shop.app.inject({
      method,
      url,
      remoteAddress: `127.0.3.${address % 250}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: response.statusCode, body: response.json() as T };
  }

  async function premiumMember() {
    sequence += 1;
    const email = `points.refund.${sequence}@example.com`;
    const [row] = await shop.database.db
      .insert(users)
      .values({ email, firstName: 'Refund', lastName: `Shopper ${sequence}` })
      .returning({ id: users.id });
    const now = new Date();
    await shop.database.db.insert(memberships).values({
      userId: row!.id,
      plan: 'premium',
      status: 'active',
      startedAt: now,
      renewsOn: new Date(now.getTime() + 30 * 86_400_000),
    });
    return { userId: row!.id, email, token: (await createSession(shop.database.db, row!.id, 'points-refund')).token };
  }

  async function ledgerOf(userId: number, orderId?: number) {
    const [row] = await shop.database.db
      .select({ sum: sql<number>`coalesce(sum(${pointsLedger.points}), 0)::int` })
      .from(pointsLedger)
      .where(
        orderId === undefined
          ? eq(pointsLedger.userId, userId)
          : sql`${pointsLedger.userId} = ${userId} and ${pointsLedger.orderId} = ${orderId}`,
      );
    return Number(row?.sum ?? 0);
  }

  it('earn on a fulfilled order, spend, return: the spend is refused and the return takes every point back', async () => {
    const shopper = await premiumMember();
    sequence += 1;
    const placed = await call<{ order: Order }>(shopper.token, 'POST', '/api/orders', {
      sessionId: `points_refund_${sequence}`,
      userEmail: shopper.email,
      orderItems: [{ productId: earnerId, quantity: 1 }],
      paymentMethod: 'credit_card',
      cardData: { Number: APPROVE_CARD, Expiry: EXPIRY, Cvc: '123', Name: 'Refund Shopper' },
      shippingAddress: SHIPPING,
    });
    expect(placed.status).toBe(201);
    const order = placed.body.order;
    const moved = await call(admin.token, 'PUT', `/api/admin/orders/${order.id}/status`, { status: 'Succeeded' });
    expect(moved.status).toBe(200);
    expect(await ledgerOf(shopper.userId, order.id)).toBe(EARNED);

    // Spend: the points are still inside the return window, so they buy nothing yet.
    const spent = await call<{ message?: string }>(shopper.token, 'POST', '/api/redemptions', {
      productId: prizeId,
      quantity: 1,
      shippingAddress: SHIPPING,
    });
    expect(spent.status, 'a redemption paid with points still inside the return window').toBe(409);
    expect(spent.body.message).toBe(MEMBERSHIP_MESSAGES.notEnoughPoints);

    // Return the whole order inside the window: its points go in full, whatever was spent.
    const asked = await call(shopper.token, 'POST', `/api/orders/${order.id}/returns`, {
      reason: 'Changed my mind',
      items: order.items.map((item) => ({ orderItemId: item.id, quantity: item.quantity })),
    });
    expect(asked.status).toBe(201);
    const [request] = await shop.database.db
      .select({ id: returnRequests.id })
      .from(returnRequests)
      .where(eq(returnRequests.orderId, order.id));
    const approved = await call(admin.token, 'POST', `/api/admin/returns/${request!.id}/approve`);
    expect(approved.status).toBe(200);
    expect(await ledgerOf(shopper.userId, order.id), 'what the returned order still gives').toBe(0);
    expect(await ledgerOf(shopper.userId), 'the whole ledger').toBe(0);
    const redeemed = await shop.database.db
      .select({ id: pointsLedger.id })
      .from(pointsLedger)
      .where(sql`${pointsLedger.userId} = ${shopper.userId} and ${pointsLedger.kind} = 'redeem'`);
    expect(redeemed, 'goods bought with the returned order’s points').toEqual([]);
  });
});
