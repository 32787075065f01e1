import { Link } from 'react-router';
import type { ProductCardItem } from '../../contracts/product-card.ts';
import { addToCart, quantityInCart, updateCart, useCart } from '../lib/cart.ts';
import { formatIncGst } from '../lib/price-display.ts';
import { availableStock, canonicalProductPath } from '../lib/product-page.ts';
import { sellingPrice } from '../lib/seo.ts';
import { Price } from './price.tsx';
import { RatingStars } from './rating-stars.tsx';

interface FrequentlyBoughtProps {
  products: ProductCardItem[];
  /** Called after an item went into the cart, to announce it. */
  onAdded: (message: string) => void;
}

/** 'Frequently Purchased Together': up to four related items, each one click from the cart with '+ ADD'. */
export function FrequentlyBought({ products, onAdded }: FrequentlyBoughtProps) {
  const cart = useCart();
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      {products.map((product) => {
        const available = availableStock(product.stockQuantity, quantityInCart(cart, product.id));
        const price = sellingPrice(product);
        const href = canonicalProductPath(product.id);
        return (
          <li key={product.id} className="flex gap-3 rounded-lg border border-gray-200 bg-white p-3">
            <Link to={href} className="shrink-0" tabIndex={-1} aria-hidden="true">
              {product.imageUrl ? (
                <img
                  src={product.imageUrl}
                  alt=""
                  width={88}
                  height={88}
                  loading="lazy"
                  decoding="async"
                  className="h-22 w-22 rounded border border-gray-100 object-contain"
                />
              ) : (
                <span className="block h-22 w-22 rounded bg-gray-100" />
              )}
            </Link>
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <p className="text-xs font-semibold uppercase tracking-wider text-gray-600">{product.brandName}</p>
              <Link to={href} className="line-clamp-2 text-sm font-medium leading-5 hover:underline">
                {product.name}
              </Link>
              <RatingStars rating={product.averageRating} count={product.reviewCount} />
              <div className="mt-auto flex items-center justify-between gap-2 pt-1">
                <span className="flex flex-wrap items-end gap-x-1.5">
                  <Price exGst={price} size="line" onSale={product.discountPrice !== null} />
                  {product.discountPrice !== null ? (
                    <span className="tabular pb-px text-xs text-gray-600 line-through">
                      <span className="sr-only">Was </span>
                      {formatIncGst(product.price)}
                    </span>
                  ) : null}
                </span>
                <button
                  type="button"
                  disabled={available < 1}
                  aria-label={available < 1 ? `${product.name} is out of stock` : `Add ${product.name} to cart`}
                  onClick={() => {
                    updateCart((current) =>
                      addToCart(
                        current,
                        {
                          id: product.id,
                          name: product.name,
                          price,
                          originalPrice: product.price,
                          image: product.imageUrl,
                          sku: product.sku,
                          maxQuantity: product.stockQuantity,
                        },
                        1,
                      ),
                    );
                    onAdded(`Added ${product.name} to your cart.`);
                  }}
                  className="h-9 shrink-0 rounded bg-accent px-3 text-xs font-bold text-ink hover:bg-accent-dark disabled:cursor-not-allowed disabled:bg-gray-200 disabled:text-gray-600"
                >
                  {available < 1 ? 'Out of Stock' : '+ ADD'}
                </button>
              </div>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
