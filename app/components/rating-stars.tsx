import { SpriteSvg } from './icon-sprite.tsx';

/** Clamps a rating to 0–5; anything that is not a finite number counts as 0. */
export function clampRating(rating: number): number {
  return Math.min(5, Math.max(0, Number.isFinite(rating) ? rating : 0));
}

/** Rounds a rating for display: clamped to 0–5, a half star from .5 (spec §9). */
export function starsFor(rating: number): { full: number; half: boolean; empty: number } {
  const clamped = clampRating(rating);
  const full = Math.floor(clamped);
  const half = clamped - full >= 0.5;
  return { full, half, empty: 5 - full - (half ? 1 : 0) };
}

/** What a screen reader hears for the stars: the clamped rating and the number of reviews. */
export function ratingLabel(rating: number, count: number): string {
  if (count <= 0) return 'No reviews yet';
  return `Rated ${clampRating(rating).toFixed(1)} out of 5 from ${count} ${count === 1 ? 'review' : 'reviews'}`;
}

const SIZES = { sm: 'h-4 w-20', md: 'h-5 w-25' } as const;

/** How much of the five-star row is gold: whole stars plus half a star when the rating earns one. */
export function starFillPercent(rating: number): number {
  const { full, half } = starsFor(rating);
  return (full + (half ? 0.5 : 0)) * 20;
}

/** Five stars with the review count, read out as one phrase. */
export function RatingStars({ rating, count, size = 'sm' }: { rating: number; count: number; size?: 'sm' | 'md' }) {
  const box = SIZES[size];
  const fill = starFillPercent(rating);
  return (
    <div className="flex items-center gap-1 text-xs text-gray-600" role="img" aria-label={ratingLabel(rating, count)}>
      <span className={`relative block shrink-0 ${box}`} aria-hidden="true">
        <SpriteSvg icon="stars" className={`absolute inset-0 ${box} fill-gray-300`} />
        {fill > 0 ? (
          <span className="absolute inset-y-0 left-0 overflow-hidden" style={{ width: `${fill}%` }} data-fill={fill}>
            <SpriteSvg icon="stars" className={`${box} max-w-none fill-star`} />
          </span>
        ) : null}
      </span>
      <span aria-hidden="true" className="tabular">
        {count > 0 ? `(${count})` : ''}
      </span>
    </div>
  );
}
