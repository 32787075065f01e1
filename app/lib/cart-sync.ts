import { useSyncExternalStore } from 'react';
import type { CartQuote } from '../../contracts/orders.ts';
import { type CartItem, cartLines, currentCart, replaceCart, updateCart } from './cart.ts';

/*
 * The signed-in shopper's cart follows them across devices: the browser keeps working on
 * its localStorage copy (instant), every change is saved to the account (PUT /api/cart),
 * and on the first page after signing in the signed-out cart is merged into the saved one
 * (quantities added, bounded by stock). Signing out empties this browser's copy.
 */

const OWNER_KEY = 'harbour-tools.cart.owner';

/* Whether this page's cart has been brought in step with the account yet (signed-out: at once). */
let settled = false;
const settledListeners = new Set<() => void>();
function markSettled(): void {
  settled = true;
  for (const listener of settledListeners) listener();
}

/** False until the cart of this page load is in step with the account: pages show the server's copy meanwhile. */
export function useCartSettled(): boolean {
  return useSyncExternalStore(
    (listener) => {
      settledListeners.add(listener);
      return () => settledListeners.delete(listener);
    },
    () => settled,
    () => false,
  );
}

function readOwner(): string | null {
  try {
    return window.localStorage.getItem(OWNER_KEY);
  } catch {
    return null;
  }
}

function writeOwner(owner: string | null): void {
  try {
    if (owner === null) window.localStorage.removeItem(OWNER_KEY);
    else window.localStorage.setItem(OWNER_KEY, owner);
  } catch {
    // Storage blocked: the cart still works for this page view.
  }
}

async function postJson<T>(url: string, method: 'POST' | 'PUT' | 'GET', body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as T;
}

/** Cart items as the browser keeps them, from a quote of the saved lines (today's names, pictures and stock). */
export function itemsFromQuote(quote: CartQuote, addedPrices: Map<string, number>): CartItem[] {
  return quote.lines.map((line) => ({
    id: line.productId,
    variantId: line.variantId,
    variantName: line.variantName,
    name: line.name,
    price: addedPrices.get(lineKey(line)) ?? line.unitPrice,
    originalPrice: line.originalPrice,
    image: line.imageUrl,
    sku: line.sku,
    // The saved quantity, even above today's stock: the cart page says 'Only N left' rather than hiding it.
    quantity: line.quantity,
    maxQuantity: line.stockQuantity,
    totalPrice: 0,
  }));
}

type SavedLine = { productId: number; variantId?: number | null; quantity: number; addedPrice?: number };

function lineKey(line: { productId: number; variantId?: number | null }): string {
  return `${line.productId}:${line.variantId ?? 0}`;
}

/** The lines the account holds as far as this page knows, so taking them in is not saved back. */
let savedLines: string | null = null;

async function adopt(lines: SavedLine[]): Promise<void> {
  const quote = await postJson<CartQuote>('/api/cart/quote', 'POST', { items: lines });
  const added = new Map(
    lines.flatMap((line) => (line.addedPrice === undefined ? [] : [[lineKey(line), line.addedPrice] as const])),
  );
  const cart = replaceCart(itemsFromQuote(quote, added));
  savedLines = JSON.stringify(cartLines(cart));
  updateCart(() => cart);
}

/** Fetches the account's saved cart into this browser (after a reorder, or on another device). */
export async function pullSavedCart(): Promise<void> {
  const { items } = await postJson<{ items: SavedLine[] }>('/api/cart', 'GET');
  await adopt(items);
}

let pushing: Promise<unknown> = Promise.resolve();

/** Saves this browser's cart to the account; saves run one after another, so the last one wins. */
export function pushCart(): void {
  const lines = cartLines(currentCart());
  const serialized = JSON.stringify(lines);
  // Taking the saved cart in changes this browser's copy, not the account's: nothing to save.
  if (serialized === savedLines) return;
  savedLines = serialized;
  pushing = pushing.then(() => postJson('/api/cart', 'PUT', { items: lines }).catch(() => {}));
}

/**
 * Called once per page load with the signed-in user's id (or null): merges or pulls the
 * saved cart, and clears the browser's copy after a sign-out.
 */
export async function syncCartWithAccount(userKey: string | null): Promise<void> {
  try {
    await bringInStep(userKey);
  } finally {
    markSettled();
  }
}

async function bringInStep(userKey: string | null): Promise<void> {
  const owner = readOwner();
  if (userKey === null) {
    if (owner !== null) {
      writeOwner(null);
      updateCart(() => replaceCart([]));
    }
    return;
  }
  if (owner === userKey) {
    await pullSavedCart();
    return;
  }
  const local = cartLines(currentCart());
  const { items } = await postJson<{ items: SavedLine[] }>('/api/cart/merge', 'POST', { items: local });
  writeOwner(userKey);
  await adopt(items);
}

/** Whether this browser's cart belongs to the signed-in account (changes are then saved to it). */
export function cartBelongsTo(userKey: string): boolean {
  return readOwner() === userKey;
}
