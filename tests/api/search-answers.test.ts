import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../contracts/search.ts';
import type { Database } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import { readCatalogVersion } from '../../server/domain/search-answers.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

/*
 * Search answers are kept against the catalogue version (migration 0012): it must move once
 * per committed change to what search reads, whoever writes it, and only at commit; and a
 * search after any such change must show it at once, in every process.
 */

const postgresReachable = await isPostgresReachable();

async function searchFor(shop: TestShop, term: string): Promise<SearchResponse> {
  const response = await shop.app.inject({ method: 'GET', url: `/api/search?term=${encodeURIComponent(term)}` });
  expect(response.statusCode).toBe(200);
  return response.json() as SearchResponse;
}

async function firstActiveProduct(db: Database) {
  const [product] = await db.select().from(products).where(eq(products.isActive, true)).orderBy(products.id).limit(1);
  return product!;
}

for (const kind of ['pglite', 'postgres'] as DatabaseKind[]) {
  describe.skipIf(kind === 'postgres' && !postgresReachable)(`search answers on ${kind}`, () => {
    let shop: TestShop;
    beforeAll(async () => {
      shop = await createTestShop(kind);
    }, 120_000);
    afterAll(async () => {
      await shop?.close();
    });

    it('moves the catalogue version once per committed transaction, at commit, and not for a rollback', async () => {
      const { db } = shop.database;
      const before = await readCatalogVersion(db);
      await db.transaction(async (tx) => {
        // Many rows in several tables: still one step.
        await tx.execute(sql`update products set updated_at = now() where id in (select id from products limit 50)`);
        await tx.execute(sql`update brands set name = name`);
        // Deferred to commit: not even this transaction sees it move before then.
        expect(await readCatalogVersion(tx as unknown as Database)).toBe(before);
      });
      expect(await readCatalogVersion(db)).toBe(before + 1);

      await db
        .transaction(async (tx) => {
          await tx.execute(sql`update products set updated_at = now()`);
          tx.rollback();
        })
        .catch((error: Error) => {
          if (!/rollback/i.test(error.message)) throw error;
        });
      expect(await readCatalogVersion(db)).toBe(before + 1);

      // Writes search never reads leave it alone, so they cost kept answers nothing.
      await db.execute(sql`insert into contact_messages (name, email, subject, message)
                           values ('Ada', 'ada@example.com', 'Hours', 'Open on Sunday?')`);
      expect(await readCatalogVersion(db)).toBe(before + 1);
    });

    it('answers a repeated search from memory, and a price written with plain SQL shows on the next one', async () => {
      const { db } = shop.database;
      const product = await firstActiveProduct(db);
      const answers = shop.app.services.search.searchAnswers!;
      const first = await searchFor(shop, product.sku);
      const hitsBefore = answers.state().hits;
      const again = await searchFor(shop, product.sku);
      expect(again).toEqual(first);
      expect(answers.state().hits).toBe(hitsBefore + 1);

      const newCents = product.priceCents + 1234;
      const readsBefore = shop.app.services.search.catalogVersion.reads();
      await db.execute(sql`update products set price_cents = ${newCents} where id = ${product.id}`);
      const after = await searchFor(shop, product.sku);
      const result = after.results.find((entry) => entry.id === product.id);
      expect(result?.price).toBe(newCents / 100);
      // The embedded database handed the new number over with the commit: nothing was read back.
      // PostgreSQL's other connections hear of it later, so there every search reads it.
      if (kind === 'pglite') expect(shop.app.services.search.catalogVersion.reads()).toBe(readsBefore);
      else expect(shop.app.services.search.catalogVersion.reads()).toBeGreaterThan(readsBefore);
      await db.execute(sql`update products set price_cents = ${product.priceCents} where id = ${product.id}`);
      expect((await searchFor(shop, product.sku)).results.find((entry) => entry.id === product.id)?.price).toBe(
        product.priceCents / 100,
      );
    });

    it('leaves the version for a change of stock alone (every order makes one), so kept answers outlive the order mix', async () => {
      const { db } = shop.database;
      const product = await firstActiveProduct(db);
      const before = await readCatalogVersion(db);
      await db.execute(sql`update products set stock_quantity = stock_quantity + 1 where id = ${product.id}`);
      await db.execute(sql`update product_variants set stock_quantity = stock_quantity + 1
                           where id = (select min(id) from product_variants)`);
      expect(await readCatalogVersion(db)).toBe(before);
      // Any other column still moves it, stock beside it or not.
      await db.execute(sql`update products set stock_quantity = stock_quantity - 1, price_cents = price_cents
                           where id = ${product.id}`);
      expect(await readCatalogVersion(db)).toBe(before);
      await db.execute(sql`update products set stock_quantity = stock_quantity, tag_line = coalesce(tag_line, '') || ' '
                           where id = ${product.id}`);
      expect(await readCatalogVersion(db)).toBe(before + 1);
      await db.execute(
        sql`update product_variants set name = name || ' ' where id = (select min(id) from product_variants)`,
      );
      expect(await readCatalogVersion(db)).toBe(before + 2);
      // An answer kept meanwhile shows stock at most CATALOG_CACHE_SECONDS old, as listings do.
      expect(shop.app.config.catalogCacheSeconds).toBeGreaterThan(0);
    });

    it('forgets a product hidden with plain SQL on the very next search', async () => {
      const { db } = shop.database;
      const product = await firstActiveProduct(db);
      expect((await searchFor(shop, product.sku)).results.map((entry) => entry.id)).toContain(product.id);
      await db.update(products).set({ isActive: false }).where(eq(products.id, product.id));
      expect((await searchFor(shop, product.sku)).results.map((entry) => entry.id)).not.toContain(product.id);
      await db.update(products).set({ isActive: true }).where(eq(products.id, product.id));
      expect((await searchFor(shop, product.sku)).results.map((entry) => entry.id)).toContain(product.id);
    });

    it('moves the version on TRUNCATE, which fires no row triggers', async () => {
      const { db } = shop.database;
      const before = await readCatalogVersion(db);
      await db
        .transaction(async (tx) => {
          await tx.execute(sql`TRUNCATE TABLE product_search`);
          expect(await readCatalogVersion(tx as unknown as Database)).toBeGreaterThan(before);
          tx.rollback();
        })
        .catch((error: Error) => {
          if (!/rollback/i.test(error.message)) throw error;
        });
      expect(await readCatalogVersion(db)).toBe(before);
    });
  });
}

