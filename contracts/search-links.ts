import type { SearchQuery } from './search.ts';

/*
 * The search constants and links the header box needs on every page. They live
 * apart from the zod schemas in search.ts so that zod stays out of the bundle
 * every page loads.
 */

/** Autocomplete starts at two characters after trimming (spec §5, §9). */
export const MIN_SUGGESTION_TERM_LENGTH = 2;
/** Debounce of the header box (spec §9). */
export const SUGGESTION_DEBOUNCE_MS = 300;
export const SEARCH_PAGE_SIZE = 20;

/** The /search page URL for a query: default values are left out so links stay short and shareable. */
export function searchHref(query: Partial<SearchQuery>): string {
  const params = new URLSearchParams();
  if (query.term) params.set('term', query.term);
  if (query.categoryId !== undefined) params.set('categoryId', String(query.categoryId));
  if (query.brandId !== undefined) params.set('brandId', String(query.brandId));
  if (query.minPrice !== undefined) params.set('minPrice', String(query.minPrice));
  if (query.maxPrice !== undefined) params.set('maxPrice', String(query.maxPrice));
  if (query.sortBy && query.sortBy !== 'relevance') params.set('sortBy', query.sortBy);
  if (query.pageSize && query.pageSize !== SEARCH_PAGE_SIZE) params.set('pageSize', String(query.pageSize));
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const search = params.toString();
  return search ? `/search?${search}` : '/search';
}
