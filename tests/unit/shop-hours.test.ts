import { describe, expect, it } from 'vitest';
import { formatClosedDate, openingStatus, upcomingClosedDates } from '../../app/lib/opening-hours.ts';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { parseClosedDates, parseShopHours } from '../../server/shop-hours.ts';

/*
 * Issue 27 item 7: opening hours and closed days are configuration (SHOP_HOURS,
 * SHOP_CLOSED_DATES), parsed and checked at start; a bad value stops the server with a message
 * naming the variable and what is wrong.
 */

describe('SHOP_HOURS', () => {
  it('defaults to spec §2’s hours: Mon–Fri 8:00–17:00, Sat 9:00–16:00, Sun closed', () => {
    expect(loadConfig({}).shop.openingHours).toEqual([
      {
        days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
        label: 'Mon–Fri',
        opens: '08:00',
        closes: '17:00',
      },
      { days: ['Saturday'], label: 'Sat', opens: '09:00', closes: '16:00' },
      { days: ['Sunday'], label: 'Sun', opens: null, closes: null },
    ]);
  });

  it('reads other hours, day names in any case, single days and an en dash', () => {
    const hours = loadConfig({
      SHOP_HOURS: 'mon-thu 7:30-17:00; Friday 07:30–18:00; Sat 08:00-12:00; Sun closed',
    }).shop.openingHours;
    expect(hours.map((entry) => [entry.label, entry.opens, entry.closes])).toEqual([
      ['Mon–Thu', '07:30', '17:00'],
      ['Fri', '07:30', '18:00'],
      ['Sat', '08:00', '12:00'],
      ['Sun', null, null],
    ]);
  });

  it.each([
    ['', 'is empty'],
    ['Mon-Fri 08:00-17:00; Sat 09:00-16:00', 'Sunday has no hours'],
    ['Mon-Fri 08:00-17:00; Fri 09:00-16:00; Sat-Sun closed', 'Friday is given twice'],
    ['Mon-Fri 8-5; Sat-Sun closed', '"8-5" is not hours like 08:00-17:00 or "closed"'],
    ['Mon-Fri 17:00-08:00; Sat-Sun closed', 'the store must close after it opens'],
    ['Mon-Fri 08:00-25:00; Sat-Sun closed', 'is not hours like'],
    ['Fri-Mon 08:00-17:00; Tue-Thu closed', 'a range of days runs Monday to Sunday'],
    ['Mo-Fr 08:00-17:00; Sat-Sun closed', '"Mo" is not a day of the week'],
    ['weekdays', 'cannot read "weekdays"'],
  ])('refuses SHOP_HOURS=%j at start: %s', (value, message) => {
    const start = () => parseShopHours(value);
    if (value !== '') expect(start).toThrow(message);
    expect(() => loadConfig({ SHOP_HOURS: value || ' ' })).toThrow(ConfigError);
    expect(() => loadConfig({ SHOP_HOURS: value || ' ' })).toThrow(/^Invalid configuration:\n {2}SHOP_HOURS: /);
  });
});

describe('SHOP_CLOSED_DATES', () => {
  it('is empty by default and reads comma-separated ISO dates, sorted and without repeats', () => {
    expect(loadConfig({}).shop.closedDates).toEqual([]);
    expect(loadConfig({ SHOP_CLOSED_DATES: '2026-12-26, 2026-12-25,2027-01-01, 2026-12-25' }).shop.closedDates).toEqual(
      ['2026-12-25', '2026-12-26', '2027-01-01'],
    );
  });

  it.each([
    ['25/12/2026', '"25/12/2026" is not a date like 2026-12-25'],
    ['2026-02-30', '"2026-02-30" is not a date like 2026-12-25'],
    ['2026-12-25, christmas', '"christmas" is not a date'],
  ])('refuses SHOP_CLOSED_DATES=%j at start: %s', (value, message) => {
    expect(() => parseClosedDates(value)).toThrow(message);
    expect(() => loadConfig({ SHOP_CLOSED_DATES: value })).toThrow(/^Invalid configuration:\n {2}SHOP_CLOSED_DATES: /);
  });

  it('closes the store on a closed date whatever its weekday, and says when it opens next', () => {
    const hours = loadConfig({}).shop.openingHours;
    // Friday 25 December 2026, 10:00 in Sydney (AEDT, UTC+11).
    const christmas = new Date('2026-12-24T23:00:00Z');
    expect(openingStatus(hours, christmas)).toEqual({ open: true, closes: '17:00' });
    expect(openingStatus(hours, christmas, 'Australia/Sydney', ['2026-12-25'])).toEqual({
      open: false,
      next: { weekday: 'Saturday', opens: '09:00', when: 'tomorrow' },
    });
    // Boxing Day closed too: the next opening is Monday.
    expect(openingStatus(hours, christmas, 'Australia/Sydney', ['2026-12-25', '2026-12-26'])).toMatchObject({
      open: false,
      next: { weekday: 'Monday', when: 'later' },
    });
  });

  it('lists the closed dates still ahead on Sydney’s calendar', () => {
    const dates = ['2026-01-26', '2026-12-25', '2026-12-26', '2027-01-01', '2027-01-26'];
    // 23:30 UTC on 24 December is already the 25th in Sydney.
    expect(upcomingClosedDates(dates, new Date('2026-12-24T23:30:00Z'))).toEqual([
      '2026-12-25',
      '2026-12-26',
      '2027-01-01',
    ]);
    expect(formatClosedDate('2026-12-25')).toBe('Fri, 25 Dec 2026');
  });
});
