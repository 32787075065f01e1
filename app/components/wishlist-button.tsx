import { useSyncExternalStore } from 'react';

/*
 * The wishlist lives in this browser only (spec §4: "the wishlist heart toggles
 * locally only"). Saving it to a signed-in shopper's account comes with the
 * accounts work; until then localStorage keeps hearts across pages and tabs.
 */

const STORAGE_KEY = 'harbour-tools.wishlist.v1';
const EMPTY: ReadonlySet<number> = new Set();
const listeners = new Set<() => void>();
let current: ReadonlySet<number> = EMPTY;
let loaded = false;

function readStorage(): ReadonlySet<number> {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? new Set(parsed.filter((id): id is number => Number.isInteger(id))) : EMPTY;
  } catch {
    return EMPTY;
  }
}

function ensureLoaded(): void {
  if (loaded || typeof window === 'undefined') return;
  loaded = true;
  current = readStorage();
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEY) return;
    current = readStorage();
    for (const listener of listeners) listener();
  });
}

/** Adds or removes one product from the browser's wishlist. */
export function toggleWishlist(id: number): void {
  ensureLoaded();
  const next = new Set(current);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  current = next;
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify([...next]));
  } catch {
    // Storage blocked: the heart still toggles for this page view.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  ensureLoaded();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSnapshot(): ReadonlySet<number> {
  ensureLoaded();
  return current;
}

/** Whether a product is on the wishlist; the server renders every heart empty. */
export function useWishlisted(id: number): boolean {
  return useSyncExternalStore(
    subscribe,
    () => getSnapshot().has(id),
    () => false,
  );
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
