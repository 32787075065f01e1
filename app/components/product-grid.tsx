import type { ReactNode } from 'react';
import type { ProductCardItem } from '../../contracts/product-card.ts';
import { ProductCard } from './product-card.tsx';

/** with-sidebar: next to the filter column; full: page width, 4 across (rows of 8 fill evenly); wide: 5 across. */
type GridLayout = 'with-sidebar' | 'full' | 'wide';

const GRID_COLUMNS: Record<GridLayout, string> = {
  'with-sidebar': 'grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-4',
  full: 'grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4',
  wide: 'grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5',
};

/** A listing's first row on a desktop, its first two on a phone: the cards a shopper sees on arrival. */
export const FIRST_SCREEN_CARDS = 4;

interface ProductGridProps {
  products: readonly ProductCardItem[];
  /** Where each card links; the product page by default. */
  hrefFor?: (product: ProductCardItem) => string;
  layout?: GridLayout;
  /** Something drawn over each card, e.g. the redemption badge. */
  decorate?: (product: ProductCardItem) => ReactNode;
  /** Placeholder cards appended while the next batch loads. */
  skeletons?: number;
  label?: string;
  /**
   * How many leading cards load their pictures at once: those in view on arrival, whose
   * first is the page's largest paint, which lazy loading would hold back until after layout.
   */
  eagerImages?: number;
}

/** The product grid of every listing: equal-height cards, 2 columns on a phone up to 4 on a desktop. */
export function ProductGrid({
  products,
  hrefFor,
  layout = 'full',
  decorate,
  skeletons = 0,
  label,
  eagerImages = 0,
}: ProductGridProps) {
  return (
    <ul className={GRID_COLUMNS[layout]} aria-label={label}>
      {products.map((product, index) => (
        <li key={product.id} className="relative @container">
          <ProductCard
            product={product}
            href={hrefFor?.(product)}
            imageLoading={index >= eagerImages ? 'lazy' : index === 0 ? 'first' : 'eager'}
          />
          {decorate?.(product)}
        </li>
      ))}
      {Array.from({ length: skeletons }, (_, index) => (
        <li key={`skeleton-${index}`} aria-hidden="true">
          <ProductCardSkeleton />
        </li>
      ))}
    </ul>
  );
}

/** A grey card the shape of a product card, so a loading batch does not push content around when it fills in. */
export function ProductCardSkeleton() {
  return (
    <div
      data-testid="product-skeleton"
      className="flex h-full animate-pulse flex-col overflow-hidden rounded-lg border border-gray-200 bg-white"
    >
      <div className="aspect-square bg-gray-100" />
      <div className="flex flex-1 flex-col gap-2 p-3">
        <div className="h-3 w-1/3 rounded bg-gray-200" />
        <div className="h-4 w-full rounded bg-gray-200" />
        <div className="h-4 w-2/3 rounded bg-gray-200" />
        <div className="h-4 w-24 rounded bg-gray-100" />
        <div className="mt-auto h-6 w-20 rounded bg-gray-200" />
        <div className="h-3 w-16 rounded bg-gray-100" />
      </div>
    </div>
  );
}
