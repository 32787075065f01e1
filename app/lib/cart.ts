import { centsToDollars, dollarsToCents } from '../../contracts/money.ts';
import { createLocalStore } from './local-store.ts';

/** One line of the shopper's cart (spec §3 "Cart item"). Prices are for display; the server prices orders. */
export interface CartItem {
  id: number;
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
  const existing = cart.items.find((line) => line.id === item.id);
  if (!existing) {
    if (item.maxQuantity < 1 || quantity < 1) return cart;
    const added: CartItem = { ...item, quantity: Math.min(quantity, item.maxQuantity), totalPrice: 0 };
    return withTotals([...cart.items, added]);
  }
  if (existing.quantity >= existing.maxQuantity || quantity < 1) return cart;
  const next = Math.min(existing.quantity + quantity, existing.maxQuantity);
  return withTotals(cart.items.map((line) => (line.id === item.id ? { ...line, quantity: next } : line)));
}

/** Takes one unit off a line; the line goes when its last unit does. */
export function removeFromCart(cart: Cart, id: number): Cart {
  const existing = cart.items.find((line) => line.id === id);
  if (!existing) return cart;
  if (existing.quantity <= 1) return withTotals(cart.items.filter((line) => line.id !== id));
  return withTotals(cart.items.map((line) => (line.id === id ? { ...line, quantity: line.quantity - 1 } : line)));
}

/** Removes a whole line (the cart page's remove button). */
export function removeLine(cart: Cart, id: number): Cart {
  return withTotals(cart.items.filter((line) => line.id !== id));
}

export function clearCart(): Cart {
  return EMPTY_CART;
}

/** How many units of a product the cart already holds. */
export function quantityInCart(cart: Cart, id: number): number {
  return cart.items.find((line) => line.id === id)?.quantity ?? 0;
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
