import { describe, expect, it } from 'vitest';
import { countdownParts, describeCountdown, msUntilNextTick } from '../../app/lib/countdown.ts';
import { directionsUrl, friendlyMapError, isMapsKeyError, MAP_ERRORS } from '../../app/lib/google-maps.ts';
import { describeOpeningStatus, formatHours, localTime, openingStatus } from '../../app/lib/opening-hours.ts';
import { contactMessageSchema, parseOrderNumber } from '../../contracts/contact.ts';
import { loadConfig } from '../../server/config.ts';
import { DEMO_KIT_COUNTDOWN_MS, demoKitLaunchDate } from '../../server/domain/kit-launch.ts';

/** The hours a shop with no SHOP_HOURS shows: spec §2's. */
const OPENING_HOURS = loadConfig({}).shop.openingHours;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('countdownParts', () => {
  it('splits the spec’s fixed countdown into 30 days, 12 hours, 45 minutes', () => {
    expect(countdownParts(DEMO_KIT_COUNTDOWN_MS, 0)).toEqual({
      days: 30,
      hours: 12,
      minutes: 45,
      seconds: 0,
      done: false,
    });
  });

  it('rounds down like a clock: 1 ms less shows the previous second', () => {
    expect(countdownParts(DEMO_KIT_COUNTDOWN_MS, 1)).toEqual({
      days: 30,
      hours: 12,
      minutes: 44,
      seconds: 59,
      done: false,
    });
    expect(countdownParts(1999, 0)).toMatchObject({ seconds: 1, done: false });
  });

  it('carries across every unit', () => {
    expect(countdownParts(DAY + HOUR + MINUTE + SECOND, 0)).toEqual({
      days: 1,
      hours: 1,
      minutes: 1,
      seconds: 1,
      done: false,
    });
    expect(countdownParts(DAY - 1, 0)).toEqual({ days: 0, hours: 23, minutes: 59, seconds: 59, done: false });
  });

  it('stops at zero and reports done once the moment has passed', () => {
    expect(countdownParts(1000, 1000)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0, done: true });
    expect(countdownParts(1000, 5000)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0, done: true });
  });

  it('schedules the next tick on the next second boundary', () => {
    expect(msUntilNextTick(10_000, 0)).toBe(1000);
    expect(msUntilNextTick(10_000, 250)).toBe(750);
    expect(msUntilNextTick(10_000, 10_000)).toBe(Number.POSITIVE_INFINITY);
  });

  it('puts the time in words, to the minute, for screen readers', () => {
    expect(describeCountdown(countdownParts(DEMO_KIT_COUNTDOWN_MS, 0))).toBe('30 days, 12 hours and 45 minutes');
    expect(describeCountdown(countdownParts(DAY + MINUTE, 0))).toBe('1 day, 0 hours and 1 minute');
    expect(describeCountdown(countdownParts(2 * HOUR + 30 * SECOND, 0))).toBe('2 hours and 0 minutes');
    expect(describeCountdown(countdownParts(5 * MINUTE, 0))).toBe('5 minutes');
    expect(describeCountdown(countdownParts(30 * SECOND, 0))).toBe('less than a minute');
    expect(describeCountdown(countdownParts(0, 0))).toBe('Launched');
  });
});

describe('demo kit launch date', () => {
  it('is 30 days, 12 hours and 45 minutes after the first start', () => {
    const firstStart = new Date('2025-03-01T00:00:00.000Z');
    expect(demoKitLaunchDate(firstStart).toISOString()).toBe('2025-03-31T12:45:00.000Z');
  });
});

describe('opening hours', () => {
  // Sydney is UTC+11 in summer (AEDT) and UTC+10 in winter (AEST).
  const sydney = (iso: string) => new Date(iso);

  it('writes the hours the way spec §2 does', () => {
    expect(OPENING_HOURS.map((entry) => `${entry.label} ${formatHours(entry)}`)).toEqual([
      'Mon–Fri 8:00–17:00',
      'Sat 9:00–16:00',
      'Sun Closed',
    ]);
  });

  it('reads the weekday and time in Sydney, not on the server’s clock', () => {
    // 22:30 UTC on a Sunday is 9:30 on Monday in Sydney (AEDT).
    expect(localTime(sydney('2025-01-12T22:30:00Z'), 'Australia/Sydney')).toEqual({ weekday: 'Monday', minutes: 570 });
  });

  it('is open on a weekday between 8:00 and 17:00, closing at 17:00', () => {
    const status = openingStatus(OPENING_HOURS, sydney('2025-01-13T01:00:00Z')); // Mon 12:00 AEDT
    expect(status).toEqual({ open: true, closes: '17:00' });
    expect(describeOpeningStatus(status)).toBe('Open now · closes at 17:00');
  });

  it('opens at 8:00 sharp and closes at 17:00 sharp', () => {
    expect(openingStatus(OPENING_HOURS, sydney('2025-01-12T21:00:00Z')).open).toBe(true); // Mon 8:00
    expect(openingStatus(OPENING_HOURS, sydney('2025-01-12T20:59:00Z')).open).toBe(false); // Mon 7:59
    expect(openingStatus(OPENING_HOURS, sydney('2025-01-13T06:00:00Z')).open).toBe(false); // Mon 17:00
  });

  it('says when it opens later the same day', () => {
    const status = openingStatus(OPENING_HOURS, sydney('2025-01-12T19:00:00Z')); // Mon 6:00
    expect(describeOpeningStatus(status)).toBe('Closed now · opens today at 8:00');
  });

  it('keeps Saturday hours and skips the closed Sunday', () => {
    expect(describeOpeningStatus(openingStatus(OPENING_HOURS, sydney('2025-01-17T07:00:00Z')))).toBe(
      'Closed now · opens tomorrow at 9:00',
    ); // Fri 18:00
    expect(openingStatus(OPENING_HOURS, sydney('2025-01-17T22:30:00Z'))).toEqual({ open: true, closes: '16:00' }); // Sat 9:30
    expect(describeOpeningStatus(openingStatus(OPENING_HOURS, sydney('2025-01-18T05:00:00Z')))).toBe(
      'Closed now · opens Monday at 8:00',
    ); // Sat 16:00
    expect(describeOpeningStatus(openingStatus(OPENING_HOURS, sydney('2025-01-19T01:00:00Z')))).toBe(
      'Closed now · opens tomorrow at 8:00',
    ); // Sun 12:00
  });

  it('follows daylight saving: 8:00 in July is 22:00 UTC the day before', () => {
    expect(openingStatus(OPENING_HOURS, sydney('2025-07-13T22:00:00Z')).open).toBe(true); // Mon 8:00 AEST
    expect(openingStatus(OPENING_HOURS, sydney('2025-07-13T21:59:00Z')).open).toBe(false);
  });

  it('reports never opening when no day has hours', () => {
    const closed = OPENING_HOURS.map((entry) => ({ ...entry, opens: null, closes: null }));
    expect(describeOpeningStatus(openingStatus(closed, sydney('2025-01-13T01:00:00Z')))).toBe('Closed');
  });
});

