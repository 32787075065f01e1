import { Link, type MetaDescriptor } from 'react-router';
import type { ListingOptions, ListingSort } from '../../contracts/listing.ts';
import type { ListingData } from '../lib/listing.ts';
import { absoluteUrl, metaDescription, pageMeta } from '../lib/seo.ts';
import { Breadcrumb } from './breadcrumb.tsx';
import { PageHero } from './page-hero.tsx';
import { EmptyBox, ProductListing, primaryButton } from './product-listing.tsx';

/** The words of one whole-shop listing (/products, /clearance, /deals …). */
export interface ShopListingCopy {
  title: string;
  eyebrow?: string;
  description: string;
  /** Shown when the collection itself is empty (no filters set). */
  emptyTitle: string;
  emptyDetail: string;
}

export interface ShopListingData {
  listing: ListingData;
  categories: { id: number; name: string }[];
  origin: string;
  shopName: string;
  path: string;
}

/** Title, description and canonical URL of a whole-shop listing; pages after the first keep `?page=`. */
export function shopListingMeta(data: ShopListingData | undefined, copy: ShopListingCopy): MetaDescriptor[] {
  if (!data) return [{ title: `${copy.title} | Harbour Tools` }];
  const { listing, origin, shopName, path } = data;
  const page = listing.state.page;
  const category = data.categories.find((candidate) => candidate.id === listing.state.categoryId);
  return pageMeta({
    title: `${copy.title}${category ? `: ${category.name}` : ''}${page > 1 ? ` – page ${page}` : ''} | ${shopName}`,
    description: metaDescription(`${copy.description} ${listing.products.totalCount} products at ${shopName}.`),
    canonical: absoluteUrl(origin, page > 1 ? `${path}?page=${page}` : path),
    siteName: shopName,
  });
}

/** Breadcrumb, hero and the filterable listing with the category filter. */
export function ShopListingPage({
  data,
  copy,
  options,
}: {
  data: ShopListingData;
  copy: ShopListingCopy;
  options: ListingOptions & { sorts: readonly ListingSort[] };
}) {
  const { listing, categories, origin } = data;
  return (
    <div className="mx-auto max-w-7xl px-4 pt-4 pb-12">
      <Breadcrumb origin={origin} items={[{ label: copy.title }]} />
      <div className="mt-4">
        <PageHero eyebrow={copy.eyebrow} title={copy.title} description={copy.description} />
      </div>
      <div className="mt-6">
        <ProductListing
          listing={listing}
          options={{ ...options, withCategory: true }}
          categories={categories}
          emptyState={
            <EmptyBox title={copy.emptyTitle}>
              <p className="mt-2 text-gray-600">{copy.emptyDetail}</p>
              <Link to="/products" className={`${primaryButton} mt-5`}>
                View All Products
              </Link>
            </EmptyBox>
          }
        />
      </div>
    </div>
  );
}
