import { useId, useState } from 'react';
import { Link } from 'react-router';
import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import { toProductCardItem } from '../../contracts/product-card.ts';
import { BrandCard } from '../components/brand-card.tsx';
import { BRANDS_FAILED } from '../components/brand-slider.tsx';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { ProductGrid } from '../components/product-grid.tsx';
import { EmptyBox } from '../components/product-listing.tsx';
import { RouteError } from '../components/route-error.tsx';
import { SectionError } from '../components/section-error.tsx';
import { brandsByProductCount, filterByName } from '../lib/listing.ts';
import { loadSection } from '../lib/section-load.ts';
import { absoluteUrl, pageMeta, publicOrigin } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/shop-by-brand';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

/** Spec §9: top brands 8. */
export const TOP_BRANDS_COUNT = 8;
export const SHOP_BY_BRAND_FEATURED_COUNT = 8;

/**
 * Every brand (alphabetical, with product counts), the 8 with the biggest range as Top Brands,
 * and featured products. `?q=` pre-filters the brand list for browsers without JavaScript;
 * with it, the box filters as the shopper types. The brands and the featured products load
 * on their own: whichever fails is null and shows its spec text with Retry, the other still shows.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { catalog, shop } = context.get(shopContext);
  const [ranked, featured] = await Promise.all([
    loadSection(context, async () => {
      const [allBrands, counts] = await Promise.all([catalog.listBrands(), catalog.countProductsByBrand({})]);
      // Counted from the products themselves (grouped); the biggest ranges are the Top Brands.
      return brandsByProductCount(
        allBrands.map(({ id, name, logoUrl }) => ({ id, name, logoUrl })),
        counts,
      );
    }),
    loadSection(context, () =>
      catalog.listProducts({ featured: true, sort: 'featured', page: 1, limit: SHOP_BY_BRAND_FEATURED_COUNT }),
    ),
  ]);
  return {
    brands: ranked ? [...ranked].sort((a, b) => a.name.localeCompare(b.name, 'en-AU')) : null,
    topBrands: ranked?.slice(0, TOP_BRANDS_COUNT) ?? null,
    featured: featured?.items.map(toProductCardItem) ?? null,
    query: new URL(request.url).searchParams.get('q')?.slice(0, 100) ?? '',
    origin: publicOrigin(shop),
    shopName: shop.name,
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Shop by Brand | Harbour Tools' }];
  const { origin, shopName, brands } = loaderData;
  return pageMeta({
    title: `Shop by Brand | ${shopName}`,
    description: `All ${brands ? `${brands.length} ` : ''}tool brands we stock at ${shopName}, from cordless power tools to hand tools and safety gear. Find your brand and see its full range.`,
    canonical: absoluteUrl(origin, '/shop-by-brand'),
    siteName: shopName,
  });
}

type BrandEntry = NonNullable<Route.ComponentProps['loaderData']['brands']>[number];

/** Top Brands, then every brand with a box that filters them by name as the shopper types. */
function BrandLists({ brands, topBrands, query }: { brands: BrandEntry[]; topBrands: BrandEntry[]; query: string }) {
  const [term, setTerm] = useState(query);
  const searchId = useId();
  const shown = filterByName(brands, term);

  return (
    <>
      <section aria-labelledby="top-brands" className="mt-10">
        <h2 id="top-brands" className="font-display text-2xl font-bold uppercase sm:text-3xl">
          Top Brands
        </h2>
        <ul className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4 sm:gap-4">
          {topBrands.map((brand) => (
            <li key={brand.id}>
              <BrandCard brand={brand} />
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="all-brands" className="mt-12">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <h2 id="all-brands" className="font-display text-2xl font-bold uppercase sm:text-3xl">
            All Brands
          </h2>
          {/* A GET form so the box also works before JavaScript; once it runs, the list filters as you type. */}
          <form method="get" className="w-full sm:w-80" onSubmit={(event) => event.preventDefault()}>
            <label htmlFor={searchId} className="sr-only">
              Search brands
            </label>
            <input
              id={searchId}
              type="search"
              name="q"
              value={term}
              onChange={(event) => setTerm(event.target.value)}
              placeholder="Search brands..."
              autoComplete="off"
              className="block w-full rounded border border-gray-400 bg-white px-3 py-2.5 text-sm"
            />
          </form>
        </div>
        <p className="sr-only" aria-live="polite">
          {term.trim() ? `${shown.length} ${shown.length === 1 ? 'brand' : 'brands'} found` : ''}
        </p>
        {shown.length === 0 ? (
          <p className="mt-4 rounded-lg border border-dashed border-gray-300 bg-gray-50 px-6 py-10 text-center text-gray-700">
            {brands.length === 0 ? 'No brands available' : `No brands match “${term.trim()}”.`}
          </p>
        ) : (
          <ul className="mt-4 grid grid-cols-2 gap-x-6 gap-y-1 sm:grid-cols-3 lg:grid-cols-4">
            {shown.map((brand) => (
              <li key={brand.id}>
                <Link
                  to={`/brand/${brand.id}`}
                  className="flex items-baseline justify-between gap-2 rounded border-b border-gray-100 px-2 py-2.5 hover:bg-navy-50"
                >
                  <span className="font-semibold">{brand.name}</span>
                  <span className="tabular text-xs text-gray-600">
                    {brand.productCount} <span className="sr-only">products</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

export default function ShopByBrandPage({ loaderData }: Route.ComponentProps) {
  const { brands, topBrands, featured, query, origin } = loaderData;

  return (
    <div className="mx-auto max-w-7xl px-4 pt-4 pb-12">
      <Breadcrumb origin={origin} items={[{ label: 'Shop by Brand' }]} />
      <header className="mt-4 rounded-xl bg-gradient-to-br from-navy-950 via-navy-900 to-navy-700 p-5 text-white sm:p-8">
        {brands ? (
          <p className="font-display text-sm font-semibold uppercase tracking-[0.2em] text-accent">
            {brands.length} brands in stock
          </p>
        ) : null}
        <h1 className="mt-1 font-display text-3xl font-bold uppercase leading-none sm:text-5xl">Shop by Brand</h1>
        <p className="mt-3 max-w-2xl text-sm text-gray-200 sm:text-base">
          The names the trade trusts, all under one roof. Pick a brand to see its full range.
        </p>
      </header>

      {brands && topBrands ? (
        <BrandLists brands={brands} topBrands={topBrands} query={query} />
      ) : (
        <section aria-labelledby="all-brands" className="mt-10">
          <h2 id="all-brands" className="font-display text-2xl font-bold uppercase sm:text-3xl">
            All Brands
          </h2>
          <SectionError message={BRANDS_FAILED} retryLabel="Retry" className="mt-4" />
        </section>
      )}

      <section aria-labelledby="featured-products" className="mt-12">
        <div className="flex items-baseline justify-between gap-4">
          <h2 id="featured-products" className="font-display text-2xl font-bold uppercase sm:text-3xl">
            Featured Products
          </h2>
          {featured && featured.length > 0 ? (
            <Link to="/featured" className="shrink-0 text-sm font-semibold text-navy-700 hover:underline">
              View all <span className="sr-only">featured products</span>
            </Link>
          ) : null}
        </div>
        <div className="mt-4">
          {featured === null ? (
            <SectionError message="Failed to load products. Please try again later." retryLabel="Retry" />
          ) : featured.length > 0 ? (
            <ProductGrid products={featured} />
          ) : (
            <EmptyBox title="No products available">
              <p className="mt-2 text-gray-600">Please check back soon.</p>
            </EmptyBox>
          )}
        </div>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Page not found"
      notFoundDetail="The page you were looking for has moved or no longer exists."
      failureTitle={BRANDS_FAILED}
      retryLabel="Retry"
    />
  );
}
