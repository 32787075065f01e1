/** Rounds a rating for display: clamped to 0–5, halves from .5 (spec §9). */
export function starsFor(rating: number): { full: number; half: boolean } {
  const clamped = Math.min(5, Math.max(0, Number.isFinite(rating) ? rating : 0));
  const full = Math.floor(clamped);
  return { full, half: clamped - full >= 0.5 };
}

const STAR_PATH = 'M10 1.5l2.6 5.3 5.9.9-4.2 4.1 1 5.8L10 14.9l-5.3 2.7 1-5.8L1.5 7.7l5.9-.9z';

/** Five stars with the rating and review count, read out as one phrase. */
export function RatingStars({ rating, count }: { rating: number; count: number }) {
  const { full, half } = starsFor(rating);
  const label = count > 0 ? `Rated ${rating.toFixed(1)} out of 5 from ${count} reviews` : 'No reviews yet';
  return (
    <div className="flex items-center gap-1 text-xs text-gray-600" role="img" aria-label={label}>
      <span className="flex" aria-hidden="true">
        {Array.from({ length: 5 }, (_, index) => {
          const fill = index < full ? 100 : index === full && half ? 50 : 0;
          return (
            <span key={index} className="relative h-4 w-4">
              <svg aria-hidden="true" viewBox="0 0 20 20" className="absolute inset-0 h-4 w-4 fill-gray-300">
                <path d={STAR_PATH} />
              </svg>
              {fill > 0 ? (
                <span className="absolute inset-y-0 left-0 overflow-hidden" style={{ width: `${fill}%` }}>
                  <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-[#f5a300]">
                    <path d={STAR_PATH} />
                  </svg>
                </span>
              ) : null}
            </span>
          );
        })}
      </span>
      <span aria-hidden="true">{count > 0 ? `(${count})` : ''}</span>
    </div>
  );
}
