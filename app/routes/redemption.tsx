import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { SpriteSvg } from '../components/icon-sprite.tsx';
import { InfiniteProductList } from '../components/infinite-product-list.tsx';
import { PageHero } from '../components/page-hero.tsx';
import { RouteError } from '../components/route-error.tsx';
import { loadInfiniteList } from '../lib/listing.server.ts';
import { absoluteUrl, pageMeta, publicOrigin } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/redemption';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

/**
 * Products that can be redeemed with member points: the first 8 (or `?page=N` × 8) from the
 * server, the rest 8 at a time from /api/products/redemption as the shopper scrolls (spec §2).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { catalog, shop } = context.get(shopContext);
  const list = await loadInfiniteList(request, catalog, { isRedemption: true });
  return { ...list, origin: publicOrigin(shop), shopName: shop.name };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Redemption | Harbour Tools' }];
  const { origin, shopName, initial } = loaderData;
  return pageMeta({
    title: `Redeem Your Points | ${shopName}`,
    description: `${initial.totalCount} tools and accessories you can redeem with your ${shopName} member points. New rewards added regularly.`,
    canonical: absoluteUrl(origin, '/redemption'),
    siteName: shopName,
  });
}

export default function RedemptionPage({ loaderData }: Route.ComponentProps) {
  const { initial, batches, origin } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 pt-4 pb-12">
      <Breadcrumb origin={origin} items={[{ label: 'Redemption' }]} />
      <div className="mt-4">
        <PageHero
          eyebrow="Member rewards"
          title="Redeem Your Points"
          description="Turn your member points into tools and gear. Members earn points on every fulfilled order; open a product to redeem it."
        >
          <p className="mt-4 text-sm text-gray-200">
            <strong className="tabular text-white">{initial.totalCount}</strong> products available to redeem
          </p>
        </PageHero>
      </div>
      <div className="mt-6">
        <InfiniteProductList
          key="redemption"
          initial={initial}
          batches={batches}
          endpoint="/api/products/redemption"
          label="Redemption products"
          moreHref={(next) => `/redemption?page=${next}`}
          texts={{
            end: "You've viewed all redemption products",
            empty: 'No redemption products available at the moment',
            emptyDetail: 'Check back later for new arrivals',
            error: 'Failed to fetch redemption products',
          }}
          decorate={(product) => (
            // One line at any card width: on a narrow card (a phone's two columns) 'Redeem for' is
            // left to screen readers, so the badge neither wraps nor spills past the card.
            <span
              data-testid="redeem-badge"
              className="pointer-events-none absolute top-[calc(100cqw-2.5rem)] left-2 inline-flex max-w-[calc(100%-1rem)] items-center gap-1 whitespace-nowrap rounded bg-navy-900 px-2 py-1 text-[0.7rem] font-bold uppercase tracking-wide text-accent shadow"
            >
              <SpriteSvg icon="star" className="h-3.5 w-3.5 shrink-0 fill-current" />
              {product.pointsCost ? (
                <span>
                  <span className="sr-only @min-[15rem]:not-sr-only">Redeem for </span>
                  {`${product.pointsCost.toLocaleString('en-AU')} points`}
                </span>
              ) : (
                'Redeem with points'
              )}
            </span>
          )}
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
      failureTitle="Failed to fetch redemption products"
    />
  );
}
