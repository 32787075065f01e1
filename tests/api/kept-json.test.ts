/**
 * Catalogue JSON compressed once (issue 24): a kept answer's br and gzip bytes are made the
 * first time a client asks for each and sent as they are after, and they are the bytes of the
 * answer as it is now — a stock change sends the new stock, never the old bytes.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../db/schema.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

describe('catalogue JSON kept compressed', () => {
  let shop: TestShop;
  let productId = 0;

  beforeAll(async () => {
    shop = await createTestShop('pglite');
    const [row] = await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id).limit(1);
    productId = row!.id;
  });
  afterAll(async () => {
    await shop?.close();
  });

  const get = (url: string, encoding?: string) =>
    shop.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('sends %s bytes made once, the same JSON as an uncompressed answer', async (encoding, decode) => {
    for (const url of [`/api/products/${productId}`, '/api/products?limit=20', `/api/products/full/${productId}`]) {
      const plain = await get(url);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const first = await get(url, `${encoding}, deflate`);
      const before = shop.app.keptJson.stats();
      const second = await get(url, `${encoding}, deflate`);
      expect(first.headers['content-encoding'], url).toBe(encoding);
      expect(first.headers.vary).toContain('accept-encoding');
      expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(second.rawPayload.equals(first.rawPayload), url).toBe(true);
      expect(JSON.parse(decode(second.rawPayload).toString('utf8'))).toEqual(plain.json());
      // The second answer compressed nothing: its bytes were kept.
      expect(shop.app.keptJson.stats().misses).toBe(before.misses);
      expect(shop.app.keptJson.stats().hits).toBe(before.hits + 1);
    }
  });

  it('answers with the stock as it is after a change, not the bytes kept before it', async () => {
    const url = `/api/products/${productId}`;
    const read = async () => JSON.parse(brotliDecompressSync((await get(url, 'br')).rawPayload).toString('utf8'));
    const before = await read();
    await shop.database.db
      .update(products)
      .set({ stockQuantity: sql`${products.stockQuantity} + 7` })
      .where(eq(products.id, productId));
    // What an order does after it changes stock: tells the catalogue which products moved.
    shop.app.services.catalog.applyRemoteChange({ productIds: [productId] });
    expect((await read()).stockQuantity).toBe(before.stockQuantity + 7);
  });

  it('keeps within KEPT_JSON_MB', async () => {
    const small = await createTestShop('pglite', { products: 60, env: { KEPT_JSON_MB: '0.05' } });
    try {
      const ids = (await small.database.db.select({ id: products.id }).from(products)).map((row) => row.id);
      for (const id of ids) {
        const answer = await small.app.inject({
          method: 'GET',
          url: `/api/products/full/${id}`,
          headers: { 'accept-encoding': 'br' },
        });
        expect(answer.statusCode).toBe(200);
      }
      const { bytes, entries } = small.app.keptJson.stats();
      expect(bytes).toBeLessThanOrEqual(0.05 * 1024 * 1024);
      expect(entries).toBeGreaterThan(0);
      expect(entries).toBeLessThan(ids.length);
    } finally {
      await small.close();
    }
  });
});
