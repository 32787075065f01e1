import { data, type RouterContextProvider, redirect } from 'react-router';
import type { ProductListQuery } from '../../contracts/catalog.ts';
import { canonicalListingSearch, type ListingOptions, listingProductQuery } from '../../contracts/listing.ts';
import { toProductCardPage } from '../../contracts/product-card.ts';
import type { ShopServices } from '../../server/services.ts';
import { brandFacets, type ListingData, loadListingParser } from './listing.ts';
import { pageUrl } from './page-url.ts';
import { requestContext } from './request-context.ts';
import { publicOrigin } from './seo.ts';
import { shopContext } from './shop-context.ts';

/**
 * Loads one page of a filtered product listing from the URL.
 *
 * - Bad filter values answer 400 with `{ message, errors }` (the route's error boundary shows them).
 * - A URL that is not in canonical form (what a plain GET form sends: empty fields, a repeated
 *   `rating`, an unknown brand) is redirected to its canonical form, so shared links stay tidy.
 * - `scope` is the page's fixed part (a subcategory, clearance only …); it always wins over the URL.
 * - The server is told the stock lines the page shows (`showsStock`), so a kept copy is checked
 *   rather than rendered again when it ages.
 */
export async function loadListing(
  request: Request,
  context: Readonly<RouterContextProvider>,
  scope: Partial<ProductListQuery>,
  options: ListingOptions & { brandFilter?: boolean } = {},
): Promise<ListingData> {
  const { catalog } = context.get(shopContext);
  const url = pageUrl(request);
  const parseListingSearch = await loadListingParser();
  const parsed = parseListingSearch(url.searchParams, options);
  if (!parsed.success) throw data({ message: parsed.message, errors: parsed.errors }, { status: 400 });
  let { state } = parsed;
  const query: ProductListQuery = { ...listingProductQuery(state), ...scope };
  const scopeQuery = { ...scope, categoryId: scope.categoryId ?? state.categoryId };
  const withBrands = options.brandFilter ?? true;

  const [products, scopeBrands, filteredBrands] = await Promise.all([
    catalog.listProducts(query),
    withBrands ? catalog.countProductsByBrand(scopeQuery) : Promise.resolve([]),
    withBrands ? catalog.countProductsByBrand(query) : Promise.resolve([]),
  ]);

  // A brand that has nothing in this scope could never be unticked: drop it from the URL.
  if (withBrands) {
    const known = new Set(scopeBrands.map((brand) => brand.brandId));
    const kept = state.brandIds.filter((id) => known.has(id));
    if (kept.length !== state.brandIds.length) state = { ...state, brandIds: kept, page: 1 };
  } else if (state.brandIds.length) {
    state = { ...state, brandIds: [] };
  }
  const canonical = canonicalListingSearch(url.searchParams, state, options);
  if (canonical !== url.search) throw redirect(`${url.pathname}${canonical}`);

  context.get(requestContext).showsStock(products.items);
  return {
    state,
    products: toProductCardPage(products),
    brands: brandFacets(scopeBrands, filteredBrands, state.brandIds),
  };
}

/**
 * A whole-shop listing page (/products, /shop, /clearance, /new-arrivals, /deals): the filtered
 * page plus the categories for the category filter and what meta() needs.
 */
export async function loadShopListing(
  request: Request,
  context: Readonly<RouterContextProvider>,
  scope: Partial<ProductListQuery>,
  options: ListingOptions,
) {
  const services = context.get(shopContext);
  const [listing, categories] = await Promise.all([
    loadListing(request, context, scope, { ...options, withCategory: true }),
    services.catalog.listCategories(),
  ]);
  return {
    listing,
    categories: categories.map(({ id, name }) => ({ id, name })),
    origin: publicOrigin(services.shop),
    shopName: services.shop.name,
    path: pageUrl(request).pathname,
  };
}

/** The no-JavaScript "Show more" link of an infinite list stops growing the page here (25 × 8 = 200 products). */
export const MAX_INFINITE_BATCHES = 25;
const INFINITE_BATCH = 8;

/**
 * The first batches of an infinite list (featured or redemption products), in the same order
 * as the /api endpoint the browser continues with. `?page=N` asks for N batches of 8.
 */
export async function loadInfiniteList(
  request: Request,
  catalog: ShopServices['catalog'],
  scope: Pick<ProductListQuery, 'featured' | 'isRedemption'>,
) {
  const raw = new URL(request.url).searchParams.get('page') || '1';
  const batches = /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(batches >= 1 && batches <= MAX_INFINITE_BATCHES)) {
    throw data(
      { message: 'Invalid query parameter: page', errors: { page: [`Must be between 1 and ${MAX_INFINITE_BATCHES}`] } },
      { status: 400 },
    );
  }
  const page = await catalog.listProducts({ ...scope, sort: 'featured', page: 1, limit: batches * INFINITE_BATCH });
  return { initial: toProductCardPage(page), batches };
}
