import { useEffect, useRef } from 'react';
import { data, Link } from 'react-router';
import { LISTING_SORTS, type ListingOptions } from '../../contracts/listing.ts';
import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import { idSchema } from '../../contracts/params.ts';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { PageHero } from '../components/page-hero.tsx';
import { ProductListing } from '../components/product-listing.tsx';
import { RouteError } from '../components/route-error.tsx';
import { loadListing } from '../lib/listing.server.ts';
import { nullIfNotFound } from '../lib/not-found.ts';
import { absoluteUrl, metaDescription, pageMeta, publicOrigin } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/subcategory';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

const LISTING: ListingOptions & { sorts: typeof LISTING_SORTS } = { sorts: LISTING_SORTS, defaultSort: 'featured' };

/**
 * One subcategory's products, filtered and paged from the URL (spec §2, §4).
 * 404 when either id is malformed or unknown, or the subcategory is not in that category;
 * 400 for filter values that make no sense; non-canonical filter URLs redirect.
 * Returns the subcategory, its siblings (for the "More in …" row) and the listing.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const categoryId = idSchema.safeParse(params.categoryId);
  const subcategoryId = idSchema.safeParse(params.subcategoryId);
  if (!categoryId.success || !subcategoryId.success) throw data(null, { status: 404 });
  const { catalog, shop } = context.get(shopContext);
  const subcategory = await catalog.getSubcategory(subcategoryId.data).catch(nullIfNotFound);
  if (!subcategory || subcategory.categoryId !== categoryId.data) throw data(null, { status: 404 });
  const [listing, siblings] = await Promise.all([
    loadListing(request, context, { subcategoryId: subcategory.id }, LISTING),
    catalog.listSubcategories({ categoryId: subcategory.categoryId }),
  ]);
  return {
    subcategory,
    siblings: siblings.map(({ id, name }) => ({ id, name })),
    listing,
    origin: publicOrigin(shop),
    shopName: shop.name,
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Subcategory not found | Harbour Tools' }];
  const { subcategory, listing, origin, shopName } = loaderData;
  const path = `/category/${subcategory.categoryId}/subcategory/${subcategory.id}`;
  const page = listing.state.page;
  return pageMeta({
    title: `${subcategory.name}${page > 1 ? ` – page ${page}` : ''} | ${subcategory.categoryName} | ${shopName}`,
    description: metaDescription(
      `${subcategory.description} Shop ${listing.products.totalCount} ${subcategory.name.toLowerCase()} at ${shopName}.`,
    ),
    canonical: absoluteUrl(origin, page > 1 ? `${path}?page=${page}` : path),
    image: subcategory.imageUrl ? absoluteUrl(origin, subcategory.imageUrl) : null,
    siteName: shopName,
  });
}

export default function SubcategoryPage({ loaderData }: Route.ComponentProps) {
  const { subcategory, siblings, listing, origin } = loaderData;
  const categoryPath = `/category/${subcategory.categoryId}`;
  const basePath = `${categoryPath}/subcategory/${subcategory.id}`;
  return (
    <div className="mx-auto max-w-7xl px-4 pt-4 pb-12">
      <Breadcrumb
        origin={origin}
        items={[{ label: subcategory.categoryName, href: categoryPath }, { label: subcategory.name }]}
      />
      <div className="mt-4">
        <PageHero
          eyebrow={subcategory.categoryName}
          title={subcategory.name}
          description={subcategory.description}
          imageUrl={subcategory.imageUrl}
        />
      </div>

      {siblings.length > 1 ? (
        <SiblingNav
          label={`More in ${subcategory.categoryName}`}
          siblings={siblings}
          currentId={subcategory.id}
          categoryPath={categoryPath}
        />
      ) : null}

      <div className="mt-6">
        {/* Keeps the outline h1 → h2 → h3 (cards) for screen-reader users navigating by heading. */}
        <h2 className="sr-only">{subcategory.name} products</h2>
        <ProductListing
          listing={listing}
          options={LISTING}
          hrefFor={(product) => `${basePath}/product/${product.id}`}
          emptyState={
            <div className="rounded-lg border border-dashed border-gray-300 bg-gray-50 px-6 py-14 text-center">
              <h2 className="font-display text-2xl font-bold uppercase">No products found with current filters</h2>
              <p className="mt-2 text-gray-600">Nothing is listed in {subcategory.name} right now.</p>
              <Link
                to={categoryPath}
                className="mt-5 inline-block rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark"
              >
                Back to {subcategory.categoryName}
              </Link>
            </div>
          }
        />
      </div>
    </div>
  );
}

/** The other subcategories of the category as chips; on a phone a sideways row scrolled to the current one. */
function SiblingNav({
  label,
  siblings,
  currentId,
  categoryPath,
}: {
  label: string;
  siblings: { id: number; name: string }[];
  currentId: number;
  categoryPath: string;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const list = listRef.current;
    const current = list?.querySelector<HTMLElement>(`[data-subcategory="${currentId}"]`);
    if (!list || !current || list.scrollWidth <= list.clientWidth) return;
    // scrollLeft, not scrollIntoView: the latter would also scroll the page vertically.
    list.scrollLeft = current.offsetLeft - list.offsetLeft - (list.clientWidth - current.offsetWidth) / 2;
  }, [currentId]);
  return (
    <nav aria-label={label} className="mt-4">
      <ul
        ref={listRef}
        className="scrollbar-none -mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:px-0"
      >
        {siblings.map((sibling) => (
          <li key={sibling.id} className="shrink-0" data-subcategory={sibling.id}>
            {sibling.id === currentId ? (
              <span
                aria-current="page"
                className="inline-block rounded-full bg-navy-900 px-3.5 py-1.5 text-sm font-semibold text-white"
              >
                {sibling.name}
              </span>
            ) : (
              <Link
                to={`${categoryPath}/subcategory/${sibling.id}`}
                className="inline-block rounded-full border border-gray-300 bg-white px-3.5 py-1.5 text-sm font-medium hover:border-navy-700"
              >
                {sibling.name}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Subcategory not found"
      notFoundDetail="This subcategory does not exist or has moved. Try a search, or start from one of these."
      failureTitle="Failed to fetch subcategory products"
    />
  );
}
