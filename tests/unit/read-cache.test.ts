import { describe, expect, it } from 'vitest';
import { createReadCache } from '../../server/domain/read-cache.ts';

function counter() {
  let calls = 0;
  return {
    load: async () => ++calls,
    get calls() {
      return calls;
    },
  };
}

describe('createReadCache', () => {
  it('serves a fresh value without loading again', async () => {
    let clock = 0;
    const cache = createReadCache({ ttlMs: 1000, maxEntries: 10, now: () => clock });
    const source = counter();
    expect(await cache.read('a', source.load)).toBe(1);
    clock = 999;
    expect(await cache.read('a', source.load)).toBe(1);
    expect(source.calls).toBe(1);
  });

  it('serves a stale value once while refreshing it in the background, then the new one', async () => {
    let clock = 0;
    const cache = createReadCache({ ttlMs: 1000, maxEntries: 10, now: () => clock });
    const source = counter();
    await cache.read('a', source.load);
    clock = 1500;
    expect(await Promise.all([cache.read('a', source.load), cache.read('a', source.load)])).toEqual([1, 1]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(source.calls).toBe(2);
    expect(await cache.read('a', source.load)).toBe(2);
  });

  it("keeps a read given its own ttl for that long, and the others for the cache's", async () => {
    let clock = 0;
    const cache = createReadCache({ ttlMs: 1000, maxEntries: 10, now: () => clock });
    const long = counter();
    const short = counter();
    await cache.read('counts', long.load, 6000);
    await cache.read('stock', short.load);
    clock = 5999;
    expect(await cache.read('counts', long.load, 6000)).toBe(1);
    expect(long.calls).toBe(1);
    expect(await cache.read('stock', short.load)).toBe(2);
    clock = 6000;
    // Stale now: served once more while one background read replaces it.
    expect(await cache.read('counts', long.load, 6000)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(long.calls).toBe(2);
    expect(await cache.read('counts', long.load, 6000)).toBe(2);
  });

  it('loads afresh once an entry is older than twice the ttl', async () => {
    let clock = 0;
    const cache = createReadCache({ ttlMs: 1000, maxEntries: 10, now: () => clock });
    const source = counter();
    await cache.read('a', source.load);
    clock = 2000;
    expect(await cache.read('a', source.load)).toBe(2);
  });

  it('shares one load between concurrent misses', async () => {
    const cache = createReadCache({ ttlMs: 1000, maxEntries: 10 });
    const source = counter();
    const results = await Promise.all([cache.read('a', source.load), cache.read('a', source.load)]);
    expect(results).toEqual([1, 1]);
    expect(source.calls).toBe(1);
  });

  it('does not keep failures', async () => {
    const cache = createReadCache({ ttlMs: 1000, maxEntries: 10 });
    await expect(cache.read('a', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await cache.read('a', async () => 'up')).toBe('up');
  });

  it('drops the least recently used entry beyond maxEntries', async () => {
    const cache = createReadCache({ ttlMs: 1000, maxEntries: 2 });
    await cache.read('a', async () => 'a');
    await cache.read('b', async () => 'b');
    await cache.read('a', async () => 'stale');
    await cache.read('c', async () => 'c');
    expect(cache.size).toBe(2);
    expect(await cache.read('a', async () => 'reloaded')).toBe('a');
    expect(await cache.read('b', async () => 'reloaded')).toBe('reloaded');
  });

  it('is bypassed with a ttl of 0 and emptied by clear()', async () => {
    const off = createReadCache({ ttlMs: 0, maxEntries: 10 });
    const source = counter();
    await off.read('a', source.load);
    await off.read('a', source.load);
    expect(source.calls).toBe(2);

    const on = createReadCache({ ttlMs: 1000, maxEntries: 10 });
    await on.read('a', async () => 1);
    on.clear();
    expect(await on.read('a', async () => 2)).toBe(2);
  });
});
