import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { createSession } from '../../server/domain/sessions.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/*
 * The balancer's two checks (issue 23): `/api/health/live` says the process answers and touches
 * no database; `/api/health` says it is ready, and answers 503 within about a second when the
 * database does not answer — a check that hangs keeps a process in the balancer's rotation.
 */
describe('health checks when the database stops answering', () => {
  let shop: TestShop;
  let realPing: () => Promise<void>;
  let pings = 0;

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 5 });
    realPing = shop.app.database.ping;
  });
  afterAll(async () => {
    shop.app.database.ping = realPing;
    await shop.close();
  });

  it('ready: 200 while the database answers', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'up' });
  });

  it('ready: 503 within about a second when the database never answers, never a hang', async () => {
    // A silent network: the round trip neither answers nor fails.
    shop.app.database.ping = () => new Promise(() => {});
    const started = performance.now();
    const response = await shop.app.inject({ method: 'GET', url: '/api/health' });
    const took = performance.now() - started;
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', database: 'down' });
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(2_000);
  });

  it('live: 200 without asking the database, whatever it does', async () => {
    shop.app.database.ping = () => {
      pings += 1;
      return new Promise(() => {});
    };
    const response = await shop.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(pings).toBe(0);
  });
});

/** Liveness × role (issue 23's new route): the same answer for everyone, and bad input is a 400, never a 500. */
describe('GET /api/health/live × role', () => {
  let shop: TestShop;
  const tokens = new Map<string, string | undefined>();

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 5 });
    tokens.set('signed out', undefined);
    for (const [role, email, kind] of [
      ['customer A', 'live.a@example.com', 'customer'],
      ['customer B', 'live.b@example.com', 'customer'],
      ['admin', 'live.admin@example.com', 'admin'],
    ] as const) {
      const [row] = await shop.database.db
        .insert(users)
        .values({ email, firstName: 'Live', lastName: role, role: kind })
        .returning({ id: users.id });
      tokens.set(role, (await createSession(shop.database.db, row!.id, 'health')).token);
    }
  });
  afterAll(async () => {
    await shop.close();
  });

  for (const role of ['signed out', 'customer A', 'customer B', 'admin']) {
    it(`${role} → 200 {status: 'ok'}; a NUL in the query → 400 JSON`, async () => {
      const token = tokens.get(role);
      const headers = token ? { authorization: `Bearer ${token}` } : {};
      const answer = await shop.app.inject({ method: 'GET', url: '/api/health/live', headers });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ status: 'ok' });
      const bad = await shop.app.inject({ method: 'GET', url: '/api/health/live?probe=%00', headers });
      expect(bad.statusCode).toBe(400);
      expect(typeof bad.json().message).toBe('string');
    });
  }
});

/*
 * Readiness asks whether the database answers, not whether this process has a free
 * connection: in the 30-minute soak every pooled connection was busy and 11,969 statements
 * waited, so a ping queued behind them and the balancer was told 503 while PostgreSQL was fine.
 */
const postgresReachable = await isPostgresReachable();
describe.skipIf(!postgresReachable)('readiness with every pooled connection busy (PostgreSQL)', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await createTestShop('postgres', { products: 5 });
  });
  afterAll(async () => {
    await shop?.close();
  });

  it('answers 200 within a second while the pool is full and statements queue for it', async () => {
    const { db } = shop.database;
    // drizzle runs a statement when it is awaited: `then` starts each now.
    const busy = Array.from({ length: 12 }, () => db.execute(sql`select pg_sleep(2.5)`).then(() => undefined));
    await new Promise((settle) => setTimeout(settle, 200));
    expect(shop.database.pool?.().waiting).toBeGreaterThan(0);
    const started = performance.now();
    const response = await shop.app.inject({ method: 'GET', url: '/api/health' });
    const took = performance.now() - started;
    expect(response.json()).toEqual({ status: 'ok', database: 'up' });
    expect(response.statusCode).toBe(200);
    expect(took).toBeLessThan(1_000);
    await Promise.all(busy);
  });
});
