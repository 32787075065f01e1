import { getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { releaseHeap, releaseHeapIfGrown } from '../../server/release-heap.ts';

const MB = 1024 * 1024;
const committed = () => getHeapStatistics().total_heap_size;

/** Grows the heap by about `mb` MB of arrays that survive into the old generation, then drops them. */
function growHeap(mb: number): void {
  let kept: number[][] = [];
  for (let index = 0; index < mb / 2; index++) kept.push(Array.from({ length: 131_072 }, (_, at) => at + 0.5));
  expect(kept).toHaveLength(mb / 2);
  kept = [];
}

// Each test allocates and collects hundreds of MB: ~4 s alone, past 5 s beside another test file.
describe('releaseHeap', { timeout: 30_000 }, () => {
  it('hands back heap V8 grew for garbage, without --expose-gc left on', () => {
    growHeap(300);
    const before = committed();
    const pauseMs = releaseHeap();
    expect(before - committed()).toBeGreaterThan(200 * MB);
    expect(pauseMs).toBeGreaterThan(0);
    // The flag was on only while the collector was taken: a context made now has no gc.
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });

  it('releaseHeapIfGrown pauses only once the heap has grown by the slack since the last release', () => {
    growHeap(200);
    expect(releaseHeapIfGrown(64 * MB)).not.toBeNull();
    expect(releaseHeapIfGrown(64 * MB)).toBeNull();
    growHeap(200);
    const before = committed();
    expect(releaseHeapIfGrown(64 * MB)).not.toBeNull();
    expect(before - committed()).toBeGreaterThan(100 * MB);
  });
});
