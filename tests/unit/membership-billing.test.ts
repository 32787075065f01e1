import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  gstOfCents,
  proRatedUpgradeCents,
  RENEWAL_RULES,
  renewalPeriodStart,
} from '../../server/domain/membership-billing.ts';

/*
 * The money and calendar rules of membership billing (issue 21): the pro-rated upgrade in cents
 * rounded down, GST as 1/11 of a GST-inclusive price, and where a late renewal's period starts
 * (the e-mails' dates are `formatEmailDate`'s: tests/unit/email-layout.test.ts).
 */

const DAY = 86_400_000;

describe('proRatedUpgradeCents: floor((new − old) × msLeft / periodMs)', () => {
  it('charges $6.66 for Basic → Premium with 20 of 30 days left, $10.00 for a whole period, nothing at its end', () => {
    const start = new Date('2027-01-01T00:00:00Z');
    const end = new Date(start.getTime() + 30 * DAY);
    expect(
      proRatedUpgradeCents(999, 1999, {
        periodStart: start,
        periodEnd: end,
        now: new Date(start.getTime() + 10 * DAY),
      }),
    ).toBe(666);
    expect(proRatedUpgradeCents(999, 1999, { periodStart: start, periodEnd: end, now: start })).toBe(1000);
    expect(proRatedUpgradeCents(999, 1999, { periodStart: start, periodEnd: end, now: end })).toBe(0);
    expect(
      proRatedUpgradeCents(999, 1999, { periodStart: start, periodEnd: end, now: new Date(end.getTime() + DAY) }),
    ).toBe(0);
  });

  it('is a whole number of cents between 0 and the difference, never more for less time left', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: DAY, max: 31 * DAY }),
        fc.double({ min: -0.5, max: 1.5, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (oldPrice, extra, periodMs, position, later) => {
          const start = new Date(Date.UTC(2027, 0, 1));
          const end = new Date(start.getTime() + periodMs);
          const now = new Date(start.getTime() + Math.round(position * periodMs));
          const amount = proRatedUpgradeCents(oldPrice, oldPrice + extra, { periodStart: start, periodEnd: end, now });
          expect(Number.isInteger(amount)).toBe(true);
          expect(amount).toBeGreaterThanOrEqual(0);
          expect(amount).toBeLessThanOrEqual(extra);
          const msLeft = Math.min(Math.max(end.getTime() - now.getTime(), 0), periodMs);
          expect(amount).toBe(Math.floor((extra * msLeft) / periodMs));
          const afterwards = new Date(now.getTime() + Math.round(later * periodMs));
          expect(
            proRatedUpgradeCents(oldPrice, oldPrice + extra, { periodStart: start, periodEnd: end, now: afterwards }),
          ).toBeLessThanOrEqual(amount);
        },
      ),
    );
  });

  it('charges nothing for a cheaper or the same plan', () => {
    const start = new Date('2027-01-01T00:00:00Z');
    const period = { periodStart: start, periodEnd: new Date(start.getTime() + 30 * DAY), now: start };
    expect(proRatedUpgradeCents(1999, 999, period)).toBe(0);
    expect(proRatedUpgradeCents(999, 999, period)).toBe(0);
  });
});

describe('gstOfCents: 1/11 of a GST-inclusive amount, to the cent', () => {
  it('is $1.82 of $19.99, $0.91 of $9.99, $0.61 of $6.66', () => {
    expect(gstOfCents(1999)).toBe(182);
    expect(gstOfCents(999)).toBe(91);
    expect(gstOfCents(666)).toBe(61);
    expect(gstOfCents(0)).toBe(0);
  });
});

describe('renewalPeriodStart: a renewal charged late does not bill the months missed', () => {
  it(`keeps the renewal date when charged within ${RENEWAL_RULES.lateAfterMs / DAY} day of it, else starts the period now`, () => {
    const renewsOn = new Date('2027-01-12T00:00:00Z');
    expect(renewalPeriodStart(renewsOn, new Date(renewsOn.getTime() + 60_000))).toEqual(renewsOn);
    expect(renewalPeriodStart(renewsOn, new Date(renewsOn.getTime() + RENEWAL_RULES.lateAfterMs))).toEqual(renewsOn);
    const late = new Date(renewsOn.getTime() + 90 * DAY);
    expect(renewalPeriodStart(renewsOn, late)).toEqual(late);
  });

  it('retries a declined renewal twice, a day apart, then lapses', () => {
    expect(RENEWAL_RULES).toMatchObject({ attempts: 3, retryAfterMs: DAY, reminderBeforeMs: 7 * DAY });
  });
});
