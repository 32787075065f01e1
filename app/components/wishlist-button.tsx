import { createLocalStore } from '../lib/local-store.ts';

/*
 * The wishlist lives in this browser only (spec §4: "the wishlist heart toggles
 * locally only"). Saving it to a signed-in shopper's account comes with the
 * accounts work; until then localStorage keeps hearts across pages and tabs.
 */

const wishlistStore = createLocalStore<ReadonlySet<number>>({
  key: 'harbour-tools.wishlist.v1',
  empty: new Set(),
  parse: (stored) => new Set(Array.isArray(stored) ? stored.filter((id): id is number => Number.isInteger(id)) : []),
  serialize: (ids) => [...ids],
});

/** Adds or removes one product from the browser's wishlist. */
export function toggleWishlist(id: number): void {
  wishlistStore.update((ids) => {
    const next = new Set(ids);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  });
}

/** Whether a product is on the wishlist; the server renders every heart empty. */
export function useWishlisted(id: number): boolean {
  return wishlistStore.useSelected((ids) => ids.has(id));
}

/** The heart on a product card: a toggle button whose pressed state is the wishlist membership. */
export function WishlistButton({ productId, productName }: { productId: number; productName: string }) {
  const saved = useWishlisted(productId);
  return (
    <button
      type="button"
      aria-pressed={saved}
      aria-label={`Save ${productName} to wishlist`}
      title={saved ? 'Saved to wishlist' : 'Save to wishlist'}
      onClick={() => toggleWishlist(productId)}
      className="flex h-9 w-9 items-center justify-center rounded-full border border-gray-200 bg-white/95 text-gray-600 shadow-sm transition-colors hover:border-sale hover:text-sale aria-pressed:border-sale aria-pressed:text-sale"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-5 w-5"
        fill={saved ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth={2}
        strokeLinejoin="round"
      >
        <path d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8.1 3.6 4.5 7.2 4.5c2 0 3.5 1.1 4.8 2.9 1.3-1.8 2.8-2.9 4.8-2.9 3.6 0 5.7 3.6 4.5 6.8-1.8 4.6-9.3 9.2-9.3 9.2z" />
      </svg>
    </button>
  );
}
