import { LISTING_SORTS, type ListingOptions } from '../../contracts/listing.ts';
import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import { RouteError } from '../components/route-error.tsx';
import { type ShopListingCopy, ShopListingPage, shopListingMeta } from '../components/shop-listing-page.tsx';
import { loadShopListing } from '../lib/listing.server.ts';
import type { Route } from './+types/new-arrivals';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

const LISTING = { sorts: LISTING_SORTS, defaultSort: 'newest' } satisfies ListingOptions;

const COPY: ShopListingCopy = {
  title: 'New Arrivals',
  eyebrow: 'Just landed',
  description: 'The latest tools and gear to arrive at our Sydney store, newest first.',
  emptyTitle: 'No new arrivals right now',
  emptyDetail: 'Check back later for new arrivals.',
};

/** Products newest first (spec-decisions), with the usual filters; 20 a page. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return loadShopListing(request, context, {}, LISTING);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return shopListingMeta(loaderData, COPY);
}

export default function NewArrivalsPage({ loaderData }: Route.ComponentProps) {
  return <ShopListingPage data={loaderData} copy={COPY} options={LISTING} />;
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Page not found"
      notFoundDetail="The page you were looking for has moved or no longer exists."
      failureTitle="Failed to fetch products"
    />
  );
}
