import { Link } from 'react-router';
import type { ShopInfo } from '../../server/domain/shop.ts';

/** About, quick links, contact details, social links and the copyright line. */
export function SiteFooter({ shop }: { shop: ShopInfo }) {
  const { address } = shop;
  return (
    <footer className="mt-16 bg-navy-950 text-sm text-gray-300">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <section>
          <h2 className="font-display text-lg font-bold uppercase tracking-wide text-white">About Us</h2>
          <p className="mt-3 leading-relaxed">
            {shop.name} supplies Sydney’s trades and home workshops with power tools, hand tools and site gear — backed
            by people who use them.
          </p>
        </section>
        <nav aria-label="Quick links">
          <h2 className="font-display text-lg font-bold uppercase tracking-wide text-white">Quick Links</h2>
          <ul className="mt-3 space-y-2">
            <li>
              <Link className="hover:text-white hover:underline" to="/">
                Home
              </Link>
            </li>
            <li>
              <Link className="hover:text-white hover:underline" to="/products">
                Products
              </Link>
            </li>
            <li>
              <Link className="hover:text-white hover:underline" to="/contact">
                Contact
              </Link>
            </li>
            <li>
              <Link className="hover:text-white hover:underline" to="/store-locations">
                Store Locations
              </Link>
            </li>
          </ul>
        </nav>
        <section>
          <h2 className="font-display text-lg font-bold uppercase tracking-wide text-white">Contact</h2>
          <address className="mt-3 space-y-1 not-italic">
            <p>{address.street}</p>
            <p>{`${address.suburb} ${address.state} ${address.postcode}`}</p>
            <p>
              <a className="hover:text-white hover:underline" href={`tel:${shop.phone.replace(/[^\d+]/g, '')}`}>
                {shop.phone}
              </a>
            </p>
            <p>
              <a className="hover:text-white hover:underline" href={`mailto:${shop.email}`}>
                {shop.email}
              </a>
            </p>
          </address>
        </section>
        <section>
          <h2 className="font-display text-lg font-bold uppercase tracking-wide text-white">Follow Us</h2>
          <ul className="mt-3 space-y-2">
            <li>
              <a className="hover:text-white hover:underline" href={shop.social.facebook} rel="noopener">
                Facebook
              </a>
            </li>
            <li>
              <a className="hover:text-white hover:underline" href={shop.social.instagram} rel="noopener">
                Instagram
              </a>
            </li>
            <li>
              <a className="hover:text-white hover:underline" href={shop.social.youtube} rel="noopener">
                YouTube
              </a>
            </li>
          </ul>
        </section>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-7xl px-4 py-4 text-xs text-gray-400">
          © {new Date().getFullYear()} {shop.name}. Prices in AUD; GST is added at checkout.
        </p>
      </div>
    </footer>
  );
}
