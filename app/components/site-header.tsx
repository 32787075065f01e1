import { Link, NavLink } from 'react-router';
import { formatDollars } from '../../contracts/money.ts';
import type { ShopInfo } from '../../server/domain/shop.ts';
import { SearchBox } from './search-box.tsx';

interface SiteHeaderProps {
  shop: ShopInfo;
  categories: { id: number; name: string }[];
}

/** Top bar, logo, search, account and cart, and the category bar under them. */
export function SiteHeader({ shop, categories }: SiteHeaderProps) {
  return (
    <header className="bg-navy-900 text-white">
      <div className="bg-navy-950 text-xs sm:text-sm">
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-1.5">
          <p>
            <span className="font-semibold text-accent">Free delivery</span> on orders over{' '}
            {formatDollars(shop.shipping.freeThreshold).replace('.00', '')}
          </p>
          <div className="flex items-center gap-4">
            <a href={`tel:${shop.phone.replace(/[^\d+]/g, '')}`} className="hidden hover:underline sm:inline">
              Call {shop.phone}
            </a>
            <Link to="/store-locations" className="hover:underline">
              Store locations
            </Link>
          </div>
        </div>
      </div>
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-3 px-4 py-3">
        <Link to="/" className="flex items-center gap-2" aria-label={`${shop.name} home`}>
          <img src="/favicon.svg" alt="" width={36} height={36} />
          <span className="font-display text-2xl font-bold uppercase tracking-wide">{shop.name}</span>
        </Link>
        <div className="order-last w-full md:order-none md:flex-1">
          <SearchBox />
        </div>
        <nav aria-label="Account" className="ml-auto flex items-center gap-4 text-sm font-semibold md:ml-0">
          <Link to="/login" className="rounded border border-white/40 px-3 py-2 hover:bg-white/10">
            Login
          </Link>
          <Link to="/cart" className="rounded bg-white/10 px-3 py-2 hover:bg-white/20">
            Cart
          </Link>
        </nav>
      </div>
      <nav aria-label="Categories" className="border-t border-white/10 bg-navy-800">
        <ul className="mx-auto flex max-w-7xl gap-1 overflow-x-auto px-4 text-sm whitespace-nowrap">
          {categories.map((category) => (
            <li key={category.id}>
              <NavLink
                to={`/category/${category.id}`}
                className={({ isActive }) =>
                  `block px-3 py-2.5 hover:bg-white/10 ${isActive ? 'bg-white/10 text-accent' : ''}`
                }
              >
                {category.name}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
