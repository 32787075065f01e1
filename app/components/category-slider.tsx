import { Suspense } from 'react';
import { Await, Link } from 'react-router';
import { ScrollRow } from './scroll-row.tsx';
import { CATEGORIES_FAILED } from './shop-links.ts';

/** The slider shows this many placeholder tiles while the categories load (spec §9). */
export const CATEGORY_SKELETON_COUNT = 8;

export interface CategoryTile {
  id: number;
  name: string;
  imageUrl: string | null;
  productCount?: number;
}

const tileClass = 'w-40 shrink-0 snap-start sm:w-48';

/** One category: its picture, name and how many products it holds, linking to the category page. */
function Tile({ category }: { category: CategoryTile }) {
  return (
    <li className={tileClass}>
      <Link
        to={`/category/${category.id}`}
        prefetch="intent"
        className="group block h-full overflow-hidden rounded-lg border border-gray-200 bg-white transition-shadow hover:border-navy-700 hover:shadow-md"
      >
        <span className="block aspect-[3/2] overflow-hidden bg-navy-900">
          {category.imageUrl ? (
            <img
              src={category.imageUrl}
              alt=""
              width={240}
              height={160}
              loading="lazy"
              decoding="async"
              className="h-full w-full object-cover transition-transform duration-300 group-hover:scale-105"
            />
          ) : null}
        </span>
        {/* A fixed-height caption, as tall as the skeleton's, so nothing moves when the tiles stream in. */}
        <span className="flex h-[4.5rem] flex-col px-3 pt-2">
          <span className="line-clamp-2 text-sm leading-tight font-semibold text-ink group-hover:underline">
            {category.name}
          </span>
          {category.productCount !== undefined ? (
            <span className="tabular mt-auto pb-2 text-xs text-gray-600">{category.productCount} products</span>
          ) : null}
        </span>
      </Link>
    </li>
  );
}

/** Eight grey tiles the size of real ones, so nothing moves when the categories arrive. */
export function CategorySkeletons() {
  return (
    <ul aria-hidden="true" className="flex gap-4 overflow-hidden px-1 pt-1 pb-3" data-testid="category-skeletons">
      {Array.from({ length: CATEGORY_SKELETON_COUNT }, (_, index) => (
        <li key={index} className={`${tileClass} overflow-hidden rounded-lg border border-gray-200 bg-white`}>
          <span className="block aspect-[3/2] animate-pulse bg-gray-200" />
          <span className="flex h-[4.5rem] flex-col px-3 pt-2.5">
            <span className="block h-3.5 w-3/4 animate-pulse rounded bg-gray-200" />
            <span className="mt-auto mb-2.5 block h-3 w-1/3 animate-pulse rounded bg-gray-200" />
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * Shown in place of the slider when the categories failed to load: spec §2's 'Error loading
 * categories: {error}' with spec §8's 'Failed to fetch categories' as the error. In production the
 * browser only gets React Router's sanitised 'Unexpected Server Error'; the reason is in the log.
 */
export function CategorySliderError() {
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-stock-out">
      {`Error loading categories: ${CATEGORIES_FAILED}`}
    </p>
  );
}

/** The categories as a sideways row of tiles. */
export function CategoryRow({ categories }: { categories: CategoryTile[] }) {
  if (categories.length === 0) return <p className="text-sm text-gray-600">No categories available</p>;
  return (
    <ScrollRow label="categories">
      {categories.map((category) => (
        <Tile key={category.id} category={category} />
      ))}
    </ScrollRow>
  );
}

/**
 * The home page's category slider. Takes the categories as a promise so the page
 * can stream: eight skeleton tiles first, then the tiles, or the error text.
 */
export function CategorySlider({ categories }: { categories: Promise<CategoryTile[]> | CategoryTile[] }) {
  return (
    <Suspense fallback={<CategorySkeletons />}>
      <Await resolve={categories} errorElement={<CategorySliderError />}>
        {(list) => <CategoryRow categories={list} />}
      </Await>
    </Suspense>
  );
}