for (const kind of ['pglite', 'postgres'] as DatabaseKind[]) {
  describe.skipIf(kind === 'postgres' && !postgresReachable)(`aged search answers on ${kind}`, () => {
    let shop: TestShop;
    beforeAll(async () => {
      shop = await createTestShop(kind, { env: { CATALOG_CACHE_SECONDS: '1' } });
    }, 120_000);
    afterAll(async () => {
      await shop?.close();
    });

    it('show the stock as it is once CATALOG_CACHE_SECONDS has passed, without searching again', async () => {
      const { db } = shop.database;
      const product = await firstActiveProduct(db);
      await db.update(products).set({ stockQuantity: 30 }).where(eq(products.id, product.id));
      const searchAnswers = shop.app.services.search.searchAnswers!;
      const first = await searchFor(shop, product.sku);
      expect(first.results.find((entry) => entry.id === product.id)?.stockQuantity).toBe(30);
      const searched = searchAnswers.state().misses;
      // Sold down behind the app's back (stock moves no catalogue version).
      await db.update(products).set({ stockQuantity: 2 }).where(eq(products.id, product.id));
      expect((await searchFor(shop, product.sku)).results.find((entry) => entry.id === product.id)?.stockQuantity).toBe(
        30,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const aged = (await searchFor(shop, product.sku)).results.find((entry) => entry.id === product.id);
      expect(aged).toMatchObject({ stockQuantity: 2, stockStatus: 'low_stock' });
      expect(searchAnswers.state().misses).toBe(searched);
    });
  });
}
