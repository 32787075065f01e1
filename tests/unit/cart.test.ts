import { describe, expect, it } from 'vitest';
import {
  addToCart,
  type Cart,
  clearCart,
  type NewCartItem,
  quantityInCart,
  removeFromCart,
  removeLine,
} from '../../app/lib/cart.ts';

const drill: NewCartItem = {
  id: 1,
  name: 'Drill',
  price: 129.95,
  originalPrice: 149,
  image: null,
  sku: 'D-1',
  maxQuantity: 3,
};
const saw: NewCartItem = { ...drill, id: 2, name: 'Saw', price: 0.1, originalPrice: 0.1, sku: 'S-2', maxQuantity: 10 };
const empty: Cart = clearCart();

describe('cart rules (spec §4)', () => {
  it('adds a new item with quantity 1 and totals in exact cents', () => {
    const cart = addToCart(addToCart(empty, drill), saw);
    expect(cart.items.map((item) => [item.id, item.quantity])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(cart.totalQuantity).toBe(2);
    expect(cart.totalAmount).toBe(130.05);
  });

  it('adds 1 to an existing item until it reaches maxQuantity, then nothing changes', () => {
    let cart = empty;
    for (let click = 0; click < 5; click++) cart = addToCart(cart, drill);
    expect(quantityInCart(cart, 1)).toBe(3);
    expect(cart.items[0]!.totalPrice).toBe(389.85);
    expect(addToCart(cart, drill)).toBe(cart);
  });

  it('does not add an item whose maxQuantity is below 1', () => {
    expect(addToCart(empty, { ...drill, maxQuantity: 0 })).toBe(empty);
  });

  it('adds a chosen quantity at once, capped at maxQuantity', () => {
    expect(quantityInCart(addToCart(empty, drill, 2), 1)).toBe(2);
    expect(quantityInCart(addToCart(addToCart(empty, drill, 2), drill, 5), 1)).toBe(3);
  });

  it('removes one unit at a time and deletes the line at 1', () => {
    let cart = addToCart(addToCart(empty, drill), drill);
    cart = removeFromCart(cart, 1);
    expect(quantityInCart(cart, 1)).toBe(1);
    cart = removeFromCart(cart, 1);
    expect(cart.items).toEqual([]);
    expect(cart.totalAmount).toBe(0);
  });

  it('removes a whole line and clears the cart', () => {
    const cart = addToCart(addToCart(addToCart(empty, drill), drill), saw);
    expect(removeLine(cart, 1).items.map((item) => item.id)).toEqual([2]);
    expect(clearCart()).toEqual({ items: [], totalQuantity: 0, totalAmount: 0 });
  });
});
