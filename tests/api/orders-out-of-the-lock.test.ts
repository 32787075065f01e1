/**
 * Orders out of the lock (issue 24): stock is reserved in a short transaction, the card is
 * charged outside it (the order's key as the gateway's idempotency key), then the order is
 * confirmed or released. On PGlite and PostgreSQL:
 * - buyers of one product with a slow gateway (PAYMENT_LATENCY_MS) are charged side by side,
 *   not one after another, and readiness answers meanwhile;
 * - a decline releases the reservation: stock back, no order, the key free for another card;
 * - a reservation its process left behind is settled by what the gateway says of its key: by
 *   the retry of the same key at once, or by the sweep — charged: confirmed; not: released;
 * - on PostgreSQL, the same key while a live process has its order in flight waits, then 409.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_MESSAGES, type Order } from '../../contracts/orders.ts';
import { postgresLiveness } from '../../db/process-liveness.ts';
import { orders, products } from '../../db/schema.ts';
import { cardFor } from '../helpers/cards.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

const postgresAvailable = await isPostgresReachable();
const LATENCY_MS = 300;
const BUYERS = 5;
const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const APPROVE = '4242424242424242';
const DECLINE = '4000000000000002';

for (const { kind, skip } of [
  { kind: 'pglite' as DatabaseKind, skip: false },
  { kind: 'postgres' as DatabaseKind, skip: !postgresAvailable },
]) {
  describe.skipIf(skip)(`orders out of the lock on ${kind}`, () => {
    let shop: TestShop;
    let productId = 0;
    let buyerCount = 0;
    let requests = 0;

    const call = async (
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      options: { token?: string; body?: unknown } = {},
    ) => {
      const response = await shop.app.inject({
        method,
        url,
        headers: {
          'x-forwarded-for': `10.24.${Math.floor(requests / 200) % 250}.${(requests++ % 200) + 1}`,
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
        ...(options.body === undefined ? {} : { payload: options.body as object }),
      });
      return { status: response.statusCode, body: response.json() as { order?: Order; message?: string } };
    };

    const newBuyer = async () => {
      buyerCount += 1;
      const email = `lock-${kind}-${buyerCount}@example.com`;
      const registered = await call('POST', '/api/auth/register', {
        body: {
          firstName: 'Lock',
          lastName: `Buyer${buyerCount}`,
          email,
          password: 'Out-Of-The-Lock-42',
          PhoneNumber: '0412 345 678',
          address: {
            addressLine1: '1 Quay Street',
            city: 'Sydney',
            state: 'NSW',
            postalCode: '2000',
            country: 'Australia',
          },
        },
      });
      expect(registered.status).toBe(201);
      return { email, token: (registered.body as unknown as { token: string }).token };
    };

    const orderBody = (email: string, sessionId: string, card = cardFor(buyerCount)) => ({
      sessionId,
      userEmail: email,
      orderItems: [{ productId, productName: 'x', quantity: 1, unitPrice: 0.01, imageUrl: '/x.png' }],
      paymentMethod: 'credit_card',
      paymentMethodId: null,
      cardData: { Number: card, Expiry: EXPIRY, Cvc: '123', Name: 'Lock Buyer' },
      shippingAddress: {
        fullName: 'Lock Buyer',
        addressLine1: '1 Quay Street',
        city: 'Sydney',
        state: 'NSW',
        postalCode: '2000',
        country: 'Australia',
      },
    });

    const stock = async () =>
      (
        await shop.database.db
          .select({ stock: products.stockQuantity })
          .from(products)
          .where(eq(products.id, productId))
      )[0]?.stock ?? -1;

    /** Turns a placed order back into a reservation left by the process `by`, its payment unknown. */
    const leaveInFlight = async (orderId: number, by: string) => {
      await shop.database.db
        .update(orders)
        .set({
          status: 'Pending',
          paymentStatus: 'Pending',
          transactionId: null,
          paymentStartedAt: sql`now() - interval '1 minute'`,
          reservedBy: by,
        })
        .where(eq(orders.id, orderId));
    };

    beforeAll(async () => {
      shop = await createTestShop(kind, {
        products: 20,
        env: { PAYMENT_LATENCY_MS: String(LATENCY_MS), PAYMENT_DECLINE_RATE: '0', TRUST_PROXY: '1' },
      });
      const [first] = await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id).limit(1);
      productId = first?.id ?? 0;
      await shop.database.db
        .update(products)
        .set({ stockQuantity: 1_000, isActive: true })
        .where(eq(products.id, productId));
    }, 60_000);

    afterAll(async () => {
      await shop?.close();
    });

    it(`${BUYERS} buyers of one product are charged side by side (${LATENCY_MS} ms each), and readiness answers meanwhile`, async () => {
      const buyers = await Promise.all(Array.from({ length: BUYERS }, () => newBuyer()));
      const before = await stock();
      const started = performance.now();
      const placing = Promise.all(
        buyers.map((buyer, index) =>
          call('POST', '/api/orders', {
            token: buyer.token,
            body: orderBody(buyer.email, `side-by-side-${index}`, cardFor(1000 + index)),
          }),
        ),
      );
      await new Promise((done) => setTimeout(done, LATENCY_MS / 3));
      const readinessStarted = performance.now();
      const readiness = await call('GET', '/api/health');
      const readinessMs = performance.now() - readinessStarted;
      const answers = await placing;
      const elapsed = performance.now() - started;
      for (const answer of answers) expect(answer.status, answer.body.message).toBe(201);
      // One after another they would take BUYERS × LATENCY_MS at least.
      expect(elapsed).toBeLessThan((BUYERS - 2) * LATENCY_MS);
      expect(readiness.status).toBe(200);
      expect(readinessMs).toBeLessThan(LATENCY_MS);
      expect(await stock()).toBe(before - BUYERS);
    });

    it('a decline releases the reservation: stock back, no order, and the same key then pays with another card', async () => {
      const buyer = await newBuyer();
      const before = await stock();
      const declined = await call('POST', '/api/orders', {
        token: buyer.token,
        body: orderBody(buyer.email, 'retry-key', DECLINE),
      });
      expect(declined.status).toBe(402);
      expect(declined.body.message).toBe(ORDER_MESSAGES.declined);
      expect(await stock()).toBe(before);
      const left = await shop.database.db.select().from(orders).where(eq(orders.idempotencyKey, 'retry-key'));
      expect(left).toEqual([]);
      const paid = await call('POST', '/api/orders', {
        token: buyer.token,
        body: orderBody(buyer.email, 'retry-key', APPROVE),
      });
      expect(paid.status).toBe(201);
      expect(paid.body.order).toMatchObject({ paymentStatus: 'Paid', status: 'Processing' });
      expect(await stock()).toBe(before - 1);
    });

    it('a reservation a dead process left, charged: the retry of its key confirms the same order', async () => {
      const buyer = await newBuyer();
      const placed = await call('POST', '/api/orders', {
        token: buyer.token,
        body: orderBody(buyer.email, 'left-charged'),
      });
      expect(placed.status).toBe(201);
      const before = await stock();
      await leaveInFlight(placed.body.order!.id, 'a-process-that-died');
      const retried = await call('POST', '/api/orders', {
        token: buyer.token,
        body: orderBody(buyer.email, 'left-charged'),
      });
      expect(retried.status).toBe(201);
      expect(retried.body.order).toMatchObject({
        id: placed.body.order!.id,
        paymentStatus: 'Paid',
        status: 'Processing',
      });
      expect(await stock()).toBe(before);
      const again = await call('POST', '/api/orders', {
        token: buyer.token,
        body: orderBody(buyer.email, 'left-charged'),
      });
      expect(again.status).toBe(200);
      expect(again.body.order?.id).toBe(placed.body.order!.id);
    });

    it('the sweep settles what was left: a charged reservation is confirmed, one never charged is released', async () => {
      const buyer = await newBuyer();
      const charged = await call('POST', '/api/orders', {
        token: buyer.token,
        body: orderBody(buyer.email, 'swept-charged'),
      });
      const never = await call('POST', '/api/orders', {
        token: buyer.token,
        body: orderBody(buyer.email, 'swept-never'),
      });
      expect([charged.status, never.status]).toEqual([201, 201]);
      const before = await stock();
      await leaveInFlight(charged.body.order!.id, 'a-process-that-died');
      await leaveInFlight(never.body.order!.id, 'a-process-that-died');
      // Its key as if never charged: a key the gateway has not seen.
      await shop.database.db
        .update(orders)
        .set({ idempotencyKey: 'swept-never-charged' })
        .where(eq(orders.id, never.body.order!.id));

      expect(await shop.app.services.orders.settleReservations(0)).toBe(2);
      const [confirmed] = await shop.database.db.select().from(orders).where(eq(orders.id, charged.body.order!.id));
      expect(confirmed).toMatchObject({ status: 'Processing', paymentStatus: 'Paid', paymentStartedAt: null });
      expect(confirmed?.transactionId).toMatch(/^sim_/);
      const released = await shop.database.db.select().from(orders).where(eq(orders.id, never.body.order!.id));
      expect(released).toEqual([]);
      expect(await stock()).toBe(before + 1);
      expect(await shop.app.services.orders.settleReservations(0)).toBe(0);
    });

    it('a reservation in flight cannot be cancelled', async () => {
      const buyer = await newBuyer();
      const placed = await call('POST', '/api/orders', {
        token: buyer.token,
        body: orderBody(buyer.email, 'no-cancel-key'),
      });
      await leaveInFlight(placed.body.order!.id, 'a-process-that-died');
      const cancel = await call('PUT', `/api/orders/${placed.body.order!.id}/cancel`, {
        token: buyer.token,
        body: {},
      });
      expect(cancel.status).toBe(409);
      expect(cancel.body.message).toBe(ORDER_MESSAGES.paymentInFlight);
      await shop.app.services.orders.settleReservations(0);
    });

    it.skipIf(kind !== 'postgres')(
      'the same key while a live process has its order in flight waits, then answers 409 "Order in progress"',
      async () => {
        const buyer = await newBuyer();
        const placed = await call('POST', '/api/orders', {
          token: buyer.token,
          body: orderBody(buyer.email, 'in-flight'),
        });
        const other = postgresLiveness(shop.databaseUrl ?? '');
        try {
          await leaveInFlight(placed.body.order!.id, await other.id());
          const started = performance.now();
          const waited = await call('POST', '/api/orders', {
            token: buyer.token,
            body: orderBody(buyer.email, 'in-flight'),
          });
          expect(waited.status).toBe(409);
          expect(waited.body.message).toBe(ORDER_MESSAGES.inProgress);
          expect(performance.now() - started).toBeGreaterThan(9_000);
        } finally {
          await other.close();
        }
        // Its process gone, the retry settles it (the gateway charged that key): the same order.
        const settled = await call('POST', '/api/orders', {
          token: buyer.token,
          body: orderBody(buyer.email, 'in-flight'),
        });
        expect(settled.status).toBe(201);
        expect(settled.body.order?.id).toBe(placed.body.order!.id);
        const [row] = await shop.database.db
          .select()
          .from(orders)
          .where(and(eq(orders.id, placed.body.order!.id), eq(orders.paymentStatus, 'Paid')));
        expect(row).toBeDefined();
      },
      30_000,
    );
  });
}
