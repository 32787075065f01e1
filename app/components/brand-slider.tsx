import { Link } from 'react-router';
import { ScrollRow } from './scroll-row.tsx';

export interface BrandTile {
  id: number;
  name: string;
  logoUrl: string | null;
  productCount?: number;
}

/**
 * What a brand list shows when the brands did not load: spec §8's 'Error loading brands: {error}'
 * with its 'Failed to fetch brands' as the error, word for word (the server's own reason is
 * logged, never shown).
 */
export const BRANDS_FAILED = 'Error loading brands: Failed to fetch brands';

/** The first brands as a sideways row of logo cards, each linking to its brand page. */
export function BrandSlider({ brands }: { brands: BrandTile[] }) {
  return (
    <ScrollRow label="brands">
      {brands.map((brand) => (
        <li key={brand.id} className="w-40 shrink-0 snap-start sm:w-44 lg:flex-1">
          <Link
            to={`/brand/${brand.id}`}
            prefetch="intent"
            className="group flex h-full flex-col items-center justify-center gap-1 rounded-lg border border-gray-200 bg-white px-3 py-3 transition-shadow hover:border-navy-700 hover:shadow-md"
          >
            {brand.logoUrl ? (
              <img
                src={brand.logoUrl}
                alt={brand.name}
                width={150}
                height={60}
                loading="lazy"
                decoding="async"
                className="h-14 w-full object-contain"
              />
            ) : (
              <span className="flex h-14 items-center font-display text-xl font-bold uppercase">{brand.name}</span>
            )}
            {brand.productCount !== undefined ? (
              <span className="tabular text-xs text-gray-600">{brand.productCount} products</span>
            ) : null}
          </Link>
        </li>
      ))}
    </ScrollRow>
  );
}
