import { Link } from 'react-router';
import { MEMBERSHIP_PLANS } from '../../contracts/membership.ts';
import { formatDollars } from '../../contracts/money.ts';

export interface PromoBannerProps {
  eyebrow: string;
  title: string;
  text: string;
  cta: { to: string; label: string };
  image?: { src: string; alt: string } | null;
  tone: 'red' | 'navy' | 'yellow';
}

const TONES: Record<PromoBannerProps['tone'], { box: string; eyebrow: string; text: string; button: string }> = {
  red: {
    box: 'bg-sale text-white',
    eyebrow: 'text-white',
    text: 'text-white/90',
    button: 'bg-white text-ink hover:bg-accent',
  },
  navy: {
    box: 'bg-navy-900 text-white',
    eyebrow: 'text-accent',
    text: 'text-white/90',
    button: 'bg-accent text-ink hover:bg-accent-dark',
  },
  yellow: {
    box: 'bg-accent text-ink',
    eyebrow: 'text-navy-900',
    text: 'text-ink',
    button: 'bg-navy-900 text-white hover:bg-navy-700',
  },
};

/** A half-width promotional panel: headline, one line, one action and an optional product picture. */
export function PromoBanner({ eyebrow, title, text, cta, image, tone }: PromoBannerProps) {
  const colours = TONES[tone];
  return (
    <article className={`relative flex h-full overflow-hidden rounded-xl ${colours.box}`}>
      <div aria-hidden="true" className="hazard-stripes absolute inset-y-0 left-0 w-2" />
      <div className="relative z-10 flex flex-1 flex-col justify-center py-7 pr-4 pl-7 sm:py-9 sm:pl-9">
        <p className={`font-display text-sm font-bold uppercase tracking-[0.2em] ${colours.eyebrow}`}>{eyebrow}</p>
        <h3 className="mt-1 font-display text-3xl leading-none font-bold uppercase sm:text-4xl">{title}</h3>
        <p className={`mt-3 max-w-xs text-sm sm:text-base ${colours.text}`}>{text}</p>
        <Link
          to={cta.to}
          className={`mt-5 inline-flex w-fit items-center gap-2 rounded-md px-5 py-2.5 text-sm font-bold uppercase tracking-wide ${colours.button}`}
        >
          {cta.label}
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
            <path d="M7.3 4.3a1 1 0 0 1 1.4 0l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 1 1-1.4-1.4L11.6 10 7.3 5.7a1 1 0 0 1 0-1.4z" />
          </svg>
        </Link>
      </div>
      {image ? (
        <div className="relative hidden w-2/5 shrink-0 items-center justify-center p-4 sm:flex">
          <img
            src={image.src}
            alt={image.alt}
            width={400}
            height={400}
            loading="lazy"
            decoding="async"
            className="aspect-square w-full max-w-48 rotate-3 rounded-xl bg-white object-contain p-2 shadow-xl"
          />
        </div>
      ) : null}
    </article>
  );
}

/** The full-width member-deals strip near the bottom of the home page (links to /membership). */
export function MemberDealsBanner({ shopName }: { shopName: string }) {
  // Prices and benefits come from the plans themselves, as on /membership and /welcome.
  const [basic, premium] = MEMBERSHIP_PLANS;
  return (
    <section
      aria-labelledby="member-deals-heading"
      className="relative overflow-hidden rounded-xl bg-navy-950 text-white"
    >
      <div aria-hidden="true" className="hazard-stripes absolute inset-x-0 top-0 h-2" />
      <div
        aria-hidden="true"
        className="absolute -top-10 -right-16 hidden h-72 w-72 rounded-full border-[28px] border-accent/15 md:block"
      />
      <div className="relative flex flex-col gap-6 px-6 py-10 sm:px-10 md:flex-row md:items-center md:justify-between">
        <div className="max-w-2xl">
          <p className="font-display text-sm font-bold uppercase tracking-[0.2em] text-accent">Member deals</p>
          <h2
            id="member-deals-heading"
            className="mt-1 font-display text-4xl leading-none font-bold uppercase sm:text-5xl"
          >
            Points on every order
          </h2>
          <p className="mt-3 text-white/90">
            Join the {shopName} membership from {formatDollars(basic.monthlyPriceCents / 100)} a month: earn points on
            every order and redeem them for tools.
          </p>
          <ul className="mt-4 flex flex-wrap gap-x-6 gap-y-2 text-sm font-semibold">
            {[
              `${basic.name}: ${basic.pointsPerDollar} point per dollar`,
              `${premium.name}: ${premium.pointsPerDollar} points per dollar`,
              `${premium.name}: free shipping on every order`,
            ].map((perk) => (
              <li key={perk} className="flex items-center gap-2">
                <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 text-accent" fill="currentColor">
                  <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0z" />
                </svg>
                {perk}
              </li>
            ))}
          </ul>
        </div>
        <Link
          to="/membership"
          className="inline-flex w-fit shrink-0 items-center gap-2 rounded-md bg-accent px-7 py-3.5 font-bold uppercase tracking-wide text-ink shadow hover:bg-accent-dark"
        >
          Become a Member
        </Link>
      </div>
    </section>
  );
}
