import type { ReactNode } from 'react';

const BLANK_GIF = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

interface PageHeroProps {
  title: string;
  /** Small line above the title, e.g. the parent category. */
  eyebrow?: string;
  description?: string | null;
  imageUrl?: string | null;
  /** Intrinsic size of the picture, so it reserves its box before it loads. */
  imageWidth?: number;
  imageHeight?: number;
  children?: ReactNode;
}

/**
 * The navy banner at the top of catalogue pages: name, description and picture (spec §2 "hero").
 * The picture is the page's largest paint, so it loads eagerly with high priority.
 */
export function PageHero({
  title,
  eyebrow,
  description,
  imageUrl,
  imageWidth = 1200,
  imageHeight = 800,
  children,
}: PageHeroProps) {
  return (
    <section className="relative overflow-hidden rounded-xl bg-gradient-to-br from-navy-950 via-navy-900 to-navy-700 text-white">
      <div className="absolute inset-x-0 bottom-0 h-1.5 bg-accent" aria-hidden="true" />
      <div className="grid items-center gap-6 p-5 sm:px-8 sm:py-6 md:grid-cols-[minmax(0,1fr)_auto]">
        <div className="min-w-0">
          {eyebrow ? (
            <p className="font-display text-sm font-semibold uppercase tracking-[0.2em] text-accent">{eyebrow}</p>
          ) : null}
          <h1 className="mt-1 font-display text-3xl font-bold uppercase leading-none sm:text-5xl">{title}</h1>
          {description ? <p className="mt-3 max-w-2xl text-sm text-gray-200 sm:text-base">{description}</p> : null}
          {children}
        </div>
        {imageUrl ? (
          // Phones skip the picture (and its download): the source only matches from 768 px.
          <picture className="hidden md:block">
            <source media="(min-width: 768px)" srcSet={imageUrl} />
            <img
              src={BLANK_GIF}
              alt=""
              width={imageWidth}
              height={imageHeight}
              fetchPriority="high"
              className="w-56 rounded-lg bg-white object-cover shadow-lg ring-1 ring-white/10 lg:w-64"
              style={{ aspectRatio: `${imageWidth} / ${imageHeight}` }}
            />
          </picture>
        ) : null}
      </div>
    </section>
  );
}
