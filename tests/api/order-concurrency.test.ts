/**
 * Order placement under real concurrency (issue 9 acceptance; architecture: concurrency-critical
 * code is tested on real PostgreSQL, because PGlite runs one query at a time and hides races).
 *
 * - 200 buyers race for a product with stock 10, 20 rounds: exactly 10 orders a round, the rest
 *   409 naming the product, stock ends at 0 and is never seen below it.
 * - Orders holding the same two scarce products, listed in either order, never deadlock.
 * - 20 identical POSTs with one sessionId race: one order, one charge, one stock decrement,
 *   every answer the same order; the same key with two bodies racing: one order, the other
 *   body refused with 422.
 *
 * The app runs in-process on a scratch PostgreSQL database with a pool of 10 connections and is
 * driven through `inject`; the payment gateway's `charge` is spied on to count charges.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { passesLuhn } from '../../contracts/orders.ts';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { orderItems, orders, products, users } from '../../db/schema.ts';
import { seedCatalogue } from '../../db/seed/seed-catalogue.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { APPROVE_CARD } from '../../server/domain/payments.ts';
import { createSession } from '../../server/domain/sessions.ts';
import { createScratchDatabase, isPostgresReachable } from '../helpers/postgres.ts';

const postgresAvailable = await isPostgresReachable();
if (!postgresAvailable) {
  console.warn('order concurrency tests skipped: they need a real PostgreSQL (PGlite runs one query at a time).');
}

const BUYERS = 200;
const ROUNDS = 20;
const STOCK = 10;
const POOL_SIZE = 10;

interface Buyer {
  userId: number;
  email: string;
  token: string;
}

interface OrderAnswer {
  status?: string;
  message?: string;
  errors?: Record<string, string[]>;
  order?: { id: number; status: string; paymentStatus: string; items: { productId: number; quantity: number }[] };
}

/**
 * Each buyer pays with a card of their own from an address of their own, as real shoppers do:
 * the caps on card attempts (3 per card, 10 per address an hour) count concurrent attempts up
 * front. PAYMENT_DECLINE_RATE is 0, so every valid card pays.
 */
function cardOf(buyer: Buyer): string {
  const body = `4111${String(buyer.userId).padStart(11, '0')}`;
  for (let check = 0; check <= 9; check += 1) if (passesLuhn(`${body}${check}`)) return `${body}${check}`;
  return APPROVE_CARD;
}

function addressOf(buyer: Buyer): string {
  return `10.60.${(buyer.userId >> 8) & 255}.${buyer.userId & 255}`;
}

/** A card that is still valid: December of next year. */
const EXPIRY = `12/${String((new Date().getFullYear() + 1) % 100).padStart(2, '0')}`;

function orderBody(buyer: Buyer, sessionId: string, lines: { productId: number; quantity: number }[]) {
  return {
    sessionId,
    userEmail: buyer.email,
    orderItems: lines,
    paymentMethod: 'credit_card',
    cardData: { Number: cardOf(buyer), Expiry: EXPIRY, Cvc: '123', Name: 'Race Buyer' },
    shippingAddress: {
      fullName: 'Race Buyer',
      addressLine1: '1 Contention Street',
      city: 'Sydney',
      state: 'NSW',
      postalCode: '2000',
      country: 'Australia',
    },
  };
}

