import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../contracts/orders.ts';
import { POINTS_MESSAGES, type PointsLedger, RETURN_WINDOW_DAYS } from '../../contracts/points.ts';
import { memberships, orders, pointsLedger, products, returnRequests, users } from '../../db/schema.ts';
import type { Actor } from '../../server/domain/audit.ts';
import { APPROVE_CARD } from '../../server/domain/payments.ts';
import { createSession } from '../../server/domain/sessions.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/*
 * Issue 21, points pending for the return window: points earned on an order wait 30 days after
 * it is fulfilled before they can be spent, and returns are accepted only in those 30 days.
 * Time passes by moving the shopper's fulfilment and ledger times back (nothing sleeps).
 *   - GET /api/points: `available` (= the old `balance`), `pending`, `pendingReleases` and
 *     `availableAt` per entry; the account summary (the header) shows the available points.
 *   - Day 29: a return is accepted; day 30 and 31: refused (409, the Contact Support text), and
 *     the points are available.
 *   - A partial return inside the window takes the returned lines' share of the subtotal
 *     (rounded down) from the pending points; the rest frees up at the window's end.
 *   - A return asked for on day 29 holds the points past day 30 until it is decided; rejected,
 *     they are available at once (the window has passed) — approved, they go in full.
 *   - The order's return window as the order page reads it.
 */

const SHIPPING = {
  fullName: 'Window Shopper',
  addressLine1: '1 Window Street',
  city: 'Sydney',
  state: 'NSW',
  postalCode: '2000',
  country: 'Australia',
};
const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const DAY = 86_400_000;

