/**
 * A product's full read (what the product page shows) takes its brand, category and
 * subcategory from the catalogue's kept reads, not from the database each time. The soak's
 * statement log (100,000 products on PostgreSQL): the subcategory with its product count was a
 * third of the database's time, ~9 ms for every product read for the first time, while the
 * same subcategory sat in the read cache for the listings.
 */
import type { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../db/schema.ts';
import { logStatements } from '../helpers/statement-log.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

describe("a product's full read", () => {
  let shop: TestShop;
  let statements: string[] = [];

  beforeAll(async () => {
    shop = await createTestShop('pglite');
    statements = logStatements(shop.database.embedded?.client as PGlite);
  });
  afterAll(async () => {
    await shop?.close();
  });

  it('reads a subcategory, category and brand once for two products that share them', async () => {
    const { db } = shop.database;
    // Two active products of one brand and one subcategory.
    const [pair] = await db
      .select({ ids: sql<number[]>`array_agg(${products.id} order by ${products.id})` })
      .from(products)
      .where(eq(products.isActive, true))
      .groupBy(products.subcategoryId, products.brandId)
      .having(sql`count(*) >= 2`)
      .limit(1);
    const [first, second] = pair?.ids ?? [];
    expect(second, 'the test catalogue has two products of one brand and subcategory').toBeDefined();

    statements.length = 0;
    const a = await shop.app.services.catalog.getFullProduct(first!);
    const b = await shop.app.services.catalog.getFullProduct(second!);
    expect(a.subcategory).toEqual(b.subcategory);
    expect(a.brand).toEqual(b.brand);

    const reading = (table: string) => statements.filter((text) => new RegExp(`from "${table}"`).test(text)).length;
    expect(reading('subcategories')).toBe(1);
    expect(reading('categories')).toBe(1);
    expect(reading('brands')).toBe(1);
  });
});
