/** Whole days, hours, minutes and seconds until a moment; all zero once it has passed. */
export interface CountdownParts {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** True once the moment has been reached. */
  done: boolean;
}

/**
 * Splits the time from `now` to `target` (both epoch milliseconds) into parts.
 * Rounds down, like a wall clock: 1.9 s left shows as 1 s.
 */
export function countdownParts(target: number, now: number): CountdownParts {
  const remaining = Math.max(0, target - now);
  const totalSeconds = Math.floor(remaining / 1000);
  return {
    days: Math.floor(totalSeconds / 86_400),
    hours: Math.floor((totalSeconds % 86_400) / 3600),
    minutes: Math.floor((totalSeconds % 3600) / 60),
    seconds: totalSeconds % 60,
    done: remaining === 0,
  };
}

/** Milliseconds until the displayed value next changes, so ticks land on second boundaries and do not drift. */
export function msUntilNextTick(target: number, now: number): number {
  const remaining = target - now;
  if (remaining <= 0) return Number.POSITIVE_INFINITY;
  return remaining % 1000 || 1000;
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** "30 days, 12 hours and 45 minutes": the countdown in words, to the minute, for screen readers. */
export function describeCountdown(parts: CountdownParts): string {
  if (parts.done) return 'Launched';
  const pieces = [
    parts.days > 0 ? plural(parts.days, 'day') : null,
    parts.days > 0 || parts.hours > 0 ? plural(parts.hours, 'hour') : null,
    plural(parts.minutes, 'minute'),
  ].filter((piece): piece is string => piece !== null);
  if (parts.days === 0 && parts.hours === 0 && parts.minutes === 0) return `less than a minute`;
  return pieces.length === 1 ? pieces[0]! : `${pieces.slice(0, -1).join(', ')} and ${pieces.at(-1)}`;
}
