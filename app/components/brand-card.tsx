import { Link } from 'react-router';

interface BrandCardProps {
  brand: { id: number; name: string; logoUrl: string | null; productCount?: number };
  /** The brand page by default; the category page links to the brand within the category. */
  href?: string;
  /** e.g. "in Power Tools", after the product count. */
  countSuffix?: string;
}

/** A brand tile: the logo (its wordmark carries the name) and how many products it has. */
export function BrandCard({ brand, href = `/brand/${brand.id}`, countSuffix = '' }: BrandCardProps) {
  const count = brand.productCount;
  return (
    <Link
      to={href}
      className="flex h-full flex-col items-center justify-center gap-1 rounded-lg border border-gray-200 bg-white p-3 text-center transition-shadow hover:border-gray-300 hover:shadow-md"
    >
      {brand.logoUrl ? (
        <img
          src={brand.logoUrl}
          alt={brand.name}
          width={600}
          height={240}
          loading="lazy"
          decoding="async"
          className="aspect-[5/2] w-full max-w-44 object-contain"
        />
      ) : (
        <span className="flex aspect-[5/2] w-full items-center justify-center font-display text-2xl font-bold uppercase">
          {brand.name}
        </span>
      )}
      {count !== undefined ? (
        <span className="text-xs text-gray-600">
          <span className="tabular">{count}</span> {count === 1 ? 'product' : 'products'}
          {countSuffix ? ` ${countSuffix}` : ''}
        </span>
      ) : null}
    </Link>
  );
}
