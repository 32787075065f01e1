import { z } from 'zod';
import { MAX_PRODUCT_PAGE, type ProductListQuery, type ProductSort } from './catalog.ts';
import { dollarAmountSchema, idSchema } from './params.ts';

/**
 * The state of a product listing page (subcategory, /products, /brand, /clearance …)
 * as it lives in the URL, so filters and page survive a reload and can be shared.
 *
 * URL names: `category`, `brand` (repeated, one per ticked box — what a GET form sends),
 * `minPrice`, `maxPrice`, `rating`, `sort`, `page`.
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

const pageSchema = z
  .string()
  .regex(/^\d{1,9}$/, 'Must be a whole number')
  .transform(Number)
  .pipe(z.number().min(1, 'Must be 1 or more').max(MAX_PRODUCT_PAGE, `Must be at most ${MAX_PRODUCT_PAGE}`));

function listingSchema(options: { sorts: readonly ListingSort[] }) {
  return z
    .object({
      category: idSchema.optional(),
      brand: z.array(z.string().pipe(idSchema)).max(50, 'At most 50 brands'),
      minPrice: dollarAmountSchema.optional(),
      maxPrice: dollarAmountSchema.optional(),
      rating: z.enum(['1', '2', '3', '4'], { error: 'Must be 1, 2, 3 or 4' }).transform(Number).optional(),
      sort: z.enum(options.sorts as [ListingSort, ...ListingSort[]], {
        error: `Must be one of: ${options.sorts.join(', ')}`,
      }),
      page: pageSchema,
    })
    .refine((q) => q.minPrice === undefined || q.maxPrice === undefined || q.minPrice <= q.maxPrice, {
      path: ['maxPrice'],
      message: 'Max price must not be below min price',
    });
}

/**
 * Reads the raw URL values. The last value of a key wins, and an empty value means
 * "not set": the filter form sends the current rating in a hidden field before the
 * rating buttons, so the pressed button's value (or its empty "clear" value) comes last.
 */
function rawValues(params: URLSearchParams, defaultSort: ListingSort, withCategory: boolean) {
  const last = (key: string) => {
    const value = params.getAll(key).at(-1)?.trim();
    return value === '' ? undefined : value;
  };
  return {
    category: withCategory ? last('category') : undefined,
    brand: params
      .getAll('brand')
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter((value) => value !== ''),
    minPrice: last('minPrice'),
    maxPrice: last('maxPrice'),
    rating: last('rating'),
    sort: last('sort') ?? defaultSort,
    page: last('page') ?? '1',
  };
}

export type ListingParseResult =
  | { success: true; state: ListingState }
  | { success: false; message: string; errors: Record<string, string[]> };

/** URL search params → listing state, or the field errors a 400 answer names. */
export function parseListingSearch(params: URLSearchParams, options: ListingOptions = {}): ListingParseResult {
  const resolved = { sorts: options.sorts ?? LISTING_SORTS, defaultSort: options.defaultSort ?? 'featured' };
  const result = listingSchema(resolved).safeParse(
    rawValues(params, resolved.defaultSort, options.withCategory ?? false),
  );
  if (!result.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? 'query');
      errors[key] = [...(errors[key] ?? []), issue.message];
    }
    const fields = Object.keys(errors).join(', ');
    return { success: false, message: `Invalid filter: ${fields}`, errors };
  }
  const q = result.data;
  return {
    success: true,
    state: {
      categoryId: q.category,
      brandIds: [...new Set(q.brand)].sort((a, b) => a - b),
      minPrice: q.minPrice,
      maxPrice: q.maxPrice,
      rating: q.rating,
      sort: q.sort,
      page: q.page,
    },
  };
}

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