describe.skipIf(!postgresAvailable)('order placement under concurrency on PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let dataDir: string;
  /** A connection of its own that watches stock while the buyers race (reads never wait for row locks). */
  let watcher: ReturnType<typeof postgres>;
  let buyers: Buyer[];
  let chargeSpy: MockInstance;
  let scarce: { id: number; name: string }[];

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'harbour-order-race-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATABASE_URL: scratch.url,
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      PAYMENT_DECLINE_RATE: '0',
    });
    database = await openDatabase({ kind: 'postgres', url: scratch.url, maxConnections: POOL_SIZE });
    await database.migrate();
    await seedCatalogue(database.db, { products: 30, mediaDir: null });
    app = await buildApp({ config, database, logger: false });
    await app.ready();
    watcher = postgres(scratch.url, { max: 1, onnotice: () => {} });

    const picked = await database.db
      .select({ id: products.id, name: products.name })
      .from(products)
      .orderBy(products.id)
      .limit(3);
    scarce = picked;
    await database.db
      .update(products)
      .set({ isActive: true })
      .where(
        inArray(
          products.id,
          picked.map((product) => product.id),
        ),
      );

    // Distinct shoppers, made directly (argon2 for 200 passwords would cost a minute for nothing):
    // a user row and a real server-side session each, used as a bearer token.
    const tag = Date.now().toString(36);
    const rows = await database.db
      .insert(users)
      .values(
        Array.from({ length: BUYERS }, (_, index) => ({
          email: `race.buyer.${index}.${tag}@example.com`,
          firstName: 'Race',
          lastName: `Buyer ${index}`,
        })),
      )
      .returning({ id: users.id, email: users.email });
    buyers = await Promise.all(
      rows.map(async (row) => ({
        userId: row.id,
        email: row.email,
        token: (await createSession(database.db, row.id, 'order-concurrency-test')).token,
      })),
    );
    chargeSpy = vi.spyOn(app.services.gateway, 'charge');
  }, 180_000);

  afterAll(async () => {
    chargeSpy?.mockRestore();
    await app?.close();
    await watcher?.end({ timeout: 5 });
    await database?.close();
    await scratch?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function place(buyer: Buyer, body: unknown): Promise<{ statusCode: number; body: OrderAnswer }> {
    const response = await app.inject({
      method: 'POST',
      url: '/api/orders',
      remoteAddress: addressOf(buyer),
      headers: { authorization: `Bearer ${buyer.token}` },
      payload: body as Record<string, unknown>,
    });
    return { statusCode: response.statusCode, body: response.json() as OrderAnswer };
  }

  async function stockOf(productId: number): Promise<number> {
    const [row] = await database.db
      .select({ stock: products.stockQuantity })
      .from(products)
      .where(eq(products.id, productId));
    return row!.stock;
  }

  /** Reads the products' stock over and over on its own connection until stopped; returns the lowest seen. */
  function watchStock(productIds: number[]): { stop: () => Promise<{ lowest: number; samples: number }> } {
    let watching = true;
    let lowest = Number.POSITIVE_INFINITY;
    let samples = 0;
    const loop = (async () => {
      while (watching) {
        const rows = await watcher<{ stock: number }[]>`
          select stock_quantity as stock from products where id = any(${productIds}::int[])`;
        for (const row of rows) lowest = Math.min(lowest, row.stock);
        samples += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    return {
      stop: async () => {
        watching = false;
        await loop;
        return { lowest, samples };
      },
    };
  }

  it('refuses by constraint any stock below zero (the last line of defence the races below rely on)', async () => {
    const product = scarce[0]!;
    await expect(watcher`update products set stock_quantity = -1 where id = ${product.id}`).rejects.toMatchObject({
      code: '23514',
      constraint_name: 'products_stock_nonnegative',
    });
    await expect(
      watcher`update products set stock_quantity = stock_quantity - (stock_quantity + 1) where id = ${product.id}`,
    ).rejects.toMatchObject({ constraint_name: 'products_stock_nonnegative' });
  });

  it(`${BUYERS} concurrent buyers for a product with stock ${STOCK}, ${ROUNDS} rounds: exactly ${STOCK} orders each round, stock 0, never negative`, async () => {
    const hot = scarce[0]!;
    let totalMs = 0;
    for (let round = 1; round <= ROUNDS; round += 1) {
      await database.db.update(products).set({ stockQuantity: STOCK }).where(eq(products.id, hot.id));
      const chargesBefore = chargeSpy.mock.calls.length;
      const watch = watchStock([hot.id]);
      const started = performance.now();
      const answers = await Promise.all(
        buyers.map((buyer, index) =>
          place(
            buyer,
            orderBody(buyer, `race-${round}-${index}-${buyer.userId}`, [{ productId: hot.id, quantity: 1 }]),
          ),
        ),
      );
      totalMs += performance.now() - started;
      const { lowest, samples } = await watch.stop();

      const placed = answers.filter((answer) => answer.statusCode === 201);
      const refused = answers.filter((answer) => answer.statusCode === 409);
      const others = answers.filter((answer) => answer.statusCode !== 201 && answer.statusCode !== 409);
      expect(
        others.map((answer) => `${answer.statusCode} ${answer.body.message}`),
        `round ${round}`,
      ).toEqual([]);
      expect(placed.length, `orders placed in round ${round}`).toBe(STOCK);
      expect(refused.length).toBe(BUYERS - STOCK);
      for (const answer of placed) {
        expect(answer.body.status).toBe('succeeded');
        expect(answer.body.order?.status).toBe('Processing');
        expect(answer.body.order?.paymentStatus).toBe('Paid');
        expect(answer.body.order?.items).toEqual([expect.objectContaining({ productId: hot.id, quantity: 1 })]);
      }
      for (const answer of refused) {
        expect(answer.body.message).toContain(hot.name);
        expect(answer.body.errors?.orderItems?.[0]).toContain(hot.name);
      }
      expect(chargeSpy.mock.calls.length - chargesBefore, `charges in round ${round}`).toBe(STOCK);
      expect(await stockOf(hot.id), `stock after round ${round}`).toBe(0);
      expect(samples).toBeGreaterThan(0);
      expect(lowest, `lowest stock seen during round ${round}`).toBeGreaterThanOrEqual(0);

      // What the database holds agrees with the answers: the 10 orders and no others for the product.
      const placedIds = placed.map((answer) => answer.body.order!.id);
      expect(new Set(placedIds).size).toBe(STOCK);
      const held = await database.db
        .select({ orderId: orderItems.orderId, quantity: orderItems.quantity })
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .where(and(eq(orderItems.productId, hot.id), sql`${orders.idempotencyKey} like ${`race-${round}-%`}`));
      expect(held.map((row) => row.orderId).sort((a, b) => a - b)).toEqual(placedIds.sort((a, b) => a - b));
    }
    // Every claim of a refused order was rolled back: no half-made orders anywhere.
    const unpaid = await database.db
      .select({ id: orders.id })
      .from(orders)
      .where(sql`${orders.status} <> 'Processing' or ${orders.paymentStatus} <> 'Paid'`);
    expect(unpaid).toEqual([]);
    const [sold] = await database.db
      .select({ quantity: sql<number>`coalesce(sum(${orderItems.quantity}), 0)::int` })
      .from(orderItems)
      .where(eq(orderItems.productId, hot.id));
    expect(sold?.quantity).toBe(STOCK * ROUNDS);
    console.log(
      `order race: ${ROUNDS} rounds of ${BUYERS} buyers in ${Math.round(totalMs)} ms (${Math.round(totalMs / ROUNDS)} ms a round)`,
    );
  }, 150_000);

  it('orders holding two scarce products listed in either order neither deadlock nor oversell', async () => {
    const [first, second] = [scarce[1]!, scarce[2]!];
    const stock = 20;
    for (let round = 1; round <= 3; round += 1) {
      await database.db
        .update(products)
        .set({ stockQuantity: stock })
        .where(inArray(products.id, [first.id, second.id]));
      const watch = watchStock([first.id, second.id]);
      const racers = buyers.slice(0, 100);
      const answers = await Promise.all(
        racers.map((buyer, index) => {
          const lines = [
            { productId: first.id, quantity: 1 },
            { productId: second.id, quantity: 1 },
          ];
          return place(
            buyer,
            orderBody(buyer, `pair-${round}-${index}-${buyer.userId}`, index % 2 ? lines.reverse() : lines),
          );
        }),
      );
      const { lowest } = await watch.stop();
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status !== 201 && status !== 409)).toEqual([]);
      expect(statuses.filter((status) => status === 201).length).toBe(stock);
      expect(await stockOf(first.id)).toBe(0);
      expect(await stockOf(second.id)).toBe(0);
      expect(lowest).toBeGreaterThanOrEqual(0);
    }
  }, 60_000);

  it('20 concurrent identical POSTs with one sessionId: one order, one charge, one stock decrement, the same order in every answer', async () => {
    const buyer = buyers[0]!;
    const product = scarce[1]!;
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await database.db.update(products).set({ stockQuantity: 50 }).where(eq(products.id, product.id));
      const sessionId = `session_${Date.now()}_double_click_${attempt}`;
      const body = orderBody(buyer, sessionId, [{ productId: product.id, quantity: 2 }]);
      const chargesBefore = chargeSpy.mock.calls.length;
      const answers = await Promise.all(Array.from({ length: 20 }, () => place(buyer, body)));

      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status !== 201 && status !== 200)).toEqual([]);
      expect(statuses.filter((status) => status === 201).length).toBe(1);
      const ids = new Set(answers.map((answer) => answer.body.order?.id));
      expect(ids.size).toBe(1);
      for (const answer of answers) expect(answer.body.status).toBe('succeeded');

      const rows = await database.db
        .select({ id: orders.id, status: orders.status, paymentStatus: orders.paymentStatus })
        .from(orders)
        .where(and(eq(orders.userId, buyer.userId), eq(orders.idempotencyKey, sessionId)));
      expect(rows).toEqual([{ id: [...ids][0], status: 'Processing', paymentStatus: 'Paid' }]);
      expect(chargeSpy.mock.calls.length - chargesBefore, `charges for ${sessionId}`).toBe(1);
      expect(await stockOf(product.id)).toBe(48);
    }
  }, 60_000);

  it('one sessionId sent with two different bodies at once: one order, one charge, the other body 422', async () => {
    const buyer = buyers[1]!;
    const product = scarce[2]!;
    await database.db.update(products).set({ stockQuantity: 50 }).where(eq(products.id, product.id));
    const sessionId = `session_${Date.now()}_two_bodies`;
    const bodyA = orderBody(buyer, sessionId, [{ productId: product.id, quantity: 1 }]);
    const bodyB = orderBody(buyer, sessionId, [{ productId: product.id, quantity: 3 }]);
    const chargesBefore = chargeSpy.mock.calls.length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        place(buyer, index % 2 ? bodyB : bodyA).then((answer) => ({ ...answer, index })),
      ),
    );
    const winner = answers.find((answer) => answer.statusCode === 201);
    expect(winner).toBeDefined();
    const winningParity = winner!.index % 2;
    for (const answer of answers) {
      if (answer.index % 2 === winningParity) {
        expect([200, 201]).toContain(answer.statusCode);
        expect(answer.body.order?.id).toBe(winner!.body.order?.id);
      } else {
        expect(answer.statusCode).toBe(422);
      }
    }
    expect(answers.filter((answer) => answer.statusCode === 201).length).toBe(1);
    expect(chargeSpy.mock.calls.length - chargesBefore).toBe(1);
    const rows = await database.db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.userId, buyer.userId), eq(orders.idempotencyKey, sessionId)));
    expect(rows.length).toBe(1);
    expect(await stockOf(product.id)).toBe(50 - (winningParity ? 3 : 1));
  }, 60_000);
});
