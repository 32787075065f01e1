import { Link } from 'react-router';
import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { OpeningHours } from '../components/opening-hours.tsx';
import { RouteError } from '../components/route-error.tsx';
import { StoreIllustration } from '../components/store-illustration.tsx';
import { StoreMap } from '../components/store-map.tsx';
import { directionsUrl } from '../lib/google-maps.ts';
import { formatHours } from '../lib/opening-hours.ts';
import { absoluteUrl, pageMeta, publicOrigin, storeJsonLd } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/store-locations';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

/**
 * The one store (spec §2 /store-locations): identity, address, phone and hours
 * from configuration, and the browser Maps key when one is configured — the
 * interactive map loads only then; without it the page offers a directions link.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { shop } = context.get(shopContext);
  return {
    shop: {
      name: shop.name,
      phone: shop.phone,
      email: shop.email,
      address: shop.address,
      location: shop.location,
      openingHours: shop.openingHours,
      closedDates: shop.closedDates,
      social: shop.social,
    },
    googleMapsApiKey: shop.googleMapsApiKey,
    renderedAt: Date.now(),
    origin: publicOrigin(shop),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Store Locations' }];
  const { shop, origin } = loaderData;
  const { address } = shop;
  const hours = shop.openingHours
    .filter((entry) => entry.opens)
    .map((entry) => `${entry.label} ${formatHours(entry)}`)
    .join(', ');
  return pageMeta({
    title: `Store Locations | ${shop.name}`,
    description: `Visit ${shop.name} at ${address.street}, ${address.suburb} ${address.state} ${address.postcode}. Open ${hours}. Call ${shop.phone} or get directions.`,
    canonical: absoluteUrl(origin, '/store-locations'),
    siteName: shop.name,
    jsonLd: [storeJsonLd(shop, origin)],
  });
}

export default function StoreLocationsPage({ loaderData }: Route.ComponentProps) {
  const { shop, googleMapsApiKey, renderedAt, origin } = loaderData;
  const { address } = shop;
  const addressLines = [address.street, `${address.suburb} ${address.state} ${address.postcode}`];
  const directions = directionsUrl(shop.location);
  const phoneHref = `tel:${shop.phone.replace(/[^\d+]/g, '')}`;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:py-10">
      <Breadcrumb items={[{ label: 'Store Locations' }]} origin={origin} />
      <h1 className="mt-4 font-display text-4xl font-bold uppercase sm:text-5xl">Store Locations</h1>
      <p className="mt-2 max-w-2xl text-gray-700">
        Come and see us: every tool on the website is stocked at our {address.suburb} trade counter, with people who use
        them to help you choose.
      </p>

      <div className="mt-8 grid grid-cols-1 gap-8 lg:grid-cols-[24rem_minmax(0,1fr)]">
        <section aria-labelledby="store-name" className="overflow-hidden rounded-lg border border-gray-200 bg-white">
          <div className="bg-navy-900 px-6 py-5 text-white">
            <p className="font-display text-sm font-semibold uppercase tracking-[0.2em] text-accent">Our store</p>
            <h2 id="store-name" className="mt-1 font-display text-3xl font-bold uppercase">
              {shop.name}
            </h2>
          </div>
          <div className="space-y-6 p-6">
            <div>
              <h3 className="text-sm font-semibold uppercase tracking-wide text-gray-600">Address</h3>
              <address className="mt-1 text-lg not-italic" data-testid="store-address">
                {addressLines.map((line) => (
                  <span key={line} className="block">
                    {line}
                  </span>
                ))}
              </address>
            </div>
            <div>
              <h3 className="text-sm font-semibold uppercase tracking-wide text-gray-600">Phone</h3>
              <a href={phoneHref} className="mt-1 inline-block text-lg font-semibold text-navy-700 hover:underline">
                {shop.phone}
              </a>
            </div>
            <div>
              <h3 className="text-sm font-semibold uppercase tracking-wide text-gray-600">Opening hours</h3>
              <div className="mt-2">
                <OpeningHours hours={shop.openingHours} closedDates={shop.closedDates} renderedAt={renderedAt} />
              </div>
            </div>
            <div className="flex flex-wrap gap-3">
              <a
                href={directions}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex items-center gap-2 rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark"
              >
                Get directions
                <span className="sr-only"> (opens Google Maps in a new tab)</span>
                <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
                  <path d="M11 3h6v6h-2V6.4l-6.3 6.3-1.4-1.4L13.6 5H11V3ZM4 5h5v2H5v8h8v-4h2v6H3V5h1Z" />
                </svg>
              </a>
              <a
                href={phoneHref}
                className="inline-flex items-center rounded border border-navy-800 px-5 py-3 font-semibold text-navy-800 hover:bg-navy-100"
              >
                Call the store
              </a>
            </div>
          </div>
        </section>

        <section aria-labelledby="map-heading">
          <h2 id="map-heading" className="sr-only">
            Map
          </h2>
          {googleMapsApiKey ? (
            <StoreMap
              apiKey={googleMapsApiKey}
              store={{ name: shop.name, addressLines, phone: shop.phone, location: shop.location }}
            />
          ) : (
            <figure className="overflow-hidden rounded-lg border border-gray-200 bg-navy-100">
              <StoreIllustration label={shop.name} />
              <figcaption className="flex flex-col gap-2 border-t border-gray-200 bg-white px-4 py-3 text-sm text-gray-700 sm:flex-row sm:items-center sm:justify-between">
                <span>{addressLines.join(', ')}</span>
                <a
                  href={directions}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="font-semibold text-navy-700 underline-offset-2 hover:underline"
                >
                  Open in Google Maps<span className="sr-only"> (new tab)</span>
                </a>
              </figcaption>
            </figure>
          )}
        </section>
      </div>

      <section aria-labelledby="visit-heading" className="mt-12 grid gap-4 md:grid-cols-3">
        <h2 id="visit-heading" className="sr-only">
          Visiting the store
        </h2>
        <div className="rounded-lg bg-navy-100 p-6">
          <h3 className="font-display text-2xl font-bold uppercase">Trade counter</h3>
          <p className="mt-2 text-gray-700">
            Talk to staff who use the gear, try tools before you buy and pick up fixings and consumables on the way to
            site.
          </p>
        </div>
        <div className="rounded-lg bg-navy-100 p-6">
          <h3 className="font-display text-2xl font-bold uppercase">Delivery instead?</h3>
          <p className="mt-2 text-gray-700">
            We send Australia-wide from this store.{' '}
            <Link to="/shipping-info" className="font-semibold text-navy-700 underline underline-offset-2">
              Shipping rates and times
            </Link>
          </p>
        </div>
        <div className="rounded-lg bg-navy-100 p-6">
          <h3 className="font-display text-2xl font-bold uppercase">Questions?</h3>
          <p className="mt-2 text-gray-700">
            Call us on {shop.phone} or{' '}
            <Link to="/contact" className="font-semibold text-navy-700 underline underline-offset-2">
              send us a message
            </Link>
            .
          </p>
        </div>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Page not found"
      notFoundDetail="This page has moved or no longer exists."
      failureTitle="Store details are unavailable"
      failureDetail="We could not load this page. Please try again in a moment."
    />
  );
}
