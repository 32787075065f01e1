import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';

/** The hero moves on after this long (spec §9). */
export const HERO_INTERVAL_MS = 5000;

export interface HeroSlide {
  key: string;
  eyebrow: string;
  title: string;
  text: string;
  cta: { to: string; label: string };
  secondary?: { to: string; label: string };
  image: { src: string; alt: string } | null;
  /** A short burst on the picture, e.g. "Save $40". */
  badge?: string;
  tone: 'navy' | 'steel' | 'red';
}

const TONES: Record<HeroSlide['tone'], { background: string; eyebrow: string; panel: string }> = {
  navy: { background: 'bg-navy-900', eyebrow: 'text-accent', panel: 'bg-accent' },
  steel: { background: 'bg-[#1c2530]', eyebrow: 'text-accent', panel: 'bg-navy-700' },
  red: { background: 'bg-sale', eyebrow: 'text-white', panel: 'bg-navy-950' },
};

function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(false);
  useEffect(() => {
    const query = window.matchMedia('(prefers-reduced-motion: reduce)');
    setReduced(query.matches);
    const onChange = () => setReduced(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return reduced;
}

/**
 * The home page's promotions (WAI-ARIA carousel pattern): one slide at a time,
 * moving on every 5 s. It holds still while the pointer is over it or focus is in
 * it, after the shopper presses Pause, and from the start for shoppers who ask
 * for reduced motion. Dots jump to a slide; hidden slides are inert.
 */
export function HeroSlider({ slides, label = 'Promotions' }: { slides: HeroSlide[]; label?: string }) {
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [stoppedByUser, setStoppedByUser] = useState<boolean | null>(null);
  const reducedMotion = usePrefersReducedMotion();
  const slidesId = useId();
  const count = slides.length;
  // Until the shopper chooses, reduced motion decides whether the slides rotate.
  const rotating = count > 1 && !(stoppedByUser ?? reducedMotion);
  const moving = rotating && !hovered && !focused;

  // `index` is a dependency on purpose: the timer restarts on every slide change, so a dot click
  // gives the chosen slide its full 5 s.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (!moving) return;
    const timer = window.setTimeout(() => setIndex((current) => (current + 1) % count), HERO_INTERVAL_MS);
    return () => window.clearTimeout(timer);
  }, [moving, index, count]);

  if (count === 0) return null;
  const go = (next: number) => setIndex(((next % count) + count) % count);

  return (
    <section
      aria-roledescription="carousel"
      aria-label={label}
      className="relative"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div id={slidesId} aria-live={moving ? 'off' : 'polite'} className="grid">
        {slides.map((slide, slideIndex) => {
          const active = slideIndex === index;
          const tone = TONES[slide.tone];
          return (
            // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern names slides with role="group", a fieldset is for forms
            <div
              key={slide.key}
              role="group"
              aria-roledescription="slide"
              aria-label={`${slideIndex + 1} of ${count}: ${slide.title}`}
              aria-hidden={!active}
              inert={!active}
              data-active={active}
              className={`relative col-start-1 row-start-1 overflow-hidden text-white transition-opacity duration-500 ${tone.background} ${
                active ? 'z-10 opacity-100' : 'z-0 opacity-0'
              }`}
            >
              <div aria-hidden="true" className="hazard-stripes absolute inset-x-0 bottom-0 h-2 opacity-90" />
              <div
                aria-hidden="true"
                className="absolute inset-y-0 right-0 hidden w-[46%] -skew-x-12 translate-x-16 bg-white/5 md:block"
              />
              <div className="relative mx-auto grid max-w-7xl items-center gap-6 px-4 pt-8 pb-14 md:grid-cols-[1.15fr_1fr] md:px-8 md:py-12 lg:min-h-[22rem]">
                <div>
                  <p className={`font-display text-base font-bold uppercase tracking-[0.2em] ${tone.eyebrow}`}>
                    {slide.eyebrow}
                  </p>
                  <h2 className="mt-2 font-display text-4xl leading-[0.95] font-bold uppercase sm:text-5xl lg:text-6xl">
                    {slide.title}
                  </h2>
                  <p className="mt-4 max-w-xl text-base text-white/90 sm:text-lg">{slide.text}</p>
                  <div className="mt-6 flex flex-wrap gap-3">
                    <Link
                      to={slide.cta.to}
                      className="inline-flex items-center gap-2 rounded-md bg-accent px-6 py-3 font-bold uppercase tracking-wide text-ink shadow hover:bg-accent-dark"
                    >
                      {slide.cta.label}
                      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
                        <path d="M7.3 4.3a1 1 0 0 1 1.4 0l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 1 1-1.4-1.4L11.6 10 7.3 5.7a1 1 0 0 1 0-1.4z" />
                      </svg>
                    </Link>
                    {slide.secondary ? (
                      <Link
                        to={slide.secondary.to}
                        className="inline-flex items-center rounded-md border-2 border-white/70 px-5 py-2.5 font-semibold text-white hover:bg-white hover:text-ink"
                      >
                        {slide.secondary.label}
                      </Link>
                    ) : null}
                  </div>
                </div>
                {slide.image ? (
                  <div className="relative mx-auto hidden w-full max-w-xs sm:block md:max-w-sm">
                    <div
                      aria-hidden="true"
                      className={`absolute inset-4 rotate-3 rounded-2xl ${tone.panel} opacity-90`}
                    />
                    <img
                      src={slide.image.src}
                      alt={slide.image.alt}
                      width={400}
                      height={400}
                      // The first slide is the page's largest picture: fetch it first.
                      loading={slideIndex === 0 ? 'eager' : 'lazy'}
                      fetchPriority={slideIndex === 0 ? 'high' : 'auto'}
                      decoding="async"
                      className="relative aspect-square w-full -rotate-2 rounded-2xl bg-white object-contain p-4 shadow-2xl"
                    />
                    {slide.badge ? (
                      <p className="absolute -top-3 -left-3 flex h-24 w-24 rotate-[-10deg] items-center justify-center rounded-full bg-sale p-2 text-center font-display text-xl leading-none font-bold uppercase text-white shadow-lg ring-4 ring-white">
                        {slide.badge}
                      </p>
                    ) : null}
                  </div>
                ) : null}
              </div>
            </div>
          );
        })}
      </div>

      {count > 1 ? (
        <div className="absolute inset-x-0 bottom-4 z-20 mx-auto flex max-w-7xl items-center gap-2 px-4 md:px-8">
          <button
            type="button"
            onClick={() => setStoppedByUser(rotating)}
            aria-label={rotating ? 'Stop automatic slide show' : 'Start automatic slide show'}
            className="flex h-8 w-8 items-center justify-center rounded-full bg-black/30 text-white hover:bg-black/50"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
              {rotating ? <path d="M5 4h3.5v12H5zm6.5 0H15v12h-3.5z" /> : <path d="M6 4l10 6-10 6z" />}
            </svg>
          </button>
          <button
            type="button"
            onClick={() => go(index - 1)}
            aria-controls={slidesId}
            aria-label="Previous slide"
            className="flex h-8 w-8 items-center justify-center rounded-full bg-black/30 text-white hover:bg-black/50"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
              <path d="M12.7 4.3a1 1 0 0 1 0 1.4L8.4 10l4.3 4.3a1 1 0 0 1-1.4 1.4l-5-5a1 1 0 0 1 0-1.4l5-5a1 1 0 0 1 1.4 0z" />
            </svg>
          </button>
          <ul className="flex items-center">
            {slides.map((slide, slideIndex) => (
              <li key={slide.key}>
                <button
                  type="button"
                  onClick={() => go(slideIndex)}
                  aria-controls={slidesId}
                  aria-current={slideIndex === index ? 'true' : undefined}
                  aria-label={`Go to slide ${slideIndex + 1}: ${slide.title}`}
                  className="group flex h-8 w-8 items-center justify-center"
                >
                  <span
                    className={`block h-2.5 rounded-full transition-all ${
                      slideIndex === index ? 'w-7 bg-accent' : 'w-2.5 bg-white/60 group-hover:bg-white'
                    }`}
                  />
                </button>
              </li>
            ))}
          </ul>
          <button
            type="button"
            onClick={() => go(index + 1)}
            aria-controls={slidesId}
            aria-label="Next slide"
            className="flex h-8 w-8 items-center justify-center rounded-full bg-black/30 text-white hover:bg-black/50"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
              <path d="M7.3 4.3a1 1 0 0 1 1.4 0l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 1 1-1.4-1.4L11.6 10 7.3 5.7a1 1 0 0 1 0-1.4z" />
            </svg>
          </button>
        </div>
      ) : null}
    </section>
  );
}
