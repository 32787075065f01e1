import { Link } from 'react-router';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { Countdown } from '../components/countdown.tsx';
import { RouteError } from '../components/route-error.tsx';
import { SHOP_TIME_ZONE } from '../lib/opening-hours.ts';
import { absoluteUrl, pageMeta, publicOrigin } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/create-your-kit';

/**
 * The create-your-kit coming-soon page: the launch date (KIT_LAUNCH_DATE, or
 * the demo date fixed at first start) and the server's clock, so the HTML
 * already shows the right countdown; the browser then ticks it every second.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { shop, kitLaunch } = context.get(shopContext);
  const launchDate = await kitLaunch.launchDate();
  return {
    shopName: shop.name,
    launchAt: launchDate.toISOString(),
    // Formatted here, once, so the server's and the browser's date libraries cannot disagree at hydration.
    launchLabel: new Intl.DateTimeFormat('en-AU', {
      timeZone: SHOP_TIME_ZONE,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    }).format(launchDate),
    renderedAt: Date.now(),
    origin: publicOrigin(shop),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Create Your Kit' }];
  const { shopName, origin } = loaderData;
  return pageMeta({
    title: `Create Your Kit – coming soon | ${shopName}`,
    description: `Build your own tool kit at ${shopName}: pick a case, choose the tools your trade needs and get them as one order. Launching soon.`,
    canonical: absoluteUrl(origin, '/create-your-kit'),
    siteName: shopName,
  });
}

const STEPS = [
  {
    title: 'Pick your case',
    text: 'Start from a rolling tool box, a site bag or a stackable case system that fits your ute or van.',
  },
  {
    title: 'Choose your tools',
    text: 'Add drills, drivers, hand tools and fixings from the brands you already run batteries for.',
  },
  {
    title: 'Packed as one order',
    text: 'We check every item fits, pack the kit at our trade counter and send it as one delivery.',
  },
];

export default function CreateYourKitPage({ loaderData }: Route.ComponentProps) {
  const { launchAt, launchLabel, renderedAt, origin } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:py-10">
      <Breadcrumb items={[{ label: 'Create Your Kit' }]} origin={origin} />
      <section
        aria-labelledby="kit-heading"
        className="relative mt-4 overflow-hidden rounded-xl bg-gradient-to-br from-navy-950 via-navy-900 to-navy-700 px-5 py-10 text-white sm:px-10 sm:py-14"
      >
        <div className="absolute inset-x-0 bottom-0 h-1.5 bg-accent" aria-hidden="true" />
        <div className="grid items-center gap-10 lg:grid-cols-[minmax(0,1fr)_18rem]">
          <div>
            <p className="font-display text-sm font-semibold uppercase tracking-[0.25em] text-accent sm:text-base">
              Coming soon
            </p>
            <h1 id="kit-heading" className="mt-2 font-display text-5xl font-bold uppercase leading-none sm:text-7xl">
              Create Your Kit
            </h1>
            <p className="mt-4 max-w-2xl text-gray-200 sm:text-lg">
              Your trade, your tools, one kit. We are putting the finishing touches on a kit builder that lets you put
              together exactly the gear you need.
            </p>
            <div className="mt-8 max-w-3xl">
              <Countdown target={launchAt} renderedAt={renderedAt} />
            </div>
            <p className="mt-5 text-sm text-gray-200">
              Launching{' '}
              <time dateTime={launchAt} className="font-semibold text-white">
                {launchLabel}
              </time>{' '}
              (Sydney time)
            </p>
          </div>
          <KitIllustration />
        </div>
      </section>

      <section aria-labelledby="kit-how-heading" className="mt-12">
        <h2 id="kit-how-heading" className="font-display text-3xl font-bold uppercase">
          How it will work
        </h2>
        <ol className="mt-6 grid gap-4 md:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step.title} className="rounded-lg border border-gray-200 bg-white p-6">
              <span
                aria-hidden="true"
                className="flex size-10 items-center justify-center rounded-full bg-accent font-display text-xl font-bold text-ink"
              >
                {index + 1}
              </span>
              <h3 className="mt-4 font-display text-2xl font-bold uppercase">{step.title}</h3>
              <p className="mt-2 text-gray-700">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section
        aria-labelledby="kit-meanwhile-heading"
        className="mt-12 flex flex-col gap-4 rounded-lg bg-navy-100 p-6 sm:flex-row sm:items-center sm:justify-between sm:p-8"
      >
        <div>
          <h2 id="kit-meanwhile-heading" className="font-display text-2xl font-bold uppercase">
            Can’t wait?
          </h2>
          <p className="mt-1 text-gray-700">
            Browse the full range now, or tell us what you need and we will put a kit together for you.
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Link to="/products" className="rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark">
            Shop all products
          </Link>
          <Link
            to="/contact?subject=Create%20Your%20Kit"
            className="rounded border border-navy-800 bg-white px-5 py-3 font-semibold text-navy-800 hover:bg-navy-100"
          >
            Ask us about a kit
          </Link>
        </div>
      </section>
    </div>
  );
}

/** A closed tool case with tools standing behind it: decorative, desktop only. */
function KitIllustration() {
  return (
    <svg viewBox="0 0 280 260" className="hidden w-full lg:block" aria-hidden="true" focusable="false">
      <g opacity="0.9">
        {/* A spirit level, a hammer and a screwdriver standing behind the case. */}
        <rect x="38" y="30" width="26" height="150" rx="4" fill="#e6ecf5" transform="rotate(-12 51 105)" />
        <rect x="44" y="88" width="14" height="10" rx="3" fill="#9cc0e6" transform="rotate(-12 51 105)" />
        <rect x="176" y="38" width="12" height="140" rx="5" fill="#c9d4e3" transform="rotate(10 182 108)" />
        <rect x="160" y="26" width="46" height="22" rx="6" fill="#e6ecf5" transform="rotate(10 182 108)" />
        <rect x="120" y="20" width="10" height="110" rx="4" fill="#c9d4e3" transform="rotate(4 125 80)" />
        <rect x="116" y="96" width="18" height="60" rx="8" fill="#ffc20e" transform="rotate(4 125 80)" />
      </g>
      <rect x="96" y="108" width="88" height="22" rx="10" fill="none" stroke="#0a1526" strokeWidth="10" />
      <rect x="20" y="124" width="240" height="116" rx="14" fill="#ffc20e" />
      <rect x="20" y="124" width="240" height="34" rx="14" fill="#e0a800" />
      <rect x="20" y="150" width="240" height="8" fill="#0a1526" opacity="0.85" />
      <rect x="52" y="146" width="30" height="22" rx="4" fill="#0a1526" />
      <rect x="198" y="146" width="30" height="22" rx="4" fill="#0a1526" />
      <rect x="104" y="188" width="72" height="26" rx="5" fill="#0a1526" />
      <text
        x="140"
        y="206"
        textAnchor="middle"
        fill="#ffc20e"
        fontFamily="'Barlow Condensed', sans-serif"
        fontSize="16"
        fontWeight="700"
        letterSpacing="2"
      >
        YOUR KIT
      </text>
    </svg>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Page not found"
      notFoundDetail="This page has moved or no longer exists."
      failureTitle="Create Your Kit is unavailable"
      failureDetail="We could not load the launch date. Please try again in a moment."
    />
  );
}
