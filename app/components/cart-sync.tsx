import { useEffect } from 'react';
import { subscribeToCart } from '../lib/cart.ts';
import { cartBelongsTo, pushCart, syncCartWithAccount } from '../lib/cart-sync.ts';

/**
 * Keeps this browser's cart and the signed-in account's saved cart in step (see
 * app/lib/cart-sync.ts). Renders nothing; the root layout mounts it on every page.
 */
export function CartSync({ userKey }: { userKey: string | null }) {
  useEffect(() => {
    void syncCartWithAccount(userKey).catch((error: unknown) => {
      console.warn('The cart could not be synced with your account', error);
    });
    if (userKey === null) return;
    return subscribeToCart(() => {
      if (cartBelongsTo(userKey)) pushCart();
    });
  }, [userKey]);
  return null;
}
