import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type CollectGarbage = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let collectGarbage: CollectGarbage | undefined;

/**
 * V8's own collector function, which Node hands out only under `--expose-gc`: the flag is
 * turned on just long enough for one new context to carry it (as jest's leak detector does),
 * then off again, so no other context or global gains a `gc`.
 */
function collector(): CollectGarbage {
  if (collectGarbage) return collectGarbage;
  const exposed = (globalThis as { gc?: CollectGarbage }).gc;
  if (exposed) {
    collectGarbage = exposed;
    return exposed;
  }
  setFlagsFromString('--expose-gc');
  try {
    collectGarbage = runInNewContext('gc') as CollectGarbage;
  } finally {
    // Left on when the process was started with it (a context made later expects its gc).
    const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
    if (!given.some((flag) => flag === '--expose-gc' || flag === '--expose_gc')) setFlagsFromString('--no-expose-gc');
  }
  return collectGarbage;
}

/**
 * Hands back to the system the heap a burst of work grew (a suggestion index build, the
 * demo seed): one full, memory-reducing collection, synchronous. V8 sizes its young
 * generation and old-space limits to the busiest moment it has seen and keeps them; after
 * a build at 100,000 products it held ~370 MB of heap for ~80 MB live, until the process
 * ended, because a mostly idle or cached-answer server never allocates enough to collect it.
 * Costs one pause (tens of ms for the shop's ~80 MB live), so it is for after rare bursts,
 * never per request. Returns how long the pause took, in ms.
 */
export function releaseHeap(): number {
  const collect = collector();
  const startedAt = performance.now();
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return performance.now() - startedAt;
}

/**
 * V8's committed heap after the last release, or when this module was loaded (the shop loads
 * it with its services, before the database opens and the demo seed runs): growth is
 * measured from here.
 */
let committedAfterRelease = getHeapStatistics().total_heap_size;

/**
 * `releaseHeap` when the committed heap has grown by more than `slackBytes` since the last
 * release (or since this module was loaded), so a small build, or a test process building
 * many small indexes, pays no pause for nothing. Returns the pause in ms, or null when it
 * did not run.
 */
export function releaseHeapIfGrown(slackBytes = 64 * 1024 * 1024): number | null {
  if (getHeapStatistics().total_heap_size - committedAfterRelease < slackBytes) return null;
  const pauseMs = releaseHeap();
  committedAfterRelease = getHeapStatistics().total_heap_size;
  return pauseMs;
}