describe('points pending for the 30-day return window', () => {
  let shop: TestShop;
  let drillId: number;
  let bitsId: number;
  let staff: Actor;
  let sequence = 0;

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 4, env: { PAYMENT_DECLINE_RATE: '1' } });
    const [drill, bits] = await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id);
    drillId = drill!.id;
    bitsId = bits!.id;
    for (const [id, priceCents] of [
      [drillId, 12_000],
      [bitsId, 3_050],
    ] as const) {
      await shop.database.db
        .update(products)
        .set({ priceCents, discountPriceCents: null, stockQuantity: 10_000, isActive: true, isRedemption: false })
        .where(eq(products.id, id));
    }
    const [adminRow] = await shop.database.db
      .insert(users)
      .values({ email: 'points.window.admin@example.com', firstName: 'Window', lastName: 'Admin', role: 'admin' })
      .returning({ id: users.id, email: users.email });
    staff = { userId: adminRow!.id, email: adminRow!.email };
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
      remoteAddress: `127.0.4.${sequence % 250}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: response.statusCode, body: response.json() as T };
  }

  async function basicMember() {
    sequence += 1;
    const email = `points.window.${sequence}@example.com`;
    const [row] = await shop.database.db
      .insert(users)
      .values({ email, firstName: 'Window', lastName: `Shopper ${sequence}` })
      .returning({ id: users.id });
    const now = new Date();
    await shop.database.db.insert(memberships).values({
      userId: row!.id,
      plan: 'basic',
      status: 'active',
      startedAt: now,
      renewsOn: new Date(now.getTime() + 30 * DAY),
    });
    const { token } = await createSession(shop.database.db, row!.id, 'points-window');
    return { userId: row!.id, email, token };
  }

  type Shopper = Awaited<ReturnType<typeof basicMember>>;

  async function fulfilledOrder(shopper: Shopper, lines: { productId: number; quantity: number }[]): Promise<Order> {
    sequence += 1;
    const placed = await call<{ order: Order }>(shopper.token, 'POST', '/api/orders', {
      sessionId: `points_window_${sequence}`,
      userEmail: shopper.email,
      orderItems: lines,
      paymentMethod: 'credit_card',
      cardData: { Number: APPROVE_CARD, Expiry: EXPIRY, Cvc: '123', Name: 'Window Shopper' },
      shippingAddress: SHIPPING,
    });
    expect(placed.status).toBe(201);
    return shop.app.services.orders.markSucceeded(placed.body.order.id);
  }

  async function daysPass(shopper: Shopper, days: number): Promise<void> {
    await shop.database.db.execute(
      sql`update ${orders} set fulfilled_at = fulfilled_at - make_interval(days => ${days}) where user_id = ${shopper.userId}`,
    );
    await shop.database.db.execute(
      sql`update ${pointsLedger} set available_at = available_at - make_interval(days => ${days}), created_at = created_at - make_interval(days => ${days}) where user_id = ${shopper.userId}`,
    );
  }

  async function points(shopper: Shopper): Promise<PointsLedger> {
    const answer = await call<PointsLedger>(shopper.token, 'GET', '/api/points');
    expect(answer.status).toBe(200);
    return answer.body;
  }

  async function askReturn(shopper: Shopper, order: Order, items: { orderItemId: number; quantity: number }[]) {
    return call<{ message?: string }>(shopper.token, 'POST', `/api/orders/${order.id}/returns`, {
      reason: 'Not what I needed',
      items,
    });
  }

  async function openRequest(order: Order): Promise<number> {
    const [request] = await shop.database.db
      .select({ id: returnRequests.id })
      .from(returnRequests)
      .where(sql`${returnRequests.orderId} = ${order.id} and ${returnRequests.status} = 'Requested'`);
    return request!.id;
  }

  const whole = (order: Order) => order.items.map((item) => ({ orderItemId: item.id, quantity: item.quantity }));

  it('GET /api/points: earned points pending with when they free up; available (and balance) 0; the header shows 0', async () => {
    const shopper = await basicMember();
    const order = await fulfilledOrder(shopper, [{ productId: drillId, quantity: 1 }]);
    const ledger = await points(shopper);
    const availableAt = ledger.entries[0]?.availableAt;
    expect(ledger).toEqual({
      balance: 0,
      available: 0,
      pending: 120,
      pendingReleases: [{ points: 120, availableAt }],
      entries: [
        {
          id: expect.any(Number),
          kind: 'earn',
          points: 120,
          orderId: order.id,
          note: `Order ${order.orderNumber}`,
          createdAt: expect.any(String),
          availableAt: expect.any(String),
          balanceAfter: 120,
        },
      ],
      page: 1,
      totalCount: 1,
      totalPages: 1,
    });
    const window = await shop.app.services.orders.returnWindow(shopper.userId, order.id);
    expect(Date.parse(availableAt!)).toBe(Date.parse(window.fulfilledAt!) + RETURN_WINDOW_DAYS * DAY);
    expect(window).toEqual({ fulfilledAt: expect.any(String), returnsUntil: availableAt, open: true });
    const summary = await call<{ points: number }>(shopper.token, 'GET', '/api/users/summary');
    expect(summary.status).toBe(200);
    expect(summary.body.points).toBe(0);
    expect(await shop.app.services.points.balance(shopper.userId)).toBe(0);
  });

  it('day 29: a return is accepted; day 30 and day 31: refused with the Contact Support text, the points available', async () => {
    const early = await basicMember();
    const kept = await fulfilledOrder(early, [{ productId: drillId, quantity: 1 }]);
    await daysPass(early, 29);
    expect((await askReturn(early, kept, whole(kept))).status).toBe(201);

    for (const days of [RETURN_WINDOW_DAYS, RETURN_WINDOW_DAYS + 1]) {
      const shopper = await basicMember();
      const order = await fulfilledOrder(shopper, [{ productId: drillId, quantity: 1 }]);
      await daysPass(shopper, days);
      const late = await askReturn(shopper, order, whole(order));
      expect(late.status, `day ${days}`).toBe(409);
      expect(late.body).toEqual({ message: POINTS_MESSAGES.returnWindowClosed });
      expect(await shop.database.db.$count(returnRequests, eq(returnRequests.orderId, order.id))).toBe(0);
      expect(await points(shopper)).toMatchObject({ balance: 120, available: 120, pending: 0, pendingReleases: [] });
      expect((await call<{ points: number }>(shopper.token, 'GET', '/api/users/summary')).body.points).toBe(120);
      expect(await shop.app.services.orders.returnWindow(shopper.userId, order.id)).toMatchObject({ open: false });
    }
  });

  it('a partial return inside the window takes the returned lines’ share (rounded down) of the pending points', async () => {
    const shopper = await basicMember();
    // $120.00 + 3 × $30.50 = $211.50: 211 points; returning the bits ($91.50) takes 211 × 91.5 / 211.5 = 91.28… → 91.
    const order = await fulfilledOrder(shopper, [
      { productId: drillId, quantity: 1 },
      { productId: bitsId, quantity: 3 },
    ]);
    expect(await points(shopper)).toMatchObject({ available: 0, pending: 211 });
    await daysPass(shopper, 10);
    const bitsLine = order.items.find((item) => item.productId === bitsId)!;
    expect((await askReturn(shopper, order, [{ orderItemId: bitsLine.id, quantity: 3 }])).status).toBe(201);
    // Asked for: held until the decision.
    expect(await points(shopper)).toMatchObject({
      available: 0,
      pending: 211,
      pendingReleases: [{ points: 211, availableAt: null }],
    });
    await shop.app.services.backOffice.approveReturn(await openRequest(order), staff);
    const after = await points(shopper);
    expect(after).toMatchObject({ available: 0, pending: 120 });
    expect(after.entries[0]).toMatchObject({ kind: 'reverse', points: -91, orderId: order.id });
    // The rest frees up when the window ends, 20 days on.
    const window = await shop.app.services.orders.returnWindow(shopper.userId, order.id);
    expect(after.pendingReleases).toEqual([{ points: 120, availableAt: window.returnsUntil }]);
    await daysPass(shopper, 20);
    expect(await points(shopper)).toMatchObject({ balance: 120, available: 120, pending: 0 });
  });

  it('a return asked for on day 29 holds the points past day 30: rejected, available at once; approved, gone in full', async () => {
    for (const approve of [false, true]) {
      const shopper = await basicMember();
      const order = await fulfilledOrder(shopper, [{ productId: drillId, quantity: 1 }]);
      await daysPass(shopper, 29);
      expect((await askReturn(shopper, order, whole(order))).status).toBe(201);
      await daysPass(shopper, 3);
      expect(await points(shopper), 'held while the return is decided').toMatchObject({
        available: 0,
        pending: 120,
        pendingReleases: [{ points: 120, availableAt: null }],
      });
      const requestId = await openRequest(order);
      if (approve) await shop.app.services.backOffice.approveReturn(requestId, staff);
      else await shop.app.services.backOffice.rejectReturn(requestId, 'Used beyond inspection', staff);
      expect(await points(shopper), approve ? 'approved' : 'rejected').toMatchObject(
        approve ? { available: 0, pending: 0 } : { available: 120, pending: 0 },
      );
      // After the window, no second request.
      const again = await askReturn(shopper, order, whole(order));
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(POINTS_MESSAGES.returnWindowClosed);
    }
  });

  it('a rejected return inside the window leaves the points pending until the window’s end', async () => {
    const shopper = await basicMember();
    const order = await fulfilledOrder(shopper, [{ productId: drillId, quantity: 1 }]);
    await daysPass(shopper, 5);
    expect((await askReturn(shopper, order, whole(order))).status).toBe(201);
    await shop.app.services.backOffice.rejectReturn(await openRequest(order), 'Used beyond inspection', staff);
    const ledger = await points(shopper);
    const window = await shop.app.services.orders.returnWindow(shopper.userId, order.id);
    expect(ledger).toMatchObject({ available: 0, pending: 120 });
    expect(ledger.pendingReleases).toEqual([{ points: 120, availableAt: window.returnsUntil }]);
    await daysPass(shopper, 25);
    expect(await points(shopper)).toMatchObject({ available: 120, pending: 0 });
  });

  it('an order not yet fulfilled has no return window; another shopper’s order is 404', async () => {
    const shopper = await basicMember();
    const other = await basicMember();
    sequence += 1;
    const placed = await call<{ order: Order }>(shopper.token, 'POST', '/api/orders', {
      sessionId: `points_window_${sequence}`,
      userEmail: shopper.email,
      orderItems: [{ productId: bitsId, quantity: 1 }],
      paymentMethod: 'credit_card',
      cardData: { Number: APPROVE_CARD, Expiry: EXPIRY, Cvc: '123', Name: 'Window Shopper' },
      shippingAddress: SHIPPING,
    });
    expect(await shop.app.services.orders.returnWindow(shopper.userId, placed.body.order.id)).toEqual({
      fulfilledAt: null,
      returnsUntil: null,
      open: false,
    });
    await expect(shop.app.services.orders.returnWindow(other.userId, placed.body.order.id)).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});