describe('contact message schema', () => {
  const valid = {
    name: 'Sam Builder',
    email: 'sam@example.com',
    subject: 'Drill question',
    message: 'Does the DCD791 come with two batteries?',
  };

  it('accepts a message and treats blank optional fields as not given', () => {
    expect(contactMessageSchema.parse({ ...valid, phone: '  ', orderNumber: '' })).toEqual({
      ...valid,
      phone: undefined,
      orderNumber: undefined,
    });
  });

  it('trims every field', () => {
    const parsed = contactMessageSchema.parse({
      ...valid,
      name: '  Sam  ',
      email: ' sam@example.com ',
      phone: ' 0412 345 678 ',
    });
    expect(parsed).toMatchObject({ name: 'Sam', email: 'sam@example.com', phone: '0412 345 678' });
  });

  it.each([
    ['name', { name: '   ' }, 'Please enter your name'],
    ['name', { name: undefined }, 'Please enter your name'],
    ['email', { email: 'not-an-email' }, 'Please enter a valid email address, e.g. name@example.com'],
    ['email', { email: '' }, 'Please enter your email address'],
    ['phone', { phone: 'call me' }, 'Please enter a valid phone number, e.g. 0412 345 678'],
    ['phone', { phone: '123' }, 'Please enter a valid phone number, e.g. 0412 345 678'],
    ['subject', { subject: '' }, 'Please enter a subject'],
    ['message', { message: 'hi' }, 'Please tell us a little more (at least 10 characters)'],
    ['message', { message: 'x'.repeat(5001) }, 'Message must be 5,000 characters or fewer'],
    ['orderNumber', { orderNumber: 'DROP TABLE;' }, 'Order numbers contain only letters, numbers and dashes'],
  ])('gives %s a clear message', (field, change, message) => {
    const result = contactMessageSchema.safeParse({ ...valid, ...change });
    expect(result.success).toBe(false);
    const issue = result.error?.issues.find((candidate) => candidate.path[0] === field);
    expect(issue?.message).toBe(message);
  });

  it('takes an order number from a link only when it is one', () => {
    expect(parseOrderNumber('HT-100042')).toBe('HT-100042');
    expect(parseOrderNumber(' HT-100042 ')).toBe('HT-100042');
    expect(parseOrderNumber('<script>')).toBeUndefined();
    expect(parseOrderNumber(null)).toBeUndefined();
  });
});

describe('map helpers', () => {
  it('keeps the spec §8 map texts word for word', () => {
    expect(Object.values(MAP_ERRORS)).toEqual([
      'Missing Google Maps API key. Please provide one.',
      'Failed to load Google Maps script. Check your key and restrictions.',
      'Google Maps failed to initialize.',
      'Failed to create map instance.',
      'Map is not ready yet.',
      'Directions renderer not ready.',
      'Could not calculate directions. Try again later.',
      'Unable to fetch your location.',
      'Geolocation is not supported by your browser.',
    ]);
  });

  it('rewrites invalid key, referrer and billing errors into plain words', () => {
    const invalid = friendlyMapError(
      'Google Maps JavaScript API error: InvalidKeyMapError https://developers.google.com/…',
    );
    const referrer = friendlyMapError('Google Maps JavaScript API error: RefererNotAllowedMapError');
    const billing = friendlyMapError('Google Maps JavaScript API error: BillingNotEnabledMapError');
    expect(invalid).toMatch(/key is not valid/);
    expect(referrer).toMatch(/not enabled for this website/);
    expect(billing).toMatch(/temporarily unavailable/);
    for (const text of [invalid, referrer, billing, friendlyMapError(undefined)]) {
      expect(text).not.toMatch(/MapError|API/);
    }
    expect(isMapsKeyError('Google Maps JavaScript API error: InvalidKeyMapError')).toBe(true);
    expect(isMapsKeyError('Some other error')).toBe(false);
  });

  it('links directions to the store’s coordinates', () => {
    expect(directionsUrl({ latitude: -33.8356, longitude: 151.0466 })).toBe(
      'https://www.google.com/maps/dir/?api=1&destination=-33.8356,151.0466&travelmode=driving',
    );
  });
});
