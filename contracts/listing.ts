import type { ProductListQuery, ProductSort } from './catalog.ts';

/**
 * The state of a product listing page (subcategory, /products, /brand, /clearance …)
 * as it lives in the URL, so filters and page survive a reload and can be shared.
 *
 * URL names: `category`, `brand` (repeated, one per ticked box — what a GET form sends),
 * `minPrice`, `maxPrice`, `rating`, `sort`, `page`.
 *
 * Reading a URL into this state (with the zod schema) is `listing-query.ts`: the
 * constants and URL builders here go to every listing page, zod only where a URL is checked.
 */

/** Products per page on every paged listing (spec §9: subcategory page size 20). */
export const LISTING_PAGE_SIZE = 20;

/** Minimum-rating choices of the filter (spec §4). */
export const RATING_OPTIONS = [4, 3, 2, 1] as const;

/** Sorts a shopper can pick on listing pages. */
export const LISTING_SORTS = [
  'featured',
  'newest',
  'name_asc',
  'price_asc',
  'price_desc',
  'rating_desc',
] as const satisfies readonly ProductSort[];
export type ListingSort = (typeof LISTING_SORTS)[number];

/** The brand page offers exactly the spec's four (spec §2 /brand/{id}). */
export const BRAND_SORTS = [
  'featured',
  'name_asc',
  'price_asc',
  'price_desc',
] as const satisfies readonly ListingSort[];

export const SORT_LABELS: Record<ListingSort, string> = {
  featured: 'Featured',
  newest: 'Newest',
  name_asc: 'Name A-Z',
  price_asc: 'Price low to high',
  price_desc: 'Price high to low',
  rating_desc: 'Top rated',
};

export interface ListingState {
  categoryId?: number;
  brandIds: number[];
  minPrice?: number;
  maxPrice?: number;
  rating?: number;
  sort: ListingSort;
  page: number;
}

export interface ListingOptions {
  /** Sorts this page offers; anything else in the URL is a 400. */
  sorts?: readonly ListingSort[];
  /** The sort used when the URL names none; it is left out of canonical URLs. */
  defaultSort?: ListingSort;
  /** Whether the page offers the category filter (/products does, a subcategory page does not). */
  withCategory?: boolean;
}

const KNOWN_KEYS = ['category', 'brand', 'minPrice', 'maxPrice', 'rating', 'sort', 'page'] as const;

/** Listing state → canonical search params: fixed order, defaults left out. */
export function listingSearchParams(state: ListingState, options: ListingOptions = {}): URLSearchParams {
  const params = new URLSearchParams();
  if (state.categoryId !== undefined) params.set('category', String(state.categoryId));
  for (const id of [...new Set(state.brandIds)].sort((a, b) => a - b)) params.append('brand', String(id));
  if (state.minPrice !== undefined) params.set('minPrice', String(state.minPrice));
  if (state.maxPrice !== undefined) params.set('maxPrice', String(state.maxPrice));
  if (state.rating !== undefined) params.set('rating', String(state.rating));
  if (state.sort !== (options.defaultSort ?? 'featured')) params.set('sort', state.sort);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

/** "?…" for a link, or "" when the state is all defaults. */
export function listingSearch(state: ListingState, options: ListingOptions = {}): string {
  const search = listingSearchParams(state, options).toString();
  return search ? `?${search}` : '';
}

/**
 * The canonical form of a URL's search: listing keys normalised, other keys (utm_…) kept
 * after them in their original order. A loader redirects when this differs from the URL.
 */
export function canonicalListingSearch(params: URLSearchParams, state: ListingState, options: ListingOptions = {}) {
  const canonical = listingSearchParams(state, options);
  for (const [key, value] of params) {
    const known = (KNOWN_KEYS as readonly string[]).includes(key) && (key !== 'category' || options.withCategory);
    if (!known) canonical.append(key, value);
  }
  const search = canonical.toString();
  return search ? `?${search}` : '';
}

/** A new state after a filter change: any change other than the page itself goes back to page 1. */
export function changeListing(state: ListingState, change: Partial<ListingState>): ListingState {
  return { ...state, ...change, page: change.page ?? 1 };
}

/** Pressing the rating already chosen clears it (spec §4). */
export function toggleRating(state: ListingState, rating: number): ListingState {
  return changeListing(state, { rating: state.rating === rating ? undefined : rating });
}

/** Whether any filter (not sort or page) is set, for "Clear all" and the empty-state text. */
export function hasActiveFilters(state: ListingState): boolean {
  return (
    state.categoryId !== undefined ||
    state.brandIds.length > 0 ||
    state.minPrice !== undefined ||
    state.maxPrice !== undefined ||
    state.rating !== undefined
  );
}

/** Listing state → the catalogue query (minus the page's fixed scope, e.g. its subcategory). */
export function listingProductQuery(state: ListingState): ProductListQuery {
  return {
    categoryId: state.categoryId,
    brandIds: state.brandIds.length ? state.brandIds : undefined,
    minPrice: state.minPrice,
    maxPrice: state.maxPrice,
    minRating: state.rating,
    sort: state.sort,
    page: state.page,
    limit: LISTING_PAGE_SIZE,
  };
}
