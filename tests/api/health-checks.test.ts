import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
