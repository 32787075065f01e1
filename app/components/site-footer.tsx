import { Link } from 'react-router';
import type { ShopInfo } from '../../contracts/shop-info.ts';
import { formatClosedDate, formatHours, upcomingClosedDates } from '../lib/opening-hours.ts';
import { ShopLogo, shortDollars, telHref } from './site-header.tsx';

const QUICK_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/products', label: 'Products' },
  { to: '/contact', label: 'Contact' },
  { to: '/store-locations', label: 'Store Locations' },
] as const;

const SHOP_HELP_LINKS = [
  { to: '/shipping-info', label: 'Shipping Information' },
  { to: '/shop-by-brand', label: 'Shop by Brand' },
  { to: '/deals', label: 'Deals' },
  { to: '/membership', label: 'Membership' },
] as const;

/** Simple-icons style marks, drawn inline so the footer makes no third-party requests. */
const SOCIAL_ICONS = {
  facebook:
    'M24 12.07C24 5.41 18.63 0 12 0S0 5.4 0 12.07C0 18.1 4.39 23.1 10.13 24v-8.44H7.08v-3.49h3.04V9.41c0-3.02 1.8-4.7 4.54-4.7 1.31 0 2.68.24 2.68.24v2.97h-1.5c-1.5 0-1.96.93-1.96 1.89v2.26h3.32l-.53 3.5h-2.8V24C19.62 23.1 24 18.1 24 12.07z',
  instagram:
    'M12 2.16c3.2 0 3.58.01 4.85.07 3.25.15 4.77 1.69 4.92 4.92.06 1.27.07 1.65.07 4.85s-.01 3.58-.07 4.85c-.15 3.23-1.66 4.77-4.92 4.92-1.27.06-1.64.07-4.85.07s-3.58-.01-4.85-.07c-3.26-.15-4.77-1.7-4.92-4.92-.06-1.27-.07-1.64-.07-4.85s.01-3.58.07-4.85C2.38 3.92 3.9 2.38 7.15 2.23 8.42 2.17 8.8 2.16 12 2.16zM12 0C8.74 0 8.33.01 7.05.07 2.7.27.27 2.69.07 7.05.01 8.33 0 8.74 0 12s.01 3.67.07 4.95c.2 4.36 2.62 6.78 6.98 6.98 1.28.06 1.69.07 4.95.07s3.67-.01 4.95-.07c4.35-.2 6.78-2.62 6.98-6.98.06-1.28.07-1.69.07-4.95s-.01-3.67-.07-4.95c-.2-4.35-2.62-6.78-6.98-6.98C15.67.01 15.26 0 12 0zm0 5.84a6.16 6.16 0 1 0 0 12.32 6.16 6.16 0 0 0 0-12.32zM12 16a4 4 0 1 1 0-8 4 4 0 0 1 0 8zm6.4-11.85a1.44 1.44 0 1 0 0 2.88 1.44 1.44 0 0 0 0-2.88z',
  youtube:
    'M23.5 6.19a3.02 3.02 0 0 0-2.12-2.14C19.5 3.55 12 3.55 12 3.55s-7.5 0-9.38.5A3.02 3.02 0 0 0 .5 6.19C0 8.07 0 12 0 12s0 3.93.5 5.81a3.02 3.02 0 0 0 2.12 2.14c1.88.5 9.38.5 9.38.5s7.5 0 9.38-.5a3.02 3.02 0 0 0 2.12-2.14C24 15.93 24 12 24 12s0-3.93-.5-5.81zM9.55 15.57V8.43L15.82 12l-6.27 3.57z',
} as const;

const SOCIAL_NAMES = { facebook: 'Facebook', instagram: 'Instagram', youtube: 'YouTube' } as const;

const headingClass = 'font-display text-lg font-bold uppercase tracking-wide text-white';
const linkClass = 'hover:text-white hover:underline';

