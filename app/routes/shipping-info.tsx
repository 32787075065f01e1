import { Link } from 'react-router';
import { centsToDollars, formatDollars } from '../../contracts/money.ts';
import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import {
  FLAT_SHIPPING_CENTS,
  FREE_SHIPPING_THRESHOLD_CENTS,
  GST_RATE,
  gstShareOfInclusive,
  priceOrder,
  shippingCents,
} from '../../contracts/pricing.ts';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { OpeningHours } from '../components/opening-hours.tsx';
import { RouteError } from '../components/route-error.tsx';
import { absoluteUrl, pageMeta, publicOrigin } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/shipping-info';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

/** The checkout's own rule (contracts/pricing.ts) for one line of the given subtotal. */
function orderTotalsCents(subtotal: number) {
  const totals = priceOrder([{ unitPriceCents: subtotal, quantity: 1 }]);
  return {
    subtotal: totals.subtotalCents,
    gst: totals.gstCents,
    shipping: totals.shippingCents,
    total: totals.totalCents,
  };
}

/** Subtotals that show each side of the threshold, including the edge case of exactly the threshold. */
const EXAMPLE_SUBTOTALS_CENTS = [45_00, FREE_SHIPPING_THRESHOLD_CENTS, FREE_SHIPPING_THRESHOLD_CENTS + 1, 249_00];

/** Typical delivery times after dispatch; the shop's own promise, not a carrier guarantee. */
const DELIVERY_TIMES = [
  { region: 'Sydney metro', time: '1–2 business days' },
  { region: 'NSW regional, ACT, Melbourne and Brisbane', time: '2–4 business days' },
  { region: 'Adelaide, Perth, Hobart and Darwin', time: '3–6 business days' },
  { region: 'Remote and rural areas', time: '5–10 business days' },
];

/**
 * Shipping and GST rules rendered from the constants checkout uses
 * (contracts/pricing.ts), with worked examples computed from the same
 * constants, plus delivery times and the store's pick-up details.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { shop } = context.get(shopContext);
  return {
    shop: {
      name: shop.name,
      phone: shop.phone,
      address: shop.address,
      openingHours: shop.openingHours,
      closedDates: shop.closedDates,
    },
    rules: {
      freeThreshold: centsToDollars(FREE_SHIPPING_THRESHOLD_CENTS),
      flatRate: centsToDollars(FLAT_SHIPPING_CENTS),
      /** The flat rate is GST-inclusive: this much of it is GST (shown on the tax invoice). */
      flatRateGst: centsToDollars(gstShareOfInclusive(FLAT_SHIPPING_CENTS)),
      gstPercent: Math.round(GST_RATE * 1000) / 10,
      // Asked of the one shipping function (issue 27 item 5), so this page cannot promise otherwise.
      premiumShipsFree: shippingCents(0, 'premium') === 0,
      collectIsFree: shippingCents(0, null, 'collect') === 0,
    },
    examples: EXAMPLE_SUBTOTALS_CENTS.map((subtotal) => {
      const totals = orderTotalsCents(subtotal);
      return {
        subtotal: centsToDollars(totals.subtotal),
        gst: centsToDollars(totals.gst),
        shipping: centsToDollars(totals.shipping),
        total: centsToDollars(totals.total),
      };
    }),
    renderedAt: Date.now(),
    origin: publicOrigin(shop),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Shipping & Delivery' }];
  const { shop, rules, origin } = loaderData;
  return pageMeta({
    title: `Shipping & Delivery | ${shop.name}`,
    description: `Free delivery on orders over ${wholeDollars(rules.freeThreshold)} before GST, otherwise a flat ${wholeDollars(rules.flatRate)}; Premium members ship free at any subtotal and click & collect is free. Prices include GST (${rules.gstPercent}%). Delivery times and store pick-up.`,
    canonical: absoluteUrl(origin, '/shipping-info'),
    siteName: shop.name,
  });
}

/** "$100" for whole amounts, "$99.50" otherwise: how a shop writes a threshold in a sentence. */
function wholeDollars(amount: number): string {
  return formatDollars(amount).replace(/\.00$/, '');
}

