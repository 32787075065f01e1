import { data, Link, useLocation, useRevalidator } from 'react-router';
import { BRAND_SORTS, type ListingOptions } from '../../contracts/listing.ts';
import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import { idSchema } from '../../contracts/params.ts';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { PageHero } from '../components/page-hero.tsx';
import { EmptyBox, ProductListing, primaryButton } from '../components/product-listing.tsx';
import { RouteError } from '../components/route-error.tsx';
import { loadListing } from '../lib/listing.server.ts';
import { nullIfNotFound } from '../lib/not-found.ts';
import { absoluteUrl, metaDescription, pageMeta, publicOrigin } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import type { Route } from './+types/brand';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

const LISTING: ListingOptions & { sorts: typeof BRAND_SORTS } = { sorts: BRAND_SORTS, defaultSort: 'featured' };

/**
 * One brand: hero, and its products sorted as the URL says (featured, name A-Z,
 * price low to high, price high to low), 20 a page. 404 for a malformed or unknown id;
 * 400 for a sort the page does not offer.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = idSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const { catalog, shop } = context.get(shopContext);
  const brand = await catalog.getBrand(id.data).catch(nullIfNotFound);
  if (!brand) throw data(null, { status: 404 });
  const listing = await loadListing(request, context, { brandId: brand.id }, { ...LISTING, brandFilter: false });
  return { brand, listing, origin: publicOrigin(shop), shopName: shop.name };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Brand not found | Harbour Tools' }];
  const { brand, listing, origin, shopName } = loaderData;
  const page = listing.state.page;
  const path = `/brand/${brand.id}`;
  return pageMeta({
    title: `${brand.name} tools${page > 1 ? ` – page ${page}` : ''} | ${shopName}`,
    description: metaDescription(
      `${brand.description} ${listing.products.totalCount} ${brand.name} products in stock at ${shopName}.`,
    ),
    canonical: absoluteUrl(origin, page > 1 ? `${path}?page=${page}` : path),
    image: brand.imageUrl ? absoluteUrl(origin, brand.imageUrl) : null,
    siteName: shopName,
  });
}

export default function BrandPage({ loaderData }: Route.ComponentProps) {
  const { brand, listing, origin } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 pt-4 pb-12">
      <Breadcrumb origin={origin} items={[{ label: 'Brands', href: '/shop-by-brand' }, { label: brand.name }]} />
      <div className="mt-4">
        <PageHero
          eyebrow="Brand"
          title={brand.name}
          description={brand.description}
          imageUrl={brand.imageUrl}
          imageWidth={1200}
          imageHeight={600}
        />
      </div>
      <div className="mt-6">
        <ProductListing
          listing={listing}
          options={LISTING}
          filters={false}
          emptyState={<BrandEmpty name={brand.name} />}
        />
      </div>
    </div>
  );
}

/** 'No products found for {brand}' with a button that asks the server again (spec §2). */
function BrandEmpty({ name }: { name: string }) {
  const revalidator = useRevalidator();
  const hydrated = useHydrated();
  const location = useLocation();
  return (
    <EmptyBox title={`No products found for ${name}`}>
      <p className="mt-2 text-gray-600">New stock may have just arrived: check again, or browse the other brands.</p>
      <div className="mt-5 flex flex-wrap justify-center gap-3">
        {hydrated ? (
          <button
            type="button"
            className={primaryButton}
            onClick={() => revalidator.revalidate()}
            disabled={revalidator.state === 'loading'}
          >
            {revalidator.state === 'loading' ? 'Checking…' : 'Check again'}
          </button>
        ) : (
          <a href={`${location.pathname}${location.search}`} className={primaryButton}>
            Check again
          </a>
        )}
        <Link
          to="/shop-by-brand"
          className="inline-block rounded border border-navy-700 px-5 py-3 font-semibold text-navy-700 hover:bg-navy-100"
        >
          All brands
        </Link>
      </div>
    </EmptyBox>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Brand not found"
      notFoundDetail="We don't stock this brand, or its page has moved. Try a search, or start from one of these."
      failureTitle="Failed to fetch products"
    />
  );
}
