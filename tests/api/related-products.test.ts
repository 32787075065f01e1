/**
 * Related products by index (issue 24's soak: the one OR query scanned every product of the
 * subcategory and the brand, ~4,400 rows and 65–108 ms at 100,000 products, on every first
 * view of a product page). The answer must not change: for every product of the test
 * catalogue, with some sold out and some hidden, the related list equals the one query's.
 */
import { and, asc, desc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../db/schema.ts';
import { listRelatedProducts, RELATED_PRODUCTS_LIMIT } from '../../server/domain/catalog.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

describe('related products', () => {
  let shop: TestShop;

  beforeAll(async () => {
    shop = await createTestShop('pglite');
    const { db } = shop.database;
    // Sold-out and hidden products are never related; some of every kind, spread over the catalogue.
    const ids = (await db.select({ id: products.id }).from(products).orderBy(products.id)).map((row) => row.id);
    await db
      .update(products)
      .set({ stockQuantity: 0 })
      .where(
        inArray(
          products.id,
          ids.filter((_, index) => index % 7 === 3),
        ),
      );
    await db
      .update(products)
      .set({ isActive: false })
      .where(
        inArray(
          products.id,
          ids.filter((_, index) => index % 11 === 5),
        ),
      );
  });
  afterAll(async () => {
    await shop?.close();
  });

  /** The ruling's order in one statement: same subcategory first, then same brand, most reviewed, lowest id. */
  async function oracle(product: { id: number; brandId: number; subcategoryId: number }, limit: number) {
    const rows = await shop.database.db
      .select({ id: products.id })
      .from(products)
      .where(
        and(
          eq(products.isActive, true),
          ne(products.id, product.id),
          sql`${products.stockQuantity} > 0`,
          or(eq(products.subcategoryId, product.subcategoryId), eq(products.brandId, product.brandId)),
        ),
      )
      .orderBy(
        desc(sql`${products.subcategoryId} = ${product.subcategoryId}`),
        desc(sql`${products.brandId} = ${product.brandId}`),
        desc(products.reviewCount),
        asc(products.id),
      )
      .limit(limit);
    return rows.map((row) => row.id);
  }

  it.each([RELATED_PRODUCTS_LIMIT, 1, 12, 60])(
    'lists the same products in the same order for every product (limit %i)',
    async (limit) => {
      const all = await shop.database.db
        .select({ id: products.id, brandId: products.brandId, subcategoryId: products.subcategoryId })
        .from(products)
        .orderBy(products.id);
      let tiersCrossed = 0;
      for (const product of all) {
        const expected = await oracle(product, limit);
        const related = await listRelatedProducts(shop.database.db, product, limit);
        expect(
          related.map((item) => item.id),
          `product ${product.id}`,
        ).toEqual(expected);
        if (related.some((item) => item.subcategoryId !== product.subcategoryId)) tiersCrossed += 1;
      }
      // The catalogue is small enough that many lists need products of the same brand elsewhere.
      if (limit >= RELATED_PRODUCTS_LIMIT) expect(tiersCrossed).toBeGreaterThan(10);
    },
  );
});
