import type { OpeningHours } from '../../contracts/shop-info.ts';

/** The store is in Sydney: "open now" and the launch date are shown in its time, wherever the shopper is. */
export const SHOP_TIME_ZONE = 'Australia/Sydney';

const WEEK = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** "08:00" → 480. */
function toMinutes(time: string): number {
  const [hours = '0', minutes = '0'] = time.split(':');
  return Number(hours) * 60 + Number(minutes);
}

/** "08:00" → "8:00": the spec's way of writing hours (Mon–Fri 8:00–17:00). */
export function formatTime(time: string): string {
  return time.replace(/^0(\d)/, '$1');
}

/** "8:00–17:00", or "Closed" for a day without hours. */
export function formatHours(entry: OpeningHours): string {
  return entry.opens && entry.closes ? `${formatTime(entry.opens)}–${formatTime(entry.closes)}` : 'Closed';
}

/**
 * One formatter per time zone and purpose, made once: making an `Intl.DateTimeFormat` costs far
 * more than formatting with it (the footer's closed dates made one per render: 6 % of a listing
 * page's CPU).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

/** The weekday name and minutes since midnight of `now` in the given time zone. */
export function localTime(now: Date, timeZone: string): { weekday: string; minutes: number } {
  const parts = formatterOf(
    `time ${timeZone}`,
    () =>
      new Intl.DateTimeFormat('en-AU', {
        timeZone,
        weekday: 'long',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }),
  ).formatToParts(now);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return { weekday: get('weekday'), minutes: (Number(get('hour')) % 24) * 60 + Number(get('minute')) };
}

function hoursFor(hours: OpeningHours[], weekday: string): OpeningHours | undefined {
  return hours.find((entry) => entry.days.includes(weekday));
}

export type OpeningStatus =
  | { open: true; closes: string }
  | { open: false; next: { weekday: string; opens: string; when: 'today' | 'tomorrow' | 'later' } | null };

/** "2026-12-25": the calendar date of `now` in the given time zone. */
export function localDate(now: Date, timeZone: string): string {
  return formatterOf(
    `date ${timeZone}`,
    () => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  ).format(now);
}

/** The ISO date `days` after `date` (calendar days, so daylight saving cannot skip one). */
function addDays(date: string, days: number): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + days);
  return next.toISOString().slice(0, 10);
}

/**
 * Whether the store is open at `now`, and when it closes or next opens. `closedDates` (ISO
 * dates, SHOP_CLOSED_DATES) are closed whatever their weekday's hours say.
 */
export function openingStatus(
  hours: OpeningHours[],
  now: Date,
  timeZone = SHOP_TIME_ZONE,
  closedDates: readonly string[] = [],
): OpeningStatus {
  const { weekday, minutes } = localTime(now, timeZone);
  const todayDate = localDate(now, timeZone);
  const today = closedDates.includes(todayDate) ? undefined : hoursFor(hours, weekday);
  if (today?.opens && today.closes) {
    if (minutes >= toMinutes(today.opens) && minutes < toMinutes(today.closes)) {
      return { open: true, closes: today.closes };
    }
    if (minutes < toMinutes(today.opens)) return { open: false, next: { weekday, opens: today.opens, when: 'today' } };
  }
  const start = WEEK.indexOf(weekday as (typeof WEEK)[number]);
  // A fortnight ahead: a run of public holidays can close the store for more than a week.
  for (let offset = 1; offset <= 14; offset += 1) {
    const day = WEEK[(start + offset) % 7]!;
    if (closedDates.includes(addDays(todayDate, offset))) continue;
    const entry = hoursFor(hours, day);
    if (entry?.opens)
      return { open: false, next: { weekday: day, opens: entry.opens, when: offset === 1 ? 'tomorrow' : 'later' } };
  }
  return { open: false, next: null };
}

/** The closed dates from today on (Sydney's calendar), the nearest first, at most `limit` of them. */
export function upcomingClosedDates(
  closedDates: readonly string[],
  now: Date,
  limit = 3,
  timeZone = SHOP_TIME_ZONE,
): string[] {
  const today = localDate(now, timeZone);
  return closedDates.filter((date) => date >= today).slice(0, limit);
}

/** "2026-12-25" → "Fri, 25 Dec 2026": a closed date as a shopper reads it. */
export function formatClosedDate(date: string): string {
  return formatterOf(
    'closed date',
    () =>
      new Intl.DateTimeFormat('en-AU', {
        timeZone: 'UTC',
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
      }),
  ).format(new Date(`${date}T00:00:00Z`));
}

/** "Open now · closes at 17:00" / "Closed now · opens Monday at 8:00". */
export function describeOpeningStatus(status: OpeningStatus): string {
  if (status.open) return `Open now · closes at ${formatTime(status.closes)}`;
  if (!status.next) return 'Closed';
  const { weekday, opens, when } = status.next;
  const day = when === 'later' ? weekday : when;
  return `Closed now · opens ${day} at ${formatTime(opens)}`;
}
