import { describe, expect, it } from 'vitest';
import { brandFacets, brandsByProductCount, filterByName, pageRange, pageWindow } from '../../app/lib/listing.ts';
import {
  BRAND_SORTS,
  canonicalListingSearch,
  changeListing,
  hasActiveFilters,
  type ListingState,
  listingProductQuery,
  listingSearch,
  toggleRating,
} from '../../contracts/listing.ts';
import { parseListingSearch } from '../../contracts/listing-query.ts';

const base: ListingState = { brandIds: [], sort: 'featured', page: 1 };

function parse(search: string, options = {}) {
  return parseListingSearch(new URLSearchParams(search), options);
}

describe('parseListingSearch', () => {
  it('reads every filter, with defaults for what is missing', () => {
    expect(parse('')).toEqual({ success: true, state: { ...base } });
    const result = parse('brand=7&brand=3&minPrice=10.5&maxPrice=200&rating=4&sort=price_asc&page=3');
    expect(result).toEqual({
      success: true,
      state: {
        categoryId: undefined,
        brandIds: [3, 7],
        minPrice: 10.5,
        maxPrice: 200,
        rating: 4,
        sort: 'price_asc',
        page: 3,
      },
    });
  });

  it('treats empty fields (what a GET form sends) as not set', () => {
    expect(parse('minPrice=&maxPrice=&rating=&brand=')).toEqual({ success: true, state: { ...base } });
  });

  it('lets the last rating win, so a pressed rating button overrides the hidden current one', () => {
    expect(parse('rating=4&rating=2')).toMatchObject({ success: true, state: { rating: 2 } });
    // The "clear" button of the active rating sends an empty value after the hidden field.
    expect(parse('rating=4&rating=')).toMatchObject({ success: true, state: { rating: undefined } });
  });

  it('dedupes brands and accepts comma lists', () => {
    expect(parse('brand=5,2&brand=5')).toMatchObject({ success: true, state: { brandIds: [2, 5] } });
  });

  it('reads category only where the page offers it', () => {
    expect(parse('category=4')).toMatchObject({ success: true, state: { categoryId: undefined } });
    expect(parse('category=4', { withCategory: true })).toMatchObject({ success: true, state: { categoryId: 4 } });
  });

  it('names each bad value', () => {
    const result = parse('minPrice=abc&rating=5&page=0&brand=x&sort=cheapest');
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(Object.keys(result.errors).sort()).toEqual(['brand', 'minPrice', 'page', 'rating', 'sort']);
    expect(result.errors.rating).toEqual(['Must be 1, 2, 3 or 4']);
    expect(result.message).toMatch(/^Invalid filter: /);
  });

  it('refuses a max price below the min price', () => {
    const result = parse('minPrice=100&maxPrice=50');
    expect(result).toMatchObject({ success: false, errors: { maxPrice: ['Max price must not be below min price'] } });
  });

  it('only accepts the sorts the page offers', () => {
    expect(parse('sort=newest', { sorts: BRAND_SORTS }).success).toBe(false);
    expect(parse('sort=name_asc', { sorts: BRAND_SORTS })).toMatchObject({
      success: true,
      state: { sort: 'name_asc' },
    });
  });

  it('uses the page default sort', () => {
    expect(parse('', { defaultSort: 'newest' })).toMatchObject({ success: true, state: { sort: 'newest' } });
  });
});

describe('listingSearch', () => {
  it('writes a canonical query: fixed order, defaults left out', () => {
    const state: ListingState = {
      brandIds: [9, 2],
      minPrice: 10,
      maxPrice: 99.5,
      rating: 3,
      sort: 'price_desc',
      page: 2,
      categoryId: 1,
    };
    expect(listingSearch(state)).toBe(
      '?category=1&brand=2&brand=9&minPrice=10&maxPrice=99.5&rating=3&sort=price_desc&page=2',
    );
    expect(listingSearch(base)).toBe('');
    expect(listingSearch({ ...base, sort: 'newest' }, { defaultSort: 'newest' })).toBe('');
  });

  it('round-trips through the parser', () => {
    const state: ListingState = { brandIds: [1, 4], minPrice: 5, rating: 2, sort: 'name_asc', page: 4 };
    const parsed = parse(listingSearch(state).slice(1));
    expect(parsed).toEqual({ success: true, state: { ...state, categoryId: undefined, maxPrice: undefined } });
  });

  it('keeps unknown parameters after the listing ones in the canonical form', () => {
    const params = new URLSearchParams('utm_source=mail&rating=&minPrice=5');
    const parsed = parseListingSearch(params);
    if (!parsed.success) throw new Error('should parse');
    expect(canonicalListingSearch(params, parsed.state)).toBe('?minPrice=5&utm_source=mail');
  });
});

