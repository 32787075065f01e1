import { LISTING_SORTS, type ListingOptions } from '../../contracts/listing.ts';
import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import { RouteError } from '../components/route-error.tsx';
import { type ShopListingCopy, ShopListingPage, shopListingMeta } from '../components/shop-listing-page.tsx';
import { loadShopListing } from '../lib/listing.server.ts';
import type { Route } from './+types/deals';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

const LISTING = { sorts: LISTING_SORTS, defaultSort: 'featured' } satisfies ListingOptions;

const COPY: ShopListingCopy = {
  title: 'Deals',
  eyebrow: 'Save on trade gear',
  description: 'Every product with a reduced price right now, from cordless kits to hand tools and safety gear.',
  emptyTitle: 'No deals on right now',
  emptyDetail: 'New deals go up every week. Check back soon.',
};

/** Products with a discount price (spec-decisions), with the usual filters; 20 a page. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return loadShopListing(request, context, { onSale: true }, LISTING);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return shopListingMeta(loaderData, COPY);
}

export default function DealsPage({ loaderData }: Route.ComponentProps) {
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
