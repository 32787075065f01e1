import { LISTING_SORTS, type ListingOptions } from '../../contracts/listing.ts';
import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import { RouteError } from '../components/route-error.tsx';
import { type ShopListingCopy, ShopListingPage, shopListingMeta } from '../components/shop-listing-page.tsx';
import { loadShopListing } from '../lib/listing.server.ts';
import type { Route } from './+types/clearance';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

const LISTING = { sorts: LISTING_SORTS, defaultSort: 'price_asc' } satisfies ListingOptions;

const COPY: ShopListingCopy = {
  title: 'Clearance',
  eyebrow: 'Final stock · while it lasts',
  description:
    'End-of-line tools, discontinued models and last-of-range stock at clearance prices. When it is gone, it is gone.',
  emptyTitle: 'No clearance products right now',
  emptyDetail: 'Everything on clearance has found a new home. New end-of-line stock is added regularly.',
};

/** Clearance-flagged products (spec-decisions), cheapest first, with the usual filters; 20 a page. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return loadShopListing(request, context, { isClearance: true }, LISTING);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return shopListingMeta(loaderData, COPY);
}

export default function ClearancePage({ loaderData }: Route.ComponentProps) {
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
