/*
 * The store's opening hours and closed days as configuration (SHOP_HOURS, SHOP_CLOSED_DATES):
 * parsed and checked once at start, then shown by the store page, the footer, the contact and
 * shipping pages and click & collect alike.
 */

import type { OpeningHours } from '../contracts/shop-info.ts';

/** Spec §2's hours, in SHOP_HOURS's own words. */
export const DEFAULT_SHOP_HOURS = 'Mon-Fri 08:00-17:00; Sat 09:00-16:00; Sun closed';

const WEEK = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
const FORMAT = 'write days and hours like "Mon-Fri 08:00-17:00; Sat 09:00-16:00; Sun closed"';

export class ShopHoursError extends Error {
  override name = 'ShopHoursError';
}

function dayIndex(text: string): number {
  const index = SHORT.findIndex((day) => day.toLowerCase() === text.slice(0, 3).toLowerCase());
  // "Mon", "Monday", "mon": the three letters must start a real day name.
  if (index < 0 || !WEEK[index]!.toLowerCase().startsWith(text.toLowerCase())) return -1;
  return text.length >= 3 ? index : -1;
}

function time(text: string): string | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 24 || minutes > 59 || (hours === 24 && minutes > 0)) return null;
  return `${String(hours).padStart(2, '0')}:${match[2]}`;
}

/**
 * "Mon-Fri 08:00-17:00; Sat 09:00-16:00; Sun closed" → one entry per group, in the order
 * written. Every day of the week must be named exactly once (a closed day as "closed"), so a
 * typo cannot silently close the store; anything else throws a ShopHoursError saying what.
 */
export function parseShopHours(text: string): OpeningHours[] {
  const groups = text
    .split(/[;\n]/)
    .map((group) => group.trim())
    .filter(Boolean);
  if (groups.length === 0) throw new ShopHoursError(`is empty: ${FORMAT}`);
  const seen = new Set<number>();
  const entries: OpeningHours[] = [];
  for (const group of groups) {
    const match = /^([A-Za-z]+)(?:\s*[-–]\s*([A-Za-z]+))?\s+(.+)$/.exec(group);
    if (!match) throw new ShopHoursError(`cannot read "${group}": ${FORMAT}`);
    const first = dayIndex(match[1]!);
    const last = match[2] === undefined ? first : dayIndex(match[2]);
    if (first < 0) throw new ShopHoursError(`"${match[1]}" is not a day of the week (Mon, Tue, … Sun)`);
    if (last < 0) throw new ShopHoursError(`"${match[2]}" is not a day of the week (Mon, Tue, … Sun)`);
    if (last < first) throw new ShopHoursError(`"${group}": a range of days runs Monday to Sunday (e.g. Mon-Fri)`);
    const days: number[] = [];
    for (let index = first; index <= last; index += 1) {
      if (seen.has(index)) throw new ShopHoursError(`${WEEK[index]} is given twice`);
      seen.add(index);
      days.push(index);
    }
    const hours = match[3]!.trim();
    let opens: string | null = null;
    let closes: string | null = null;
    if (hours.toLowerCase() !== 'closed') {
      const range = /^(\S+)\s*[-–]\s*(\S+)$/.exec(hours);
      opens = range ? time(range[1]!) : null;
      closes = range ? time(range[2]!) : null;
      if (!opens || !closes) throw new ShopHoursError(`"${hours}" is not hours like 08:00-17:00 or "closed"`);
      if (closes <= opens) throw new ShopHoursError(`"${group}": the store must close after it opens`);
    }
    entries.push({
      days: days.map((index) => WEEK[index]!),
      label: days.length > 1 ? `${SHORT[first]}–${SHORT[last]}` : SHORT[first]!,
      opens,
      closes,
    });
  }
  const missing = WEEK.filter((_, index) => !seen.has(index));
  if (missing.length > 0)
    throw new ShopHoursError(`${missing.join(', ')} ${missing.length > 1 ? 'have' : 'has'} no hours: ${FORMAT}`);
  return entries;
}

/**
 * "2026-12-25, 2026-12-26" → the sorted, distinct ISO dates the store is closed (public
 * holidays), on the shop's (Sydney's) calendar. A date that does not exist throws.
 */
export function parseClosedDates(text: string): string[] {
  const dates = text
    .split(/[,;\s]+/)
    .map((date) => date.trim())
    .filter(Boolean);
  for (const date of dates) {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
    const parsed = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
    if (!parsed || parsed.toISOString().slice(0, 10) !== date)
      throw new ShopHoursError(`"${date}" is not a date like 2026-12-25`);
  }
  return [...new Set(dates)].sort();
}

/** "Mon–Fri 8:00–17:00, Sat 9:00–16:00, Sun closed": the week on one line, for e-mails. */
export function describeWeek(hours: readonly OpeningHours[]): string {
  const short = (time: string) => time.replace(/^0(\d)/, '$1');
  return hours
    .map((entry) =>
      entry.opens && entry.closes
        ? `${entry.label} ${short(entry.opens)}–${short(entry.closes)}`
        : `${entry.label} closed`,
    )
    .join(', ');
}
