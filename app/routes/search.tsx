import { useId, useState } from 'react';
import { data, isRouteErrorResponse, Link, useLocation, useNavigate, useNavigation, useRouteError } from 'react-router';
import { groupMessagesByField } from '../../contracts/field-errors.ts';
import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import { toProductCardItem } from '../../contracts/product-card.ts';
import { MAX_SEARCH_TERM_LENGTH, SEARCH_SORTS, type SearchSort, searchQuerySchema } from '../../contracts/search.ts';
import { searchHref } from '../../contracts/search-links.ts';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { Pagination } from '../components/pagination.tsx';
import { ProductGrid } from '../components/product-grid.tsx';
import { clearedFilters, hasFilters, type SearchFilterState, SearchFilters } from '../components/search-filters.tsx';
import { pageRange } from '../lib/listing.ts';
import { pageMeta } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/search';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

const SORT_LABELS: Record<SearchSort, string> = {
  relevance: 'Relevance',
  price_asc: 'Price: Low to High',
  price_desc: 'Price: High to Low',
  name_asc: 'Name: A to Z',
  name_desc: 'Name: Z to A',
  featured: 'Featured',
};

/** "Invalid query parameter: page", as the API words it, so the page and /api/search agree. */
function invalidMessage(fields: string[]): string {
  return fields.length === 1
    ? `Invalid query parameter: ${fields[0]}`
    : `Invalid query parameters: ${fields.join(', ')}`;
}

