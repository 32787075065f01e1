import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../contracts/unavailable.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/** What a shopper's client sees when the database goes away under the server. */
describe('when the database is unreachable', () => {
  let shop: TestShop;

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 20 });
    await shop.database.close();
  });
  afterAll(async () => {
    await shop.app.close();
  });

  it('reports 503 on /api/health', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', database: 'down' });
  });

  it('answers 503 with a plain message, a Retry-After and no internals', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/products?categoryId=1' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE });
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(response.body).not.toMatch(/select|from|stack|pglite|closed/i);
  });
});
