import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  clampRating,
  RatingStars,
  ratingLabel,
  starFillPercent,
  starsFor,
} from '../../app/components/rating-stars.tsx';

describe('starsFor (spec §9: clamped 0–5, half star at .5 or more)', () => {
  it.each([
    [0, 0, false],
    [0.49, 0, false],
    [0.5, 0, true],
    [1, 1, false],
    [3.2, 3, false],
    [3.49, 3, false],
    [3.5, 3, true],
    [3.99, 3, true],
    [4.5, 4, true],
    [5, 5, false],
  ])('%d gives %d full stars, half: %s', (rating, full, half) => {
    const stars = starsFor(rating);
    expect(stars).toEqual({ full, half, empty: 5 - full - (half ? 1 : 0) });
  });

  it('clamps ratings outside 0–5 and treats nonsense as 0', () => {
    expect(starsFor(7.5)).toEqual({ full: 5, half: false, empty: 0 });
    expect(starsFor(-2)).toEqual({ full: 0, half: false, empty: 5 });
    expect(starsFor(Number.NaN)).toEqual({ full: 0, half: false, empty: 5 });
    expect(starsFor(Number.POSITIVE_INFINITY)).toEqual({ full: 0, half: false, empty: 5 });
    expect(clampRating(5.01)).toBe(5);
  });

  it('always accounts for exactly five stars', () => {
    for (let tenth = -10; tenth <= 60; tenth++) {
      const { full, half, empty } = starsFor(tenth / 10);
      expect(full + (half ? 1 : 0) + empty).toBe(5);
    }
  });
});

describe('RatingStars', () => {
  it('reads out the clamped rating and the review count', () => {
    expect(ratingLabel(4.46, 12)).toBe('Rated 4.5 out of 5 from 12 reviews');
    expect(ratingLabel(9, 1)).toBe('Rated 5.0 out of 5 from 1 review');
    expect(ratingLabel(0, 0)).toBe('No reviews yet');
  });

  it('fills whole stars and half a star, never fractions in between', () => {
    expect(starFillPercent(3.6)).toBe(70);
    expect(starFillPercent(3.4)).toBe(60);
    expect(starFillPercent(4.5)).toBe(90);
    expect(starFillPercent(5)).toBe(100);
    expect(starFillPercent(12)).toBe(100);
    expect(starFillPercent(0.3)).toBe(0);
  });

  it('draws the gold stars over the grey ones with the count beside them', () => {
    const html = renderToStaticMarkup(createElement(RatingStars, { rating: 3.6, count: 42 }));
    expect(html).toContain('style="width:70%"');
    expect(html).toContain('(42)');
    expect(html).toContain('aria-label="Rated 3.6 out of 5 from 42 reviews"');
  });

  it('shows no count when there are no reviews', () => {
    const html = renderToStaticMarkup(createElement(RatingStars, { rating: 0, count: 0 }));
    expect(html).not.toContain('(0)');
    expect(html).not.toContain('width:');
  });
});
