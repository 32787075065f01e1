import { LISTING_SORTS, type ListingOptions } from '../../contracts/listing.ts';
import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import { RouteError } from '../components/route-error.tsx';
import { type ShopListingCopy, ShopListingPage, shopListingMeta } from '../components/shop-listing-page.tsx';
import { loadShopListing } from '../lib/listing.server.ts';
import type { Route } from './+types/products';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

const LISTING = { sorts: LISTING_SORTS, defaultSort: 'featured' } satisfies ListingOptions;

function copyFor(path: string): ShopListingCopy {
  return {
    // /shop is the same listing under the name the old site's links use (spec-decisions).
    title: path === '/shop' ? 'Shop' : 'All Products',
    eyebrow: 'The full range',
    description:
      'Every tool and accessory we stock: filter by category, brand, price and rating, or sort to find the right gear fast.',
    emptyTitle: 'No products available',
    emptyDetail: 'Our catalogue is being updated. Please check back soon.',
  };
}

/**
 * Every active product, 20 a page, with the category, brand, price and rating filters
 * and the sort, all from the URL. Serves both /products and /shop.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  return loadShopListing(request, context, {}, LISTING);
}

export function meta({ loaderData, location }: Route.MetaArgs) {
  return shopListingMeta(loaderData, copyFor(location.pathname));
}

export default function ProductsPage({ loaderData }: Route.ComponentProps) {
  return <ShopListingPage data={loaderData} copy={copyFor(loaderData.path)} options={LISTING} />;
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Page not found"
      notFoundDetail="The page you were looking for has moved or no longer exists."
      failureTitle="Unable to load products"
      // Spec §8: 'Unable to load products / Please check your connection and try again' with Retry.
      retryLabel="Retry"
    />
  );
}
