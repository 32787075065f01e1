import { Link } from 'react-router';
import { useCart } from '../lib/cart.ts';

/** "Cart, 1 item" / "Cart, 3 items": what a screen reader hears for the header's cart link. */
export function cartLabel(quantity: number): string {
  return `Cart, ${quantity} ${quantity === 1 ? 'item' : 'items'}`;
}

/**
 * The header's cart link with the number of units in the cart. The server renders
 * an empty cart; the browser's count appears right after hydration.
 */
export function CartLink() {
  const { totalQuantity } = useCart();
  return (
    <Link
      to="/cart"
      className="relative flex h-11 items-center gap-2 rounded-md px-2.5 text-sm font-semibold hover:bg-white/10"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-7 w-7"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M2.5 3.5h2.6l2.4 11.6a1.6 1.6 0 0 0 1.6 1.3h8.6a1.6 1.6 0 0 0 1.6-1.2l1.7-7.2H6.2" />
        <circle cx="9.5" cy="20" r="1.3" />
        <circle cx="17.5" cy="20" r="1.3" />
      </svg>
      {/* The link's name is this text ("Cart, 3 items"); the word and the badge beside it are what the eye reads. */}
      <span className="sr-only">{cartLabel(totalQuantity)}</span>
      <span className="hidden lg:inline" aria-hidden="true">
        Cart
      </span>
      <span
        aria-hidden="true"
        data-testid="cart-count"
        className={`tabular absolute left-6 top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full px-1 text-xs font-bold ${
          totalQuantity > 0 ? 'bg-accent text-ink' : 'bg-white/20 text-white'
        }`}
      >
        {totalQuantity > 99 ? '99+' : totalQuantity}
      </span>
    </Link>
  );
}
