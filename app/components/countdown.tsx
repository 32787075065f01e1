import { useEffect, useState } from 'react';
import { countdownParts, describeCountdown, msUntilNextTick } from '../lib/countdown.ts';

interface CountdownProps {
  /** The moment counted down to, as an ISO timestamp. */
  target: string;
  /** When the server rendered the page (epoch ms): the first render matches the HTML exactly. */
  renderedAt: number;
}

const UNITS = [
  ['days', 'Days'],
  ['hours', 'Hours'],
  ['minutes', 'Minutes'],
  ['seconds', 'Seconds'],
] as const;

/**
 * Days, hours, minutes and seconds to `target`, ticking every second on the
 * shopper's clock. The ticking digits are hidden from screen readers (which
 * would otherwise be tempted to read every second); they get the time in words,
 * to the minute, in a timer region that is not announced by itself.
 */
export function Countdown({ target, renderedAt }: CountdownProps) {
  const targetMs = Date.parse(target);
  const [now, setNow] = useState(renderedAt);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const current = Date.now();
      setNow(current);
      const delay = msUntilNextTick(targetMs, current);
      // A few ms past the boundary, so the next reading has certainly crossed it.
      if (Number.isFinite(delay)) timer = setTimeout(tick, delay + 5);
    };
    tick();
    return () => clearTimeout(timer);
  }, [targetMs]);

  const parts = countdownParts(targetMs, now);
  return (
    <div role="timer" aria-label="Time until launch" data-testid="countdown">
      <p className="sr-only">
        {parts.done ? 'The launch date has arrived.' : `Launching in ${describeCountdown(parts)}.`}
      </p>
      {parts.done ? (
        <p aria-hidden="true" className="font-display text-4xl font-bold uppercase text-accent sm:text-6xl">
          Launch day is here
        </p>
      ) : (
        <ol aria-hidden="true" className="grid grid-cols-4 gap-2 sm:gap-4">
          {UNITS.map(([unit, label]) => (
            <li
              key={unit}
              className="flex flex-col items-center rounded-lg border border-white/15 bg-navy-950/70 px-1 py-3 sm:px-4 sm:py-5"
            >
              <span
                data-unit={unit}
                className="tabular font-display text-4xl font-bold leading-none text-accent sm:text-7xl"
              >
                {String(parts[unit]).padStart(2, '0')}
              </span>
              <span className="mt-2 text-[0.7rem] font-semibold uppercase tracking-wider text-gray-200 sm:text-sm sm:tracking-widest">
                {label}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