describe('listing changes', () => {
  it('go back to page 1 unless the change is the page', () => {
    const onPage3 = { ...base, page: 3 };
    expect(changeListing(onPage3, { minPrice: 10 }).page).toBe(1);
    expect(changeListing(onPage3, { page: 4 }).page).toBe(4);
  });

  it('toggle the rating: the same value clears it', () => {
    const four = toggleRating(base, 4);
    expect(four.rating).toBe(4);
    expect(toggleRating(four, 4).rating).toBeUndefined();
    expect(toggleRating(four, 2).rating).toBe(2);
  });

  it('know whether any filter is set (sort and page are not filters)', () => {
    expect(hasActiveFilters({ ...base, sort: 'price_asc', page: 3 })).toBe(false);
    expect(hasActiveFilters({ ...base, brandIds: [1] })).toBe(true);
    expect(hasActiveFilters({ ...base, maxPrice: 0 })).toBe(true);
  });

  it('become a catalogue query of 20 a page', () => {
    expect(listingProductQuery({ ...base, brandIds: [2], rating: 4, page: 2 })).toEqual({
      categoryId: undefined,
      brandIds: [2],
      minPrice: undefined,
      maxPrice: undefined,
      minRating: 4,
      sort: 'featured',
      page: 2,
      limit: 20,
    });
    expect(listingProductQuery(base).brandIds).toBeUndefined();
  });
});

describe('brandFacets', () => {
  const scope = [
    { brandId: 1, name: 'Dravik' },
    { brandId: 2, name: 'Kelvane' },
    { brandId: 3, name: 'Voltrex' },
  ];

  it('keeps every brand of the scope, counted under the filters, disabled at 0', () => {
    const facets = brandFacets(scope, [{ brandId: 1, productCount: 4 }], []);
    expect(facets).toEqual([
      { id: 1, name: 'Dravik', count: 4, selected: false, disabled: false },
      { id: 2, name: 'Kelvane', count: 0, selected: false, disabled: true },
      { id: 3, name: 'Voltrex', count: 0, selected: false, disabled: true },
    ]);
  });

  it('never disables a ticked brand, so it can be unticked', () => {
    const facets = brandFacets(scope, [], [2]);
    expect(facets[1]).toEqual({ id: 2, name: 'Kelvane', count: 0, selected: true, disabled: false });
  });
});

describe('brandsByProductCount', () => {
  it('ranks by product count, then name, with 0 for brands without products', () => {
    const ranked = brandsByProductCount(
      [
        { id: 1, name: 'Beta' },
        { id: 2, name: 'Alpha' },
        { id: 3, name: 'Gamma' },
      ],
      [
        { brandId: 1, productCount: 5 },
        { brandId: 2, productCount: 5 },
        { brandId: 9, productCount: 50 },
      ],
    );
    expect(ranked.map((brand) => [brand.name, brand.productCount])).toEqual([
      ['Alpha', 5],
      ['Beta', 5],
      ['Gamma', 0],
    ]);
  });
});

describe('pageWindow', () => {
  const numbers = (current: number, total: number) =>
    pageWindow(current, total).map((link) => (link.type === 'page' ? link.page : '…'));

  it('shows nothing for a single page', () => {
    expect(pageWindow(1, 1)).toEqual([]);
    expect(pageWindow(1, 0)).toEqual([]);
  });

  it('shows every page when there are few', () => {
    expect(numbers(1, 4)).toEqual([1, 2, 3, 4]);
  });

  it('shows first, last and the neighbours of the current page, with gaps', () => {
    expect(numbers(6, 12)).toEqual([1, '…', 5, 6, 7, '…', 12]);
    expect(numbers(1, 12)).toEqual([1, 2, '…', 12]);
    expect(numbers(12, 12)).toEqual([1, '…', 11, 12]);
  });

  it('fills a gap of one page with the page itself', () => {
    expect(numbers(4, 12)).toEqual([1, 2, 3, 4, 5, '…', 12]);
  });
});

describe('pageRange', () => {
  it('gives the first and last item numbers of a page', () => {
    expect(pageRange(1, 20, 45)).toEqual({ from: 1, to: 20 });
    expect(pageRange(3, 20, 45)).toEqual({ from: 41, to: 45 });
  });

  it('is empty past the end or with nothing to show', () => {
    expect(pageRange(4, 20, 45)).toEqual({ from: 0, to: 0 });
    expect(pageRange(1, 20, 0)).toEqual({ from: 0, to: 0 });
  });
});

describe('filterByName', () => {
  const brands = [{ name: 'Voltrex' }, { name: 'Dravik' }, { name: 'Corvane Air' }];

  it('matches a case-insensitive substring anywhere in the name', () => {
    expect(filterByName(brands, 'VOLT')).toEqual([{ name: 'Voltrex' }]);
    expect(filterByName(brands, 'ra')).toEqual([{ name: 'Dravik' }]);
    expect(filterByName(brands, ' air ')).toEqual([{ name: 'Corvane Air' }]);
  });

  it('returns everything for an empty term', () => {
    expect(filterByName(brands, '  ')).toHaveLength(3);
  });
});
