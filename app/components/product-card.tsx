import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { formatDollars } from '../../contracts/money.ts';
import type { ProductCardItem } from '../../contracts/product-card.ts';
import { addToCart, type NewCartItem, quantityInCart, updateCart, useCart } from '../lib/cart.ts';
import { savingIncGst } from '../lib/price-display.ts';
import { SpriteSvg } from './icon-sprite.tsx';
import { Price, WasPrice } from './price.tsx';
import { RatingStars } from './rating-stars.tsx';
import { StockLine } from './stock-line.tsx';
import { WishlistButton } from './wishlist-button.tsx';

interface ProductCardProps {
  product: ProductCardItem;
  /** Where the card links; defaults to the product page. */
  href?: string;
  /**
   * How the picture loads: lazily below the fold, at once for the first screen of cards,
   * and first of all (fetch priority high) for the card whose picture is the largest paint.
   */
  imageLoading?: 'lazy' | 'eager' | 'first';
}

/** The cart line a product becomes: the price a shopper pays now, capped at the stock on hand. */
export function toCartItem(product: ProductCardItem): NewCartItem {
  return {
    id: product.id,
    name: product.name,
    price: product.discountPrice ?? product.price,
    originalPrice: product.price,
    image: product.imageUrl,
    sku: product.sku,
    maxQuantity: product.stockQuantity,
  };
}

/** The card's picture width in the product grids: 2 columns on a phone, 3 on a tablet, 4–5 in the 1280 px page. */
const CARD_IMAGE_SIZES = '(min-width: 1024px) 320px, (min-width: 768px) 34vw, 50vw';

/** How long the button shows a tick after a click, so the shopper sees the click landed. */
const ADDED_FEEDBACK_MS = 1500;

/**
 * The tile used in every product grid: picture, brand, name, rating, price, stock
 * and one ADD TO CART button. Fills its grid cell, so a row of cards lines up.
 */
export function ProductCard({ product, href = `/product/${product.id}`, imageLoading = 'lazy' }: ProductCardProps) {
  const nameId = useId();
  const onSale = product.discountPrice !== null && product.discountPrice < product.price;
  const shownPrice = onSale ? product.discountPrice! : product.price;
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-lg border border-gray-200 bg-white transition-shadow hover:border-gray-300 hover:shadow-lg">
      <div className="relative">
        {/* The name below is the card's link for keyboards and screen readers; the picture is a mouse shortcut. */}
        <Link to={href} tabIndex={-1} aria-hidden="true" className="block aspect-square bg-white" prefetch="intent">
          {product.imageUrl ? (
            <img
              src={product.imageUrl}
              // Uploaded pictures come in WebP sizes; seeded ones are single SVGs without a srcset.
              srcSet={product.imageSrcset}
              sizes={product.imageSrcset ? CARD_IMAGE_SIZES : undefined}
              alt=""
              width={400}
              height={400}
              loading={imageLoading === 'lazy' ? 'lazy' : 'eager'}
              fetchPriority={imageLoading === 'first' ? 'high' : 'auto'}
              decoding="async"
              className="h-full w-full object-contain p-2 transition-transform duration-200 group-hover:scale-[1.03]"
            />
          ) : null}
        </Link>
        {onSale ? (
          <span className="tabular absolute left-2 top-2 rounded bg-sale px-2 py-1 text-xs font-bold uppercase tracking-wide text-white">
            Save {formatDollars(savingIncGst(product.price, shownPrice))}
          </span>
        ) : null}
        <div className="absolute right-2 top-2">
          <WishlistButton productId={product.id} productName={product.name} />
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-1.5 border-t border-gray-100 p-3">
        <p className="text-[0.7rem] font-semibold uppercase tracking-[0.12em] text-gray-600">{product.brandName}</p>
        <h3 id={nameId} className="line-clamp-2 min-h-10 text-sm font-semibold leading-5 text-ink">
          <Link to={href} prefetch="intent" className="hover:text-navy-700 hover:underline">
            {product.name}
          </Link>
        </h3>
        <RatingStars rating={product.averageRating} count={product.reviewCount} />
        <div className="mt-auto flex flex-wrap items-end gap-x-2 pt-2">
          <Price exGst={shownPrice} onSale={onSale} srPrefix={onSale ? 'Now' : undefined} />
          {onSale ? <WasPrice exGst={product.price} className="pb-0.5 text-sm" /> : null}
        </div>
        <StockLine stock={product.stockQuantity} />
        <AddToCartButton product={product} describedBy={nameId} />
      </div>
    </article>
  );
}

/**
 * One unit per click (spec §4). Out of stock once the cart holds everything on
 * hand; the server renders an empty cart, so the button is exact after hydration.
 */
function AddToCartButton({ product, describedBy }: { product: ProductCardItem; describedBy: string }) {
  const cart = useCart();
  const [added, setAdded] = useState(0);
  const available = product.stockQuantity - quantityInCart(cart, product.id);

  useEffect(() => {
    if (!added) return;
    const timer = window.setTimeout(() => setAdded(0), ADDED_FEEDBACK_MS);
    return () => window.clearTimeout(timer);
  }, [added]);

  if (available < 1) {
    return (
      <button
        type="button"
        disabled
        aria-describedby={describedBy}
        className="mt-2 w-full cursor-not-allowed whitespace-nowrap rounded-md bg-gray-200 px-2 py-2.5 text-[0.8rem] font-bold uppercase tracking-wide text-gray-600 sm:text-sm"
      >
        Out of Stock
      </button>
    );
  }
  return (
    <>
      <button
        type="button"
        aria-describedby={describedBy}
        onClick={() => {
          updateCart((current) => addToCart(current, toCartItem(product)));
          setAdded((count) => count + 1);
        }}
        className="mt-2 flex w-full items-center justify-center gap-2 whitespace-nowrap rounded-md bg-accent px-2 py-2.5 text-[0.8rem] font-bold uppercase tracking-wide text-ink transition-colors hover:bg-accent-dark active:translate-y-px sm:text-sm"
      >
        <SpriteSvg
          icon={added ? 'check' : 'cart'}
          className="h-4 w-4"
          fill="none"
          stroke="currentColor"
          strokeWidth={2.4}
        />
        Add to Cart
      </button>
      <span role="status" className="sr-only">
        {added ? `${product.name} added to your cart` : ''}
      </span>
    </>
  );
}
