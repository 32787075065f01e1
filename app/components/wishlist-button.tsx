import { useEffect } from 'react';
import { useFetcher, useRouteLoaderData } from 'react-router';
import type { AccountSummary } from '../../contracts/account-fields.ts';
import { createLocalStore } from '../lib/local-store.ts';
import { SpriteSvg } from './icon-sprite.tsx';

/*
 * Hearts of a signed-out shopper live in this browser (localStorage) and are merged into
 * the account at sign-in (WishlistMerge); a signed-in shopper's hearts are saved to the
 * account through the /wishlist page's action, so they follow them to other devices.
 */

const wishlistStore = createLocalStore<ReadonlySet<number>>({
  key: 'harbour-tools.wishlist.v1',
  empty: new Set(),
  parse: (stored) => new Set(Array.isArray(stored) ? stored.filter((id): id is number => Number.isInteger(id)) : []),
  serialize: (ids) => [...ids],
});

/** Adds or removes one product from the browser's (signed-out) wishlist. */
export function toggleWishlist(id: number): void {
  wishlistStore.update((ids) => {
    const next = new Set(ids);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  });
}

/** Whether a product is on the browser's wishlist; the server renders every heart empty. */
export function useWishlisted(id: number): boolean {
  return wishlistStore.useSelected((ids) => ids.has(id));
}

function useAccount(): AccountSummary | null {
  const root = useRouteLoaderData('root') as { account?: AccountSummary | null } | undefined;
  return root?.account ?? null;
}

/**
 * Once signed in, hearts made while signed out are added to the account and the browser's
 * copy is emptied. Rendered by the root layout for signed-in shoppers only.
 */
export function WishlistMerge() {
  const fetcher = useFetcher();
  useEffect(() => {
    const ids = [...wishlistStore.get()];
    if (ids.length === 0 || fetcher.state !== 'idle') return;
    fetcher.submit({ intent: 'merge', productIds: ids.join(',') }, { method: 'post', action: '/wishlist' });
    wishlistStore.update(() => new Set());
  }, [fetcher]);
  return null;
}

const BUTTON_CLASS =
  'flex h-9 w-9 items-center justify-center rounded-full border border-gray-200 bg-white/95 text-gray-600 shadow-sm transition-colors hover:border-sale hover:text-sale aria-pressed:border-sale aria-pressed:text-sale';

function Heart({ filled }: { filled: boolean }) {
  return (
    <SpriteSvg
      icon="heart"
      className="h-5 w-5"
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth={2}
      strokeLinejoin="round"
    />
  );
}

/** The heart on a product card: a toggle button whose pressed state is the wishlist membership. */
export function WishlistButton({ productId, productName }: { productId: number; productName: string }) {
  const account = useAccount();
  return account ? (
    <AccountWishlistButton productId={productId} productName={productName} wishlist={account.wishlist} />
  ) : (
    <LocalWishlistButton productId={productId} productName={productName} />
  );
}

function LocalWishlistButton({ productId, productName }: { productId: number; productName: string }) {
  const saved = useWishlisted(productId);
  return (
    <button
      type="button"
      aria-pressed={saved}
      aria-label={`Save ${productName} to wishlist`}
      title={saved ? 'Saved to wishlist' : 'Save to wishlist'}
      onClick={() => toggleWishlist(productId)}
      className={BUTTON_CLASS}
    >
      <Heart filled={saved} />
    </button>
  );
}

/** Saved to the account; shows the new state at once while the save is on its way. */
function AccountWishlistButton({
  productId,
  productName,
  wishlist,
}: {
  productId: number;
  productName: string;
  wishlist: number[];
}) {
  const fetcher = useFetcher();
  const pending = fetcher.formData?.get('intent');
  const saved = pending ? pending === 'add' : wishlist.includes(productId);
  return (
    <fetcher.Form method="post" action="/wishlist">
      <input type="hidden" name="productId" value={productId} />
      <button
        type="submit"
        name="intent"
        value={saved ? 'remove' : 'add'}
        aria-pressed={saved}
        aria-label={`Save ${productName} to wishlist`}
        title={saved ? 'Saved to wishlist' : 'Save to wishlist'}
        className={BUTTON_CLASS}
      >
        <Heart filled={saved} />
      </button>
    </fetcher.Form>
  );
}
