import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_BACKOFF, waitAfterFailures } from '../../server/domain/sign-in-backoff.ts';

/*
 * The sign-in slow-down's schedule (issue 21): after 5 failures of one account from one
 * address, each further try waits twice as long as the last: 1 s, 2 s, 4 s … at most 15 minutes.
 */
describe('waitAfterFailures', () => {
  it('is the schedule the issue states', () => {
    expect([0, 1, 4].map(waitAfterFailures)).toEqual([0, 0, 0]);
    expect([5, 6, 7, 8].map(waitAfterFailures)).toEqual([1000, 2000, 4000, 8000]);
    // 2^9 s = 512 s, then 1024 s is past the cap of 900 s.
    expect(waitAfterFailures(14)).toBe(512_000);
    expect(waitAfterFailures(15)).toBe(15 * 60_000);
  });

  it('costs nothing for the first 5 failures', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: SIGN_IN_BACKOFF.freeFailures - 1 }), (failures) => {
        expect(waitAfterFailures(failures)).toBe(0);
      }),
    );
  });

  it('doubles the last wait until the cap, and never passes 15 minutes', () => {
    fc.assert(
      fc.property(fc.integer({ min: SIGN_IN_BACKOFF.freeFailures, max: 1_000_000 }), (failures) => {
        const wait = waitAfterFailures(failures);
        const next = waitAfterFailures(failures + 1);
        expect(wait).toBeGreaterThanOrEqual(SIGN_IN_BACKOFF.firstWaitMs);
        expect(wait).toBeLessThanOrEqual(15 * 60_000);
        expect(next).toBe(Math.min(2 * wait, 15 * 60_000));
      }),
    );
  });

  it('never shrinks as failures grow', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(10_000), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(waitAfterFailures(low)).toBeLessThanOrEqual(waitAfterFailures(high));
      }),
    );
  });
});
