import type { ListingState } from '../../contracts/listing.ts';
import type { ProductCardPage } from '../../contracts/product-card.ts';

/** Pure helpers of the listing pages, shared by loaders (server) and components (browser). */

type ListingParser = typeof import('../../contracts/listing-query.ts')['parseListingSearch'];
let listingParser: Promise<ListingParser> | undefined;
let loadedParser: ListingParser | undefined;

/**
 * The listing URL schema, loaded once on first use: it brings zod, which a listing page
 * does not need to show itself, only once a shopper starts changing its filters.
 */
export function loadListingParser(): Promise<ListingParser> {
  listingParser ??= import('../../contracts/listing-query.ts').then(
    (module) => {
      loadedParser = module.parseListingSearch;
      return loadedParser;
    },
    (error: unknown) => {
      // A failed download (a flaky connection) is tried again on the next use.
      listingParser = undefined;
      throw error;
    },
  );
  return listingParser;
}

/** The schema if it has loaded already, for a render that cannot wait for it. */
export function loadedListingParser(): ListingParser | undefined {
  return loadedParser;
}

/** What a listing loader hands its page. */
export interface ListingData {
  state: ListingState;
  products: ProductCardPage;
  /** Brand checkboxes; empty when the page has no brand filter. */
  brands: BrandFacet[];
}

export interface BrandFacet {
  id: number;
  name: string;
  /** Products of this brand under the other filters (price, rating, category). */
  count: number;
  selected: boolean;
  /** A brand with nothing to show cannot be ticked, but a ticked one can always be unticked. */
  disabled: boolean;
}

/**
 * Brand checkboxes: every brand of the page's scope (so a brand filtered down to 0 stays
 * visible, disabled), with its count under the current filters.
 */
export function brandFacets(
  scope: readonly { brandId: number; name: string }[],
  filtered: readonly { brandId: number; productCount: number }[],
  selectedIds: readonly number[],
): BrandFacet[] {
  const counts = new Map(filtered.map((row) => [row.brandId, row.productCount]));
  const selected = new Set(selectedIds);
  return scope.map((brand) => {
    const count = counts.get(brand.brandId) ?? 0;
    const isSelected = selected.has(brand.brandId);
    return { id: brand.brandId, name: brand.name, count, selected: isSelected, disabled: count === 0 && !isSelected };
  });
}

export type PageLink = { type: 'page'; page: number } | { type: 'gap'; key: string };

/**
 * Which page numbers a pager shows: always the first and last, the current one with
 * `radius` neighbours, and a gap where numbers are left out (a gap of one page is shown
 * as the page itself, since "…" would be no shorter).
 */
export function pageWindow(current: number, totalPages: number, radius = 1): PageLink[] {
  if (totalPages <= 1) return [];
  const pages = new Set<number>([1, totalPages]);
  for (let page = current - radius; page <= current + radius; page++) {
    if (page >= 1 && page <= totalPages) pages.add(page);
  }
  const sorted = [...pages].sort((a, b) => a - b);
  const links: PageLink[] = [];
  let previous = 0;
  for (const page of sorted) {
    if (page - previous === 2) links.push({ type: 'page', page: previous + 1 });
    else if (page - previous > 2) links.push({ type: 'gap', key: `gap-${previous}` });
    links.push({ type: 'page', page });
    previous = page;
  }
  return links;
}

/** "Showing 21–40 of 132 products" numbers for a page. */
export function pageRange(page: number, limit: number, totalCount: number): { from: number; to: number } {
  const from = (page - 1) * limit + 1;
  if (from > totalCount) return { from: 0, to: 0 };
  const to = Math.min(page * limit, totalCount);
  return { from, to };
}

/** Case-insensitive "contains" match for the brand search box (spec §2 /shop-by-brand). */
export function filterByName<T extends { name: string }>(items: readonly T[], term: string): T[] {
  const needle = term.trim().toLocaleLowerCase('en-AU');
  if (!needle) return [...items];
  return items.filter((item) => item.name.toLocaleLowerCase('en-AU').includes(needle));
}

/**
 * Brands with their product counts taken from `countProductsByBrand` (a grouped count of the
 * products themselves), biggest range first: what makes a brand "top". Brands without products
 * in the counts get 0.
 */
export function brandsByProductCount<T extends { id: number; name: string }>(
  brands: readonly T[],
  counts: readonly { brandId: number; productCount: number }[],
): (T & { productCount: number })[] {
  const byBrand = new Map(counts.map((row) => [row.brandId, row.productCount]));
  return brands
    .map((brand) => ({ ...brand, productCount: byBrand.get(brand.id) ?? 0 }))
    .sort((a, b) => b.productCount - a.productCount || a.name.localeCompare(b.name, 'en-AU'));
}
