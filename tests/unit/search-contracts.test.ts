import { describe, expect, it } from 'vitest';
import { searchQuerySchema } from '../../contracts/search.ts';
import { searchHref } from '../../contracts/search-links.ts';
import { stockStatusOf } from '../../contracts/stock.ts';

describe('searchQuerySchema', () => {
  it('trims the term, collapses spaces and fills the defaults', () => {
    expect(searchQuerySchema.parse({ term: '  hammer   drill ' })).toEqual({
      term: 'hammer drill',
      page: 1,
      pageSize: 20,
      sortBy: 'relevance',
    });
  });

  it('names the field that is wrong', () => {
    const result = searchQuerySchema.safeParse({ term: 'saw', minPrice: '20', maxPrice: '5' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['maxPrice']);
  });
});

describe('searchHref', () => {
  it('writes only what differs from the defaults, page last', () => {
    expect(searchHref({ term: 'hammer drill' })).toBe('/search?term=hammer+drill');
    expect(searchHref({ term: 'saw', sortBy: 'relevance', page: 1, pageSize: 20 })).toBe('/search?term=saw');
    expect(
      searchHref({
        term: 'saw',
        categoryId: 3,
        brandId: 7,
        minPrice: 10,
        maxPrice: 99.5,
        sortBy: 'price_asc',
        page: 2,
      }),
    ).toBe('/search?term=saw&categoryId=3&brandId=7&minPrice=10&maxPrice=99.5&sortBy=price_asc&page=2');
    expect(searchHref({})).toBe('/search');
  });
});

describe('stockStatusOf', () => {
  it('reads out of stock, low stock up to 5 and in stock above', () => {
    expect([-1, 0, 1, 5, 6].map(stockStatusOf)).toEqual([
      'out_of_stock',
      'out_of_stock',
      'low_stock',
      'low_stock',
      'in_stock',
    ]);
  });
});
