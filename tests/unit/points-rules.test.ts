import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pointsAdjustmentSchema, RETURN_WINDOW_DAYS } from '../../contracts/points.ts';
import { pointsEarned, pointsForReturnedLines } from '../../server/domain/points.ts';

/*
 * Issue 21's points rules that need no database: what a return takes back (the returned lines'
 * share of the subtotal, rounded down), what a plan earns, and the staff adjustment's bounds.
 */

describe('pointsForReturnedLines', () => {
  it('the examples: 158 × 91.98 / 158.47 → 91; 211 × 91.50 / 211.50 → 91; a whole return takes all', () => {
    expect(pointsForReturnedLines(158, 9_198, 15_847)).toBe(91);
    expect(pointsForReturnedLines(211, 9_150, 21_150)).toBe(91);
    expect(pointsForReturnedLines(211, 21_150, 21_150)).toBe(211);
    expect(pointsForReturnedLines(0, 100, 100)).toBe(0);
    expect(pointsForReturnedLines(50, 100, 0)).toBe(0);
  });

  it('for any order: never more than held, never negative, less than one point in the shopper’s favour, monotone', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (held, subtotalCents, a, b) => {
          const [low, high] = [Math.min(a, b), Math.max(a, b)].map((share) => Math.floor(share * subtotalCents));
          const taken = pointsForReturnedLines(held, high!, subtotalCents);
          expect(taken).toBeGreaterThanOrEqual(0);
          expect(taken).toBeLessThanOrEqual(held);
          // Exact: the share rounded down, so what is kept is at most the exact share + < 1 point.
          expect(taken * subtotalCents).toBeLessThanOrEqual(held * high!);
          expect((taken + 1) * subtotalCents).toBeGreaterThan(held * high!);
          expect(pointsForReturnedLines(held, low!, subtotalCents)).toBeLessThanOrEqual(taken);
          expect(pointsForReturnedLines(held, subtotalCents, subtotalCents)).toBe(held);
        },
      ),
    );
  });

  it('two partial returns never take back more than the order earned', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (held, subtotalCents, share) => {
          const first = Math.floor(share * subtotalCents);
          const takenFirst = pointsForReturnedLines(held, first, subtotalCents);
          const takenRest = pointsForReturnedLines(held, subtotalCents - first, subtotalCents);
          expect(takenFirst + takenRest).toBeLessThanOrEqual(held);
        },
      ),
    );
  });
});

describe('pointsEarned', () => {
  it('per whole dollar of the subtotal: Basic 1, Premium 2, no plan 0', () => {
    expect(pointsEarned(15_840, 'basic')).toBe(158);
    expect(pointsEarned(15_840, 'premium')).toBe(316);
    expect(pointsEarned(99, 'premium')).toBe(0);
    expect(pointsEarned(15_840, null)).toBe(0);
  });
});

describe('the staff adjustment', () => {
  it('accepts whole points from -100,000 to 100,000 except 0, with a reason of 3 to 200 characters', () => {
    const ok = (body: unknown) => pointsAdjustmentSchema.safeParse(body).success;
    expect(ok({ points: 100_000, reason: 'abc' })).toBe(true);
    expect(ok({ points: -100_000, reason: 'x'.repeat(200) })).toBe(true);
    expect(ok({ points: 100_001, reason: 'abc' })).toBe(false);
    expect(ok({ points: -100_001, reason: 'abc' })).toBe(false);
    expect(ok({ points: 0, reason: 'abc' })).toBe(false);
    expect(ok({ points: 2.5, reason: 'abc' })).toBe(false);
    expect(ok({ points: 5, reason: '  ab  ' })).toBe(false);
    expect(ok({ points: 5, reason: 'x'.repeat(201) })).toBe(false);
  });

  it('the return window is 30 days', () => {
    expect(RETURN_WINDOW_DAYS).toBe(30);
  });
});
