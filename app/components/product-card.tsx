import { Link } from 'react-router';
import type { Product } from '../../contracts/catalog.ts';
import { formatDollars } from '../../contracts/money.ts';
import { RatingStars } from './rating-stars.tsx';
import { StockLine } from './stock-line.tsx';

interface ProductCardProps {
  product: Product;
  /** Where the card links; defaults to the product page. */
  href?: string;
}

/** The tile used in every product grid: picture, brand, name, rating, price and stock. */
export function ProductCard({ product, href = `/product/${product.id}` }: ProductCardProps) {
  const onSale = product.discountPrice !== null;
  const shownPrice = product.discountPrice ?? product.price;
  return (
    <article className="group flex h-full flex-col overflow-hidden rounded-lg border border-gray-200 bg-white transition-shadow hover:shadow-md">
      <Link to={href} className="relative block aspect-square bg-white" prefetch="intent">
        {product.imageUrl ? (
          <img
            src={product.imageUrl}
            alt={product.name}
            width={400}
            height={400}
            loading="lazy"
            decoding="async"
            className="h-full w-full object-contain p-3"
          />
        ) : null}
        {onSale ? (
          <span className="absolute left-2 top-2 rounded bg-sale px-2 py-0.5 text-xs font-bold text-white">
            Save {formatDollars(product.price - shownPrice)}
          </span>
        ) : null}
      </Link>
      <div className="flex flex-1 flex-col gap-1.5 p-3">
        <p className="text-xs font-semibold uppercase tracking-wider text-gray-600">{product.brandName}</p>
        <h3 className="line-clamp-2 min-h-10 text-sm font-medium leading-5">
          <Link to={href} className="hover:underline">
            {product.name}
          </Link>
        </h3>
        <RatingStars rating={product.averageRating} count={product.reviewCount} />
        <div className="mt-auto flex items-baseline gap-2 pt-1">
          <span className={`tabular text-xl font-bold ${onSale ? 'text-sale' : ''}`}>{formatDollars(shownPrice)}</span>
          {onSale ? (
            <span className="tabular text-sm text-gray-600 line-through">
              <span className="sr-only">Was </span>
              {formatDollars(product.price)}
            </span>
          ) : null}
        </div>
        <StockLine stock={product.stockQuantity} />
      </div>
    </article>
  );
}
