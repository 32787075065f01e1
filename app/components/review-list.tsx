import { useState } from 'react';
import type { Review } from '../../contracts/catalog.ts';
import { spriteHref } from './icon-sprite.tsx';
import { RatingStars } from './rating-stars.tsx';

/** Reviews rendered with the page; the rest of those loaded appear on 'Show more reviews'. */
export const REVIEWS_SHOWN_FIRST = 5;

const dateFormat = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

interface ReviewListProps {
  reviews: Review[];
  averageRating: number;
  reviewCount: number;
}

/** Share of reviews at each star level, 5 down to 1, among the reviews loaded. */
function distribution(reviews: Review[]): { stars: number; count: number }[] {
  return [5, 4, 3, 2, 1].map((stars) => ({ stars, count: reviews.filter((review) => review.rating === stars).length }));
}

/**
 * A review's whole-star rating as one small SVG that places the page's star symbol
 * (icon-sprite.tsx) five times: a page of reviews stays a few elements per review, not thirty.
 */
function ReviewStars({ rating }: { rating: number }) {
  return (
    <svg role="img" aria-label={`${rating} out of 5 stars`} viewBox="0 0 100 20" className="h-4 w-20 shrink-0">
      {[0, 1, 2, 3, 4].map((index) => (
        <use
          key={index}
          href={spriteHref('star')}
          x={index * 20}
          width={20}
          height={20}
          className={index < rating ? 'fill-[#f5a300]' : 'fill-gray-300'}
        />
      ))}
    </svg>
  );
}

/** The rating summary (real average and count) and the most recent reviews, newest first. */
export function ReviewList({ reviews, averageRating, reviewCount }: ReviewListProps) {
  const [showAll, setShowAll] = useState(false);
  if (reviewCount === 0) {
    return <p className="text-gray-700">No reviews yet. Bought this product? Tell other tradies how it went.</p>;
  }
  const bars = distribution(reviews);
  const shown = showAll ? reviews : reviews.slice(0, REVIEWS_SHOWN_FIRST);
  return (
    <div className="grid gap-8 md:grid-cols-[16rem_1fr]">
      <div>
        <p className="tabular font-display text-5xl font-bold">
          {averageRating.toFixed(1)}
          <span className="text-2xl text-gray-600"> / 5</span>
        </p>
        <RatingStars rating={averageRating} count={reviewCount} />
        <p className="mt-1 text-sm text-gray-700">
          Based on {reviewCount} {reviewCount === 1 ? 'review' : 'reviews'}
        </p>
        {reviews.length > 0 ? (
          <>
            {reviews.length < reviewCount ? (
              <p className="mt-4 text-xs text-gray-600">Of the latest {reviews.length} reviews:</p>
            ) : null}
            <dl className="mt-2 space-y-1 text-sm">
              {bars.map(({ stars, count }) => (
                <div key={stars} className="flex items-center gap-2">
                  <dt className="w-12 shrink-0 text-gray-700">{stars} star</dt>
                  <dd className="flex flex-1 items-center gap-2">
                    <span className="h-2 flex-1 overflow-hidden rounded bg-gray-200" aria-hidden="true">
                      <span
                        className="block h-full bg-[#f5a300]"
                        style={{ width: `${(count / reviews.length) * 100}%` }}
                      />
                    </span>
                    <span className="tabular w-6 text-right text-gray-700">{count}</span>
                  </dd>
                </div>
              ))}
            </dl>
          </>
        ) : null}
      </div>
      <div>
        <ol className="divide-y divide-gray-200">
          {shown.map((review) => (
            <li key={review.id} className="py-4 first:pt-0">
              <article aria-label={`Review by ${review.authorName}`}>
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <ReviewStars rating={review.rating} />
                  <h3 className="font-semibold">{review.title}</h3>
                </div>
                <p className="mt-1 text-sm text-gray-600">
                  {review.authorName} ·{' '}
                  <time dateTime={review.createdAt}>{dateFormat.format(new Date(review.createdAt))}</time>
                </p>
                <p className="mt-2 leading-relaxed text-gray-800">{review.body}</p>
              </article>
            </li>
          ))}
        </ol>
        {reviews.length > shown.length ? (
          <button
            type="button"
            onClick={() => setShowAll(true)}
            className="mt-2 rounded-md border border-gray-300 bg-white px-4 py-2 text-sm font-semibold text-ink hover:bg-gray-50"
          >
            Show more reviews ({reviews.length - shown.length})
          </button>
        ) : null}
      </div>
    </div>
  );
}
