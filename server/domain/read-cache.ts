/**
 * A small in-process cache for catalogue reads: the catalogue changes rarely and
 * is read on every page, and the embedded database answers one query at a time.
 * An entry is fresh for `ttlMs`; for as long again it is still served while one
 * background read refreshes it (stale-while-revalidate), so expiry never makes a
 * shopper wait. Processes sharing one PostgreSQL therefore converge within
 * 2 × ttlMs; a write in this process calls `clear()` at once. Concurrent misses
 * for one key share a single database read. Failures are not cached.
 */
export interface ReadCache {
  /**
   * Returns the cached value for `key`, or loads, stores and returns it. `ttlMs` replaces the
   * cache's own for this key (a read every change to it announces can live longer).
   */
  read<T>(key: string, load: () => Promise<T>, ttlMs?: number): Promise<T>;
  clear(): void;
  /** Drops one key (a product whose stock just changed), so its next read is fresh. */
  forget(key: string): void;
  readonly size: number;
  /** Reads answered from the cache and reads that went to the database since start (/metrics). */
  stats(): { hits: number; misses: number };
}

interface Entry {
  ttlMs: number;
  freshUntil: number;
  value: Promise<unknown>;
  refreshing: boolean;
}

export function createReadCache(options: { ttlMs: number; maxEntries: number; now?: () => number }): ReadCache {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let hits = 0;
  let misses = 0;

  function store(key: string, value: Promise<unknown>, ttlMs: number): void {
    entries.delete(key);
    entries.set(key, { ttlMs, freshUntil: now() + ttlMs, value, refreshing: false });
    while (entries.size > options.maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
  }

  return {
    read<T>(key: string, load: () => Promise<T>, ttlMs = options.ttlMs): Promise<T> {
      if (options.ttlMs <= 0) return load();
      const time = now();
      const hit = entries.get(key);
      if (hit && time < hit.freshUntil + hit.ttlMs) {
        hits++;
        // Re-insert so the Map's order is least-recently-used first.
        entries.delete(key);
        entries.set(key, hit);
        if (time >= hit.freshUntil && !hit.refreshing) {
          hit.refreshing = true;
          load().then(
            (value) => {
              if (entries.get(key) === hit) store(key, Promise.resolve(value), ttlMs);
            },
            () => {
              hit.refreshing = false;
            },
          );
        }
        return hit.value as Promise<T>;
      }
      misses++;
      const value = load();
      store(key, value, ttlMs);
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      return value;
    },
    clear() {
      entries.clear();
    },
    forget(key) {
      entries.delete(key);
    },
    get size() {
      return entries.size;
    },
    stats() {
      return { hits, misses };
    },
  };
}