/**
 * /search?term=&page=&pageSize=&sortBy=&categoryId=&brandId=&minPrice=&maxPrice= (spec §2).
 * Reads every parameter with the same schema as GET /api/search and returns the search
 * response plus the page's products as full cards. A bad parameter is a 400 carrying
 * `{ message, errors }`, shown by the error boundary as 'Error: {message}'.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const parsed = searchQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    const errors = groupMessagesByField(
      parsed.error.issues,
      (issue) => issue.path.join('.') || 'request',
      (issue) => issue.message,
    );
    throw data({ message: invalidMessage(Object.keys(errors)), errors }, { status: 400 });
  }
  const { search, shop } = context.get(shopContext);
  const { products, closestProducts, ...outcome } = await search.search(parsed.data);
  return {
    query: parsed.data,
    ...outcome,
    products: products.map(toProductCardItem),
    closestProducts: closestProducts.map(toProductCardItem),
    shopName: shop.name,
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  const term = loaderData?.query.term;
  const shopName = loaderData?.shopName ?? 'Harbour Tools';
  const title = term ? `Search results for "${term}" | ${shopName}` : `Search Results | ${shopName}`;
  return pageMeta({
    title,
    description: loaderData
      ? `${loaderData.response.totalCount} products found at ${shopName}.`
      : `Search the ${shopName} catalogue.`,
    siteName: shopName,
    // Result pages are endless permutations of the catalogue; search engines should index the catalogue itself.
    noIndex: true,
  });
}

function SortSelect({ formId, state }: { formId: string; state: SearchFilterState }) {
  const navigate = useNavigate();
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-semibold whitespace-nowrap">
        Sort By
      </label>
      <select
        id={id}
        name="sortBy"
        form={formId}
        value={state.sortBy}
        onChange={(event) =>
          navigate(searchHref({ ...state, sortBy: event.target.value as SearchSort }), { preventScrollReset: true })
        }
        className="rounded border border-gray-300 bg-white py-2 pr-8 pl-3 text-sm"
      >
        {SEARCH_SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {SORT_LABELS[sort]}
          </option>
        ))}
      </select>
    </div>
  );
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { query, response, products, closestProducts } = loaderData;
  const navigation = useNavigation();
  const formId = useId();
  const filtersId = useId();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const state: SearchFilterState = {
    term: query.term,
    sortBy: query.sortBy,
    categoryId: query.categoryId,
    brandId: query.brandId,
    minPrice: query.minPrice,
    maxPrice: query.maxPrice,
  };
  const busy = navigation.state === 'loading' && navigation.location?.pathname === '/search';
  const { from, to } = pageRange(response.page, response.pageSize, response.totalCount);
  const filtered = hasFilters(state);
  const activeCount =
    (state.categoryId !== undefined ? 1 : 0) +
    (state.brandId !== undefined ? 1 : 0) +
    (state.minPrice !== undefined || state.maxPrice !== undefined ? 1 : 0);
  const pageHref = (page: number) => searchHref({ ...query, page });

  return (
    <div className="mx-auto max-w-7xl px-4 pt-4 pb-12">
      <Breadcrumb items={[{ label: 'Search' }]} />
      <header className="mt-4 border-b border-gray-200 pb-4">
        <h1 className="font-display text-4xl font-bold uppercase">Search Results</h1>
        {query.term ? (
          <p className="mt-1 text-lg text-gray-700">
            for <span className="font-semibold text-ink">"{query.term}"</span>
          </p>
        ) : (
          <p className="mt-1 text-lg text-gray-700">All products</p>
        )}
        {response.correctedQuery ? (
          <p className="mt-3 rounded border-l-4 border-accent bg-navy-100 px-3 py-2 text-sm">
            No exact matches for "{query.term}". Showing results for{' '}
            <strong className="font-semibold">"{response.correctedQuery}"</strong>.
          </p>
        ) : null}
      </header>

      <div className="mt-6 lg:grid lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-8">
        <aside aria-label="Search filters" className="mb-6 lg:mb-0">
          <button
            type="button"
            aria-expanded={filtersOpen}
            aria-controls={filtersId}
            onClick={() => setFiltersOpen((open) => !open)}
            className="flex w-full items-center justify-center gap-2 rounded border border-gray-300 bg-white px-3 py-2.5 text-sm font-semibold hover:border-navy-700 lg:hidden"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-4 w-4"
              fill="none"
              stroke="currentColor"
              strokeWidth={2}
            >
              <path d="M3 5h18M6 12h12M10 19h4" strokeLinecap="round" />
            </svg>
            Filters
            {activeCount ? <span className="tabular">({activeCount})</span> : null}
            <svg
              aria-hidden="true"
              viewBox="0 0 20 20"
              className={`h-4 w-4 transition-transform ${filtersOpen ? 'rotate-180' : ''}`}
              fill="currentColor"
            >
              <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
            </svg>
          </button>
          <div
            id={filtersId}
            className={`${filtersOpen ? 'mt-3 block rounded-lg border border-gray-200 p-4' : 'hidden'} lg:mt-0 lg:block lg:rounded-none lg:border-0 lg:p-0`}
          >
            <SearchFilters
              formId={formId}
              state={state}
              categories={response.filters.categories}
              brands={response.filters.brands}
              onApplied={() => setFiltersOpen(false)}
            />
          </div>
        </aside>

        <section aria-labelledby="results-heading" className="min-w-0">
          <h2 id="results-heading" className="sr-only">
            Results
          </h2>
          <div className="flex flex-wrap items-center justify-between gap-3 border-b border-gray-200 pb-3">
            <p className="tabular text-sm text-gray-700" aria-live="polite">
              {response.totalCount > 0
                ? `Showing ${from} - ${to} of ${response.totalCount.toLocaleString('en-AU')} results`
                : 'Showing 0 results'}
            </p>
            <SortSelect formId={formId} state={state} />
          </div>

          <div aria-busy={busy} className={`mt-5 transition-opacity ${busy ? 'opacity-60' : ''}`}>
            {products.length > 0 ? (
              <>
                <ProductGrid products={products} layout="with-sidebar" label="Search results" />
                <Pagination page={response.page} totalPages={response.totalPages} hrefFor={pageHref} />
              </>
            ) : (
              <NoResults
                filtered={filtered}
                clearHref={clearedFilters(state)}
                pastEnd={response.totalCount > 0}
                firstPageHref={pageHref(1)}
              />
            )}
            {closestProducts.length > 0 ? (
              <section aria-labelledby="closest-heading" className="mt-10">
                <h2 id="closest-heading" className="font-display text-2xl font-bold uppercase">
                  Closest matches
                </h2>
                <p className="mt-1 text-sm text-gray-700">
                  {filtered ? 'Matching your search in the whole shop:' : 'Products matching some of your words:'}
                </p>
                <div className="mt-4">
                  <ProductGrid products={closestProducts} layout="with-sidebar" label="Closest matches" />
                </div>
              </section>
            ) : null}
          </div>
        </section>
      </div>
    </div>
  );
}

function NoResults({
  filtered,
  clearHref,
  pastEnd,
  firstPageHref,
}: {
  filtered: boolean;
  clearHref: string;
  pastEnd: boolean;
  firstPageHref: string;
}) {
  return (
    <div className="rounded-lg border border-dashed border-gray-300 bg-gray-50 px-6 py-14 text-center">
      <h2 className="font-display text-2xl font-bold uppercase">No products found</h2>
      <p className="mt-2 text-gray-700">Try adjusting your search or filters</p>
      <div className="mt-5 flex flex-wrap justify-center gap-3">
        {pastEnd ? (
          <Link to={firstPageHref} className="rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark">
            Back to the first page
          </Link>
        ) : null}
        {filtered ? (
          <Link
            to={clearHref}
            preventScrollReset
            className="rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark"
          >
            Clear All Filters
          </Link>
        ) : null}
        <Link
          to="/products"
          className="rounded border border-navy-900 px-5 py-3 font-semibold text-navy-900 hover:bg-navy-100"
        >
          Browse all products
        </Link>
      </div>
    </div>
  );
}

/** The message of what went wrong: a bad parameter names itself; anything else is the spec's search failure text. */
function errorMessage(error: unknown): string {
  if (isRouteErrorResponse(error) && error.status === 400) {
    const body = error.data as { message?: unknown } | null;
    if (body && typeof body.message === 'string') return body.message;
  }
  return 'Network response was not ok';
}

export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  const badRequest = isRouteErrorResponse(error) && error.status === 400;
  const term = (new URLSearchParams(location.search).get('term') ?? '').trim();
  // A bad parameter: the same words without the settings. A failure: the same URL again.
  const retryHref = badRequest
    ? searchHref({ term: term.length <= MAX_SEARCH_TERM_LENGTH ? term : '' })
    : `${location.pathname}${location.search}`;
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 text-center">
      <title>Search Results | Harbour Tools</title>
      <meta name="robots" content="noindex" />
      <h1 className="font-display text-4xl font-bold uppercase">Search Results</h1>
      <p role="alert" className="mt-4 text-lg font-semibold text-sale">
        Error: {errorMessage(error)}
      </p>
      <p className="mt-2 text-gray-700">
        {badRequest ? 'The link has a search setting we do not understand.' : 'Please try again in a moment.'}
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {/* A full page load, so a retry also recovers when the app itself failed. */}
        <a href={retryHref} className="rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark">
          {badRequest ? 'Search without those settings' : 'Try Again'}
        </a>
        <Link
          to="/products"
          className="rounded border border-navy-900 px-5 py-3 font-semibold text-navy-900 hover:bg-navy-100"
        >
          Browse all products
        </Link>
      </div>
    </section>
  );
}
