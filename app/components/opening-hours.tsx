import { useEffect, useState } from 'react';
import type { OpeningHours as OpeningHoursEntry } from '../../contracts/shop-info.ts';
import {
  describeOpeningStatus,
  formatClosedDate,
  formatHours,
  localTime,
  openingStatus,
  SHOP_TIME_ZONE,
  upcomingClosedDates,
} from '../lib/opening-hours.ts';

/**
 * The current time, starting from the server's render time so hydration matches,
 * then following the shopper's clock once per `intervalMs`.
 */
export function useNow(renderedAt: number, intervalMs: number): number {
  const [now, setNow] = useState(renderedAt);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

interface OpeningHoursProps {
  hours: OpeningHoursEntry[];
  /** When the server rendered the page (epoch ms): the first "open now" and "today" match the HTML. */
  renderedAt: number;
  /** ISO dates the store is closed (SHOP_CLOSED_DATES); the next few are listed under the week. */
  closedDates?: readonly string[];
}

/** The store's week (spec §2: Mon–Fri 8:00–17:00, Sat 9:00–16:00, Sun closed) with today marked and "open now". */
export function OpeningHours({ hours, renderedAt, closedDates = [] }: OpeningHoursProps) {
  const now = useNow(renderedAt, 60_000);
  const status = openingStatus(hours, new Date(now), SHOP_TIME_ZONE, closedDates);
  const closures = upcomingClosedDates(closedDates, new Date(now));
  const { weekday } = localTime(new Date(now), SHOP_TIME_ZONE);
  return (
    <div>
      <p
        className={`inline-flex items-center gap-2 rounded-full px-3 py-1 text-sm font-semibold ${
          status.open ? 'bg-green-50 text-stock-in' : 'bg-gray-100 text-gray-700'
        }`}
      >
        <span aria-hidden="true" className={`size-2 rounded-full ${status.open ? 'bg-stock-in' : 'bg-gray-500'}`} />
        {describeOpeningStatus(status)}
      </p>
      <dl className="mt-3 divide-y divide-gray-200 text-sm">
        {hours.map((entry) => {
          const isToday = entry.days.includes(weekday);
          return (
            <div key={entry.label} className={`flex justify-between gap-4 py-2 ${isToday ? 'font-semibold' : ''}`}>
              <dt>
                <abbr
                  title={entry.days.length > 1 ? `${entry.days[0]} to ${entry.days.at(-1)}` : entry.days[0]}
                  className="no-underline"
                >
                  {entry.label}
                </abbr>
                {isToday ? <span className="ml-2 text-xs font-normal text-gray-600">(today)</span> : null}
              </dt>
              <dd className="tabular">{formatHours(entry)}</dd>
            </div>
          );
        })}
      </dl>
      {closures.length > 0 ? (
        <p className="mt-2 text-sm text-gray-700">
          Closed on {closures.map(formatClosedDate).join('; ')} (public holidays).
        </p>
      ) : null}
    </div>
  );
}