export default function ShippingInfoPage({ loaderData }: Route.ComponentProps) {
  const { shop, rules, examples, renderedAt, origin } = loaderData;
  const threshold = wholeDollars(rules.freeThreshold);
  const flatRate = wholeDollars(rules.flatRate);
  const atThreshold = examples.find((example) => example.subtotal === rules.freeThreshold);
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:py-10">
      <Breadcrumb items={[{ label: 'Shipping & Delivery' }]} origin={origin} />
      <h1 className="mt-4 font-display text-4xl font-bold uppercase sm:text-5xl">Shipping &amp; Delivery</h1>
      <p className="mt-2 max-w-2xl text-gray-700">
        One simple rule for every order, worked out the same way in your cart, at checkout and on your invoice.
      </p>

      {/* Three rules on the first row, the two free ways on the second, halves of the width. */}
      <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-6">
        <li className="rounded-lg border-t-4 border-accent bg-navy-900 p-5 text-white lg:col-span-2">
          <p className="font-display text-3xl font-bold uppercase">Free delivery</p>
          <p className="mt-1 text-gray-200">
            on orders over <strong className="text-white">{threshold}</strong> before GST
          </p>
        </li>
        <li className="rounded-lg border-t-4 border-navy-700 bg-navy-100 p-5 lg:col-span-2">
          <p className="font-display text-3xl font-bold uppercase">{flatRate} flat rate</p>
          <p className="mt-1 text-gray-700">on orders of {threshold} or less before GST, anywhere in Australia</p>
        </li>
        <li className="rounded-lg border-t-4 border-navy-700 bg-navy-100 p-5 lg:col-span-2">
          <p className="font-display text-3xl font-bold uppercase">GST {rules.gstPercent}%</p>
          <p className="mt-1 text-gray-700">included in the prices we show, with the price before GST beside them</p>
        </li>
        {rules.premiumShipsFree ? (
          <li className="rounded-lg border-t-4 border-accent bg-navy-100 p-5 lg:col-span-3">
            <p className="font-display text-3xl font-bold uppercase">Premium members</p>
            <p className="mt-1 text-gray-700">
              ship free at any subtotal.{' '}
              <Link to="/membership" className="font-semibold text-navy-700 underline">
                About membership
              </Link>
            </p>
          </li>
        ) : null}
        {rules.collectIsFree ? (
          <li className="rounded-lg border-t-4 border-navy-700 bg-navy-100 p-5 sm:col-span-2 lg:col-span-3">
            <p className="font-display text-3xl font-bold uppercase">Click &amp; collect</p>
            <p className="mt-1 text-gray-700">is free from our {shop.address.suburb} store, at any subtotal</p>
          </li>
        ) : null}
      </ul>

      <div className="mt-12 grid grid-cols-1 gap-10 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="space-y-12">
          <section aria-labelledby="how-heading">
            <h2 id="how-heading" className="font-display text-3xl font-bold uppercase">
              How your order total is worked out
            </h2>
            <ol className="mt-4 space-y-3">
              {[
                [
                  'Subtotal',
                  'Each item’s price before GST (the sale price when there is one) times its quantity, added up. Our pages headline each price with GST included and show the price before GST beside it.',
                ],
                [
                  'GST',
                  `${rules.gstPercent}% of the subtotal, rounded to the nearest cent, once for the whole order. Orders delivered outside Australia are GST-free exports.`,
                ],
                [
                  'Shipping',
                  `Free when the subtotal before GST is over ${threshold}${rules.premiumShipsFree ? ', for Premium members at any subtotal' : ''}${rules.collectIsFree ? ' and for click & collect' : ''}; otherwise ${flatRate} per order, however many items it has. The ${flatRate} includes GST of ${formatDollars(rules.flatRateGst)}, shown on your tax invoice.`,
                ],
                ['Total', 'Subtotal + GST + shipping. That is what you are charged; there are no other fees.'],
              ].map(([term, detail], index) => (
                <li key={term} className="flex gap-4">
                  <span
                    aria-hidden="true"
                    className="flex size-8 shrink-0 items-center justify-center rounded-full bg-accent font-bold text-ink"
                  >
                    {index + 1}
                  </span>
                  <p className="pt-1">
                    <strong>{term}:</strong> {detail}
                  </p>
                </li>
              ))}
            </ol>
          </section>

          <section aria-labelledby="examples-heading">
            <h2 id="examples-heading" className="font-display text-3xl font-bold uppercase">
              Worked examples
            </h2>
            <div className="mt-4 overflow-hidden rounded-lg border border-gray-200">
              <table className="w-full text-left text-sm sm:text-base">
                <caption className="sr-only">Order totals for four example subtotals</caption>
                <thead className="bg-navy-100 text-navy-900">
                  <tr>
                    <th scope="col" className="px-3 py-3 sm:px-4">
                      Subtotal (before GST)
                    </th>
                    <th scope="col" className="px-3 py-3 sm:px-4 text-right">
                      GST ({rules.gstPercent}%)
                    </th>
                    <th scope="col" className="px-3 py-3 sm:px-4 text-right">
                      Shipping
                    </th>
                    <th scope="col" className="px-3 py-3 sm:px-4 text-right">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody className="tabular divide-y divide-gray-200">
                  {examples.map((example) => (
                    <tr key={example.subtotal}>
                      <th scope="row" className="px-3 py-3 sm:px-4 font-semibold">
                        {formatDollars(example.subtotal)}
                      </th>
                      <td className="px-3 py-3 sm:px-4 text-right">{formatDollars(example.gst)}</td>
                      <td className="px-3 py-3 sm:px-4 text-right">
                        {example.shipping === 0 ? (
                          <span className="font-semibold text-stock-in">Free</span>
                        ) : (
                          formatDollars(example.shipping)
                        )}
                      </td>
                      <td className="px-3 py-3 sm:px-4 text-right font-bold">{formatDollars(example.total)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {atThreshold ? (
              <p className="mt-3 text-sm text-gray-700">
                An order of exactly {formatDollars(atThreshold.subtotal)} is not <em>over</em> {threshold}, so the{' '}
                {flatRate} rate still applies; one more cent and delivery is free.
              </p>
            ) : null}
          </section>

          <section aria-labelledby="times-heading">
            <h2 id="times-heading" className="font-display text-3xl font-bold uppercase">
              Dispatch and delivery times
            </h2>
            <p className="mt-3 text-gray-700">
              Orders placed by 2 pm (Sydney time) on a business day leave our {shop.address.suburb} store the same day;
              later orders go out the next business day. You get an e-mail with a tracking link as soon as your parcel
              is on its way.
            </p>
            <dl className="mt-4 divide-y divide-gray-200 rounded-lg border border-gray-200">
              {DELIVERY_TIMES.map((row) => (
                <div key={row.region} className="flex flex-col gap-1 px-3 py-3 sm:px-4 sm:flex-row sm:justify-between">
                  <dt className="font-semibold">{row.region}</dt>
                  <dd className="text-gray-700">{row.time}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-3 text-sm text-gray-600">
              Times are typical after dispatch. Bulky items such as ladders and compressors can take a day longer.
            </p>
          </section>
        </div>

        <aside
          aria-labelledby="pickup-heading"
          className="h-fit rounded-lg border border-gray-200 bg-white p-6 lg:sticky lg:top-6"
        >
          <h2 id="pickup-heading" className="font-display text-2xl font-bold uppercase">
            Rather pick it up?
          </h2>
          <p className="mt-2 text-sm text-gray-700">
            Choose click &amp; collect at checkout: it is free, we let you know when your order is ready, and you bring
            your order number and photo ID. Or shop in person at our trade counter.
          </p>
          <address className="mt-4 not-italic">
            <strong>{shop.name}</strong>
            <br />
            {shop.address.street}
            <br />
            {`${shop.address.suburb} ${shop.address.state} ${shop.address.postcode}`}
            <br />
            <a
              href={`tel:${shop.phone.replace(/[^\d+]/g, '')}`}
              className="font-semibold text-navy-700 hover:underline"
            >
              {shop.phone}
            </a>
          </address>
          <div className="mt-4">
            <OpeningHours hours={shop.openingHours} closedDates={shop.closedDates} renderedAt={renderedAt} />
          </div>
          <div className="mt-5 flex flex-wrap gap-3 text-sm">
            <Link
              to="/store-locations"
              className="rounded bg-navy-800 px-4 py-2 font-semibold text-white hover:bg-navy-700"
            >
              Directions
            </Link>
            <Link
              to="/contact"
              className="rounded border border-navy-800 px-4 py-2 font-semibold text-navy-800 hover:bg-navy-100"
            >
              Ask a question
            </Link>
          </div>
        </aside>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Page not found"
      notFoundDetail="This page has moved or no longer exists."
      failureTitle="Shipping information is unavailable"
      failureDetail="We could not load this page. Please try again in a moment."
    />
  );
}