/** About, quick links, contact details and hours, social links (configured URLs) and the copyright line. */
export function SiteFooter({ shop }: { shop: ShopInfo }) {
  const { address } = shop;
  const socials = (Object.keys(SOCIAL_ICONS) as (keyof typeof SOCIAL_ICONS)[]).filter((key) => shop.social[key]);
  return (
    <footer className="mt-16 bg-navy-950 text-sm text-gray-300">
      <div className="border-b border-white/10 bg-navy-900">
        <ul className="mx-auto grid max-w-7xl gap-4 px-4 py-5 text-white sm:grid-cols-3">
          <li className="flex items-center gap-3">
            <FeatureIcon d="M2 6h11v9h1.5V9H18l3 4v4h-1.8a2.5 2.5 0 0 1-4.9 0H9.7a2.5 2.5 0 0 1-4.9 0H2zm15.5 5h2.3l-1.6-2h-.7z" />
            <span>
              <strong className="block font-semibold">
                Free delivery over {shortDollars(shop.shipping.freeThreshold)}
              </strong>
              <span className="text-gray-300">
                Flat {shortDollars(shop.shipping.flatRate)} Australia-wide otherwise
              </span>
            </span>
          </li>
          <li className="flex items-center gap-3">
            <FeatureIcon d="M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5z" />
            <span>
              <strong className="block font-semibold">Click &amp; collect</strong>
              <span className="text-gray-300">From our {address.suburb} store</span>
            </span>
          </li>
          <li className="flex items-center gap-3">
            <FeatureIcon d="M12 1l9 4v6c0 5.5-3.8 10.7-9 12-5.2-1.3-9-6.5-9-12V5zm-1.2 14.2l6-6-1.4-1.4-4.6 4.6-2.2-2.2-1.4 1.4z" />
            <span>
              <strong className="block font-semibold">Secure checkout</strong>
              <span className="text-gray-300">Prices in AUD, GST included</span>
            </span>
          </li>
        </ul>
      </div>
      <div className="mx-auto grid max-w-7xl grid-cols-2 gap-x-6 gap-y-10 px-4 py-12 lg:grid-cols-[1.4fr_1fr_1fr_1.3fr]">
        <section aria-labelledby="footer-about" className="col-span-2 lg:col-span-1">
          <div className="text-white">
            <ShopLogo name={shop.name} />
          </div>
          <h2 id="footer-about" className={`${headingClass} mt-5`}>
            About Us
          </h2>
          <p className="mt-3 leading-relaxed">
            {shop.name} supplies Sydney’s trades and home workshops with power tools, hand tools and site gear from the
            brands professionals trust — with advice from people who use them every day.
          </p>
          {socials.length > 0 ? (
            <ul className="mt-5 flex gap-3" aria-label="Follow us">
              {socials.map((key) => (
                <li key={key}>
                  <a
                    href={shop.social[key]}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="flex h-10 w-10 items-center justify-center rounded-full bg-white/10 text-white transition-colors hover:bg-accent hover:text-ink"
                  >
                    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="currentColor">
                      <path d={SOCIAL_ICONS[key]} />
                    </svg>
                    <span className="sr-only">{`${shop.name} on ${SOCIAL_NAMES[key]} (opens in a new tab)`}</span>
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </section>
        <nav aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links" className={headingClass}>
            Quick Links
          </h2>
          <ul className="mt-3 space-y-2.5">
            {QUICK_LINKS.map((link) => (
              <li key={link.to}>
                <Link className={linkClass} to={link.to}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-shop">
          <h2 id="footer-shop" className={headingClass}>
            Shop With Us
          </h2>
          <ul className="mt-3 space-y-2.5">
            {SHOP_HELP_LINKS.map((link) => (
              <li key={link.to}>
                <Link className={linkClass} to={link.to}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <section aria-labelledby="footer-contact" className="col-span-2 lg:col-span-1">
          <h2 id="footer-contact" className={headingClass}>
            Contact Us
          </h2>
          <address className="mt-3 space-y-1 not-italic">
            <p className="font-semibold text-white">{shop.name}</p>
            <p>{address.street}</p>
            <p>{`${address.suburb} ${address.state} ${address.postcode}`}</p>
            <p className="pt-2">
              Phone:{' '}
              <a className={linkClass} href={telHref(shop.phone)}>
                {shop.phone}
              </a>
            </p>
            <p>
              Email:{' '}
              <a className={linkClass} href={`mailto:${shop.email}`}>
                {shop.email}
              </a>
            </p>
          </address>
          <h3 className="mt-4 font-semibold text-white">Store hours</h3>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5">
            {shop.openingHours.map((hours) => (
              <div key={hours.label} className="contents">
                <dt>{hours.label}</dt>
                <dd className="tabular">{formatHours(hours)}</dd>
              </div>
            ))}
          </dl>
          {upcomingClosedDates(shop.closedDates, new Date()).length > 0 ? (
            <p className="mt-1" suppressHydrationWarning>
              Closed {upcomingClosedDates(shop.closedDates, new Date()).map(formatClosedDate).join('; ')}
            </p>
          ) : null}
        </section>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-7xl flex-col gap-1 px-4 py-4 text-xs text-gray-400 sm:flex-row sm:justify-between">
          <p suppressHydrationWarning>
            © {new Date().getFullYear()} {shop.name}. All rights reserved.
          </p>
          <p>Prices in AUD and include GST; orders delivered outside Australia are GST-free.</p>
        </div>
      </div>
    </footer>
  );
}

function FeatureIcon({ d }: { d: string }) {
  return (
    <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-accent text-ink">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="currentColor">
        <path d={d} />
      </svg>
    </span>
  );
}
