import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { ProductPage } from '../../contracts/catalog.ts';
import type { ProductCardItem, ProductCardPage } from '../../contracts/product-card.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import { FIRST_SCREEN_CARDS, ProductGrid } from './product-grid.tsx';
import { EmptyBox, primaryButton } from './product-listing.tsx';

/** Spec §9: infinite lists load 8 at a time, within 300 px of the bottom, after 500 ms. */
export const INFINITE_BATCH_SIZE = 8;
export const INFINITE_THRESHOLD_PX = 300;
export const INFINITE_DELAY_MS = 500;
/** How far above the viewport a passed sentinel still counts as reached (further than any footer is tall). */
const PASSED_SENTINEL_PX = 100_000;

export interface InfiniteListTexts {
  /** e.g. "You've viewed all redemption products" */
  end: string;
  empty: string;
  emptyDetail: string;
  /** Shown when a batch fails to load, above Try Again. */
  error: string;
}

interface InfiniteProductListProps {
  /** What the server rendered: the first `batches` × 8 products. */
  initial: ProductCardPage;
  batches: number;
  /** The /api endpoint with the same order as the server's first page, asked for `?page=N&limit=8`. */
  endpoint: string;
  texts: InfiniteListTexts;
  /** The no-JavaScript "Show more" link for the given number of batches. */
  moreHref: (batches: number) => string;
  decorate?: (product: ProductCardItem) => ReactNode;
  label: string;
}

type Status = 'idle' | 'waiting' | 'loading' | 'error';

/**
 * A grid that grows by 8 as the shopper nears its end (spec §2 /redemption, featured products).
 * The server renders the first batch(es), so the page has content and links without JavaScript
 * (a "Show more" link asks the server for one more batch); in the browser an
 * IntersectionObserver does the rest, with skeleton cards holding the space while a batch loads.
 */
export function InfiniteProductList({
  initial,
  batches,
  endpoint,
  texts,
  moreHref,
  decorate,
  label,
}: InfiniteProductListProps) {
  const hydrated = useHydrated();
  const [items, setItems] = useState<ProductCardItem[]>(initial.items);
  const [totalCount, setTotalCount] = useState(initial.totalCount);
  const [nextPage, setNextPage] = useState(batches + 1);
  const [status, setStatus] = useState<Status>('idle');
  /** Set when a batch comes back empty: the end, whatever the earlier total said. */
  const [exhausted, setExhausted] = useState(false);
  const sentinelRef = useRef<HTMLDivElement>(null);
  const timerRef = useRef<number | undefined>(undefined);
  const hasMore = !exhausted && items.length < totalCount;

  const loadNext = useCallback(async () => {
    setStatus('loading');
    try {
      const response = await fetch(`${endpoint}?page=${nextPage}&limit=${INFINITE_BATCH_SIZE}`, {
        headers: { accept: 'application/json' },
      });
      if (!response.ok) throw new Error(`HTTP error! status: ${response.status}`);
      const page = (await response.json()) as ProductPage;
      setItems((current) => {
        // The catalogue can change between batches: never show one product twice.
        const seen = new Set(current.map((product) => product.id));
        return [...current, ...page.items.filter((product) => !seen.has(product.id))];
      });
      setTotalCount(page.totalCount);
      if (page.items.length === 0) setExhausted(true);
      setNextPage((current) => current + 1);
      setStatus('idle');
    } catch {
      setStatus('error');
    }
  }, [endpoint, nextPage]);
  const loadNextRef = useRef(loadNext);
  loadNextRef.current = loadNext;

  useEffect(() => () => window.clearTimeout(timerRef.current), []);

  // Re-created whenever the list settles, so its first callback re-checks a sentinel that is still in view.
  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || status !== 'idle' || !hasMore) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        setStatus('waiting');
        timerRef.current = window.setTimeout(() => void loadNextRef.current(), INFINITE_DELAY_MS);
      },
      // Below: within 300 px of the viewport's bottom (spec §9). Above: a shopper who jumped to the
      // page's end (End key, a tall footer below the list) has passed the sentinel, and counts too.
      { rootMargin: `${PASSED_SENTINEL_PX}px 0px ${INFINITE_THRESHOLD_PX}px 0px` },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [status, hasMore]);

  if (items.length === 0) {
    return (
      <EmptyBox title={texts.empty}>
        <p className="mt-2 text-gray-600">{texts.emptyDetail}</p>
        <Link to="/products" className={`${primaryButton} mt-5`}>
          View All Products
        </Link>
      </EmptyBox>
    );
  }

  const pending = status === 'waiting' || status === 'loading';
  const remaining = Math.max(0, totalCount - items.length);
  return (
    <div>
      <div aria-busy={pending}>
        <ProductGrid
          products={items}
          decorate={decorate}
          label={label}
          eagerImages={FIRST_SCREEN_CARDS}
          skeletons={pending ? Math.min(INFINITE_BATCH_SIZE, remaining || INFINITE_BATCH_SIZE) : 0}
        />
      </div>
      <div ref={sentinelRef} className="flex min-h-24 flex-col items-center justify-center py-6 text-center">
        {status === 'error' ? (
          <div role="alert" className="flex flex-col items-center gap-3">
            <p className="font-semibold text-sale">{texts.error}</p>
            <button type="button" onClick={() => void loadNext()} className={primaryButton}>
              Try Again
            </button>
          </div>
        ) : hasMore ? (
          hydrated ? (
            <p className="text-sm text-gray-600" aria-live="polite">
              {pending ? 'Loading more products…' : `Showing ${items.length} of ${totalCount}`}
            </p>
          ) : (
            <a href={moreHref(batches + 1)} className={primaryButton}>
              Show more
            </a>
          )
        ) : (
          <div className="flex flex-col items-center gap-3">
            <p className="font-semibold text-gray-700" aria-live="polite">
              {texts.end}
            </p>
            <Link to="/products" className={primaryButton}>
              View All Products
            </Link>
          </div>
        )}
      </div>
    </div>
  );
}
