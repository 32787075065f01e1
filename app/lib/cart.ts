import { centsToDollars, dollarsToCents } from '../../contracts/money.ts';
import { createLocalStore } from './local-store.ts';

/** One line of the shopper's cart (spec §3 "Cart item"). Prices are for display; the server prices orders. */
export interface CartItem {
  /** The product's id. */
  id: number;
  /** The chosen variant (size, colour, pack), if any: a line is a product and a variant. */
  variantId?: number | null;
  variantName?: string | null;
  name: string;
  /** Unit price the shopper pays, in dollars. */
  price: number;
  /** Regular price before a discount, in dollars. */
  originalPrice: number;
  image: string | null;
  sku: string;
  quantity: number;
  /** Stock when the item was added: quantity never goes above it. */
  maxQuantity: number;
  totalPrice: number;
}

export interface Cart {
  items: CartItem[];
  totalQuantity: number;
  totalAmount: number;
}

export type NewCartItem = Omit<CartItem, 'quantity' | 'totalPrice'>;

const EMPTY_CART: Cart = { items: [], totalQuantity: 0, totalAmount: 0 };

/** Whether a line is this product with this variant (none: the product as it is). */
function isLine(line: CartItem, id: number, variantId: number | null | undefined): boolean {
  return line.id === id && (line.variantId ?? null) === (variantId ?? null);
}

function withTotals(items: CartItem[]): Cart {
  const lines = items.map((item) => ({
    ...item,
    totalPrice: centsToDollars(dollarsToCents(item.price) * item.quantity),
  }));
  return {
    items: lines,
    totalQuantity: lines.reduce((sum, item) => sum + item.quantity, 0),
    totalAmount: centsToDollars(lines.reduce((sum, item) => sum + dollarsToCents(item.price) * item.quantity, 0)),
  };
}

/**
 * Adds `quantity` units (spec §4: one per click on a card; the product page adds
 * its selector's amount). Never beyond maxQuantity; nothing happens when the
 * item is already at its maximum or has no stock.
 */
export function addToCart(cart: Cart, item: NewCartItem, quantity = 1): Cart {
  const existing = cart.items.find((line) => isLine(line, item.id, item.variantId));
  if (!existing) {
    if (item.maxQuantity < 1 || quantity < 1) return cart;
    const added: CartItem = { ...item, quantity: Math.min(quantity, item.maxQuantity), totalPrice: 0 };
    return withTotals([...cart.items, added]);
  }
  if (existing.quantity >= existing.maxQuantity || quantity < 1) return cart;
  const next = Math.min(existing.quantity + quantity, existing.maxQuantity);
  return withTotals(
    cart.items.map((line) => (isLine(line, item.id, item.variantId) ? { ...line, quantity: next } : line)),
  );
}

/** Takes one unit off a line; the line goes when its last unit does. */
export function removeFromCart(cart: Cart, id: number, variantId: number | null = null): Cart {
  const existing = cart.items.find((line) => isLine(line, id, variantId));
  if (!existing) return cart;
  if (existing.quantity <= 1) return withTotals(cart.items.filter((line) => !isLine(line, id, variantId)));
  return withTotals(
    cart.items.map((line) => (isLine(line, id, variantId) ? { ...line, quantity: line.quantity - 1 } : line)),
  );
}

/** Removes a whole line (the cart page's remove button). */
export function removeLine(cart: Cart, id: number, variantId: number | null = null): Cart {
  return withTotals(cart.items.filter((line) => !isLine(line, id, variantId)));
}

export function clearCart(): Cart {
  return EMPTY_CART;
}

/** How many units of a product the cart already holds. */
export function quantityInCart(cart: Cart, id: number, variantId: number | null = null): number {
  return cart.items.find((line) => isLine(line, id, variantId))?.quantity ?? 0;
}

/* ---------------- The browser store: localStorage, shared across tabs ---------------- */

function isCartItem(value: unknown): value is CartItem {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Record<string, unknown>;
  return (
    typeof item.id === 'number' &&
    typeof item.name === 'string' &&
    typeof item.price === 'number' &&
    typeof item.quantity === 'number' &&
    typeof item.maxQuantity === 'number' &&
    (item.variantId === undefined || item.variantId === null || typeof item.variantId === 'number') &&
    item.quantity >= 1
  );
}

const cartStore = createLocalStore<Cart>({
  key: 'harbour-tools.cart.v1',
  empty: EMPTY_CART,
  parse: (stored) => {
    const items = (stored as { items?: unknown } | null)?.items;
    return withTotals(Array.isArray(items) ? items.filter(isCartItem) : []);
  },
  serialize: (cart) => ({ items: cart.items }),
});

/** Applies a change to the shopper's cart, saves it and tells every subscriber. */
export function updateCart(change: (cart: Cart) => Cart): void {
  cartStore.update(change);
}

const wholeCart = (cart: Cart) => cart;

/** The cart in a component. The server renders an empty cart; the browser's fills in after hydration. */
export function useCart(): Cart {
  return cartStore.useSelected(wholeCart);
}

/** Calls `listener` after every change of the cart; returns the unsubscribe. */
export function subscribeToCart(listener: () => void): () => void {
  return cartStore.subscribe(listener);
}

/** The cart now, outside React (event handlers, the account sync). */
export function currentCart(): Cart {
  return cartStore.get();
}

/**
 * Sets a line's quantity from the cart page's stepper: never above what can be had, and
 * at 0 (minus at 1, spec §4) the line goes.
 */
export function setLineQuantity(cart: Cart, id: number, quantity: number, variantId: number | null = null): Cart {
  const existing = cart.items.find((line) => isLine(line, id, variantId));
  if (!existing) return cart;
  const next = Math.min(Math.max(0, Math.floor(quantity)), existing.maxQuantity);
  if (next === existing.quantity) return cart;
  if (next === 0) return removeLine(cart, id, variantId);
  return withTotals(cart.items.map((line) => (isLine(line, id, variantId) ? { ...line, quantity: next } : line)));
}

/** The whole cart replaced (the account's saved cart arriving, or the cart emptied after an order). */
export function replaceCart(items: CartItem[]): Cart {
  return withTotals(items);
}

/** What the server needs of the cart: product, quantity and the price the shopper saw when adding it. */
export function cartLines(
  cart: Cart,
): { productId: number; variantId: number | null; quantity: number; addedPrice: number }[] {
  return cart.items.map((item) => ({
    productId: item.id,
    variantId: item.variantId ?? null,
    quantity: item.quantity,
    addedPrice: item.price,
  }));
}
