import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Product } from '../../contracts/catalog.ts';
import { stockStatusOf } from '../../contracts/stock.ts';
import { restockOutcome, type SearchOutcome, toSearchResult } from '../../server/domain/search.ts';

/** A product with only what a search answer reads of it filled in meaningfully. */
function product(id: number, stockQuantity: number): Product {
  return {
    id,
    name: `Product ${id}`,
    sku: `SKU-${id}`,
    price: 100,
    discountPrice: null,
    imageUrl: null,
    brandName: 'Voltrex',
    brandId: 1,
    categoryName: 'Power Tools',
    categoryId: 1,
    isFeatured: false,
    stockQuantity,
    averageRating: null,
    reviewCount: 0,
  } as unknown as Product;
}

function outcome(page: Product[], closest: Product[]): SearchOutcome {
  return {
    response: {
      query: 'saw',
      correctedQuery: null,
      page: 1,
      pageSize: 20,
      totalCount: page.length,
      totalPages: 1,
      filters: { categories: [{ id: 1, name: 'Power Tools', productCount: page.length }], brands: [] },
      results: page.map(toSearchResult),
      closestMatches: closest.map(toSearchResult),
    },
    products: page,
    closestProducts: closest,
  };
}

describe('restockOutcome', () => {
  it('is the same answer when no stock moved, and otherwise differs only in the moved stock', () => {
    const stockArb = fc.integer({ min: 0, max: 50 });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 1000 }), { minLength: 0, maxLength: 12 }),
        fc.array(stockArb, { minLength: 12, maxLength: 12 }),
        fc.array(fc.option(stockArb, { nil: undefined }), { minLength: 12, maxLength: 12 }),
        (ids, before, after) => {
          const split = Math.floor(ids.length / 2);
          const products = ids.map((id, index) => product(id, before[index]!));
          const answer = outcome(products.slice(0, split), products.slice(split));
          // Ids missing from the map (no longer in the database) keep the stock they had.
          const stock = new Map(
            ids.flatMap((id, index) => (after[index] === undefined ? [] : [[id, after[index]!] as const])),
          );
          const restocked = restockOutcome(answer, stock);
          const expected = (id: number, was: number) => stock.get(id) ?? was;
          if (ids.every((id, index) => expected(id, before[index]!) === before[index])) {
            expect(restocked).toBe(answer);
            return;
          }
          expect(restocked).not.toBe(answer);
          const all = [...restocked.products, ...restocked.closestProducts];
          expect(all.map((item) => item.stockQuantity)).toEqual(ids.map((id, index) => expected(id, before[index]!)));
          for (const result of [...restocked.response.results, ...restocked.response.closestMatches]) {
            const index = ids.indexOf(result.id);
            expect(result.stockQuantity).toBe(expected(result.id, before[index]!));
            expect(result.stockStatus).toBe(stockStatusOf(result.stockQuantity));
          }
          // Totals and facets stand: search neither filters nor ranks by stock.
          expect(restocked.response.filters).toBe(answer.response.filters);
          expect(restocked.response.totalCount).toBe(answer.response.totalCount);
        },
      ),
    );
  });
});
