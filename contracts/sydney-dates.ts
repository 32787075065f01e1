/**
 * Dates as the shop's shoppers read them, on the shop's (Sydney's) calendar, for pages and
 * e-mails alike: one set of formatters, so the order page, its timeline, its refunds and the
 * e-mails about them never disagree about the day.
 */

const SYDNEY_DAY = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Australia/Sydney',
});

const SYDNEY_MOMENT = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'Australia/Sydney',
});

/** "28 December 2026". */
export function formatSydneyDay(date: Date): string {
  return SYDNEY_DAY.format(date);
}

/** "28 December 2026 at 3:04 pm". */
export function formatSydneyMoment(date: Date): string {
  return SYDNEY_MOMENT.format(date);
}
