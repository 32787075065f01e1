import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { InfiniteProductList } from '../components/infinite-product-list.tsx';
import { PageHero } from '../components/page-hero.tsx';
import { RouteError } from '../components/route-error.tsx';
import { loadInfiniteList } from '../lib/listing.server.ts';
import { absoluteUrl, pageMeta, publicOrigin } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/featured';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

/**
 * Products flagged as featured (spec §2 "Featured products"): the first 8 (or `?page=N` × 8)
 * from the server, then 8 more at a time from /api/products/featured as the shopper scrolls.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { catalog, shop } = context.get(shopContext);
  const list = await loadInfiniteList(request, catalog, { featured: true });
  return { ...list, origin: publicOrigin(shop), shopName: shop.name };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Featured Products | Harbour Tools' }];
  const { origin, shopName } = loaderData;
  return pageMeta({
    title: `Featured Products | ${shopName}`,
    description: `Our pick of the tools and gear tradies are buying now at ${shopName}: proven performers across every category.`,
    canonical: absoluteUrl(origin, '/featured'),
    siteName: shopName,
  });
}

export default function FeaturedPage({ loaderData }: Route.ComponentProps) {
  const { initial, batches, origin } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 pt-4 pb-12">
      <Breadcrumb origin={origin} items={[{ label: 'Featured Products' }]} />
      <div className="mt-4">
        <PageHero
          eyebrow="Staff picks"
          title="Featured Products"
          description="Proven performers our team recommends, across power tools, hand tools, safety gear and more."
        />
      </div>
      <div className="mt-6">
        <InfiniteProductList
          key="featured"
          initial={initial}
          batches={batches}
          endpoint="/api/products/featured"
          label="Featured products"
          moreHref={(next) => `/featured?page=${next}`}
          texts={{
            end: "You've viewed all featured products",
            empty: 'No featured products available at the moment',
            emptyDetail: 'Check back later for new arrivals',
            error: 'Failed to load products. Please try again later.',
          }}
        />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Page not found"
      notFoundDetail="The page you were looking for has moved or no longer exists."
      failureTitle="Failed to fetch featured products"
    />
  );
}
