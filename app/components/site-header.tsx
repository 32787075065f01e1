import { Link, NavLink } from 'react-router';
import type { AccountSummary } from '../../contracts/account-fields.ts';
import { formatDollars } from '../../contracts/money.ts';
import type { ShopInfo } from '../../contracts/shop-info.ts';
import { AccountMenu } from './account-menu.tsx';
import { CartLink } from './cart-link.tsx';
import { type CategoryList, CategoryMenu } from './category-menu.tsx';
import { SpriteSvg } from './icon-sprite.tsx';
import { MobileMenu } from './mobile-menu.tsx';
import { SearchBox } from './search-box.tsx';
import { SHOP_LINKS } from './shop-links.ts';

interface SiteHeaderProps {
  shop: ShopInfo;
  /** Sorted by name; may still be streaming in, the menus show 'Loading categories...' meanwhile. */
  categories: CategoryList;
  /** The signed-in shopper, or null: the header shows their name and menu instead of 'Login'. */
  account: AccountSummary | null;
}

/** "$100" rather than "$100.00" for whole amounts in promise lines. */
export function shortDollars(amount: number): string {
  return Number.isInteger(amount) ? formatDollars(amount).replace(/\.00$/, '') : formatDollars(amount);
}

export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** The shop's mark: a yellow H on navy, the same drawing as the favicon. */
export function ShopLogo({ name, homeLink = false }: { name: string; homeLink?: boolean }) {
  return (
    <span className="flex items-center gap-2.5">
      <svg aria-hidden="true" viewBox="0 0 64 64" className="h-10 w-10 shrink-0">
        <rect width="64" height="64" rx="12" fill="#ffc20e" />
        <path d="M18 46V18h7v11h14V18h7v28h-7V35H25v11z" fill="#0f1f36" />
      </svg>
      <span className="flex flex-col leading-none">
        <span className="font-display text-2xl font-bold whitespace-nowrap uppercase tracking-wide sm:text-[1.7rem]">
          {name}
          {/* Inside the home link the name reads "Harbour Tools home"; the strapline is decoration. */}
          {homeLink ? <span className="sr-only"> home</span> : null}
        </span>
        <span
          aria-hidden="true"
          className="mt-0.5 hidden text-[0.65rem] font-semibold uppercase tracking-[0.2em] text-accent sm:block"
        >
          Trade tools &amp; supplies
        </span>
      </span>
    </span>
  );
}

/**
 * Top bar (free delivery promise, phone, store locations), then logo · search ·
 * login · cart, then the category bar. On a phone: logo, cart and the menu button,
 * with the search box full width underneath.
 */
export function SiteHeader({ shop, categories, account }: SiteHeaderProps) {
  return (
    <header className="bg-navy-900 text-white">
      <div className="bg-navy-950 text-xs sm:text-sm">
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-1.5">
          <p className="flex items-center gap-1.5">
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 text-accent" fill="currentColor">
              <path d="M2 6h11v9h1.5V9H18l3 4v4h-1.8a2.5 2.5 0 0 1-4.9 0H9.7a2.5 2.5 0 0 1-4.9 0H2zm15.5 5h2.3l-1.6-2h-.7z" />
            </svg>
            <span>
              <span className="font-semibold text-accent">Free delivery</span> on orders over{' '}
              {shortDollars(shop.shipping.freeThreshold)}
            </span>
          </p>
          <div className="flex items-center gap-4">
            <a href={telHref(shop.phone)} className="hidden items-center gap-1.5 hover:underline sm:flex">
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 text-accent" fill="currentColor">
                <path d="M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.45.57 3.57a1 1 0 0 1-.25 1z" />
              </svg>
              <span>
                <span className="sr-only">Call us on </span>
                {shop.phone}
              </span>
            </a>
            <Link to="/store-locations" className="flex items-center gap-1.5 hover:underline">
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 text-accent" fill="currentColor">
                <path d="M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5z" />
              </svg>
              Store Locations
            </Link>
          </div>
        </div>
      </div>

      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-3 px-4 py-3 md:flex-nowrap md:gap-x-6">
        <Link to="/" className="mr-auto rounded md:mr-0">
          <ShopLogo name={shop.name} homeLink />
        </Link>
        <div className="order-last w-full md:order-none md:flex-1">
          <SearchBox />
        </div>
        <div className="flex items-center gap-1 sm:gap-2">
          <AccountMenu account={account} />
          <CartLink />
          <div className="lg:hidden">
            <MobileMenu categories={categories} phone={shop.phone} account={account} />
          </div>
        </div>
      </div>

      <nav aria-label="Categories" className="hidden border-t border-white/10 bg-navy-800 lg:block">
        <div className="mx-auto flex max-w-7xl items-center gap-2 px-4">
          <CategoryMenu categories={categories} />
          <ul className="flex flex-1 items-center text-sm font-medium">
            {SHOP_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  prefetch="intent"
                  className={({ isActive }) =>
                    `flex h-11 items-center px-3 hover:bg-white/10 ${isActive ? 'text-accent underline underline-offset-8' : ''}`
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <Link
            to="/membership"
            className="flex h-11 items-center gap-1.5 px-3 text-sm font-semibold text-accent hover:bg-white/10"
          >
            <SpriteSvg icon="star" className="h-4 w-4" fill="currentColor" />
            Member Deals
          </Link>
        </div>
      </nav>
    </header>
  );
}
