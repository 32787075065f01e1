import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { SearchQuery } from '../../contracts/search.ts';
import type { Database, DatabaseHandle } from '../../db/client.ts';

/*
 * Search answers kept in memory, checked against the catalogue version (migration 0012)
 * on every request. A search costs three to six full-text statements; the check is one
 * single-row read, shared by the requests that arrive while it runs. The version moves at
 * the commit of any change to what search reads, whoever wrote it (the admin, a script's own
 * SQL), so what a kept answer finds and how it ranks is never staler than the database.
 * Catalogue events alone could not promise that: writes outside the domain send none.
 * Stock is the exception (migration 0017): search never filters or ranks by it, and every
 * order changes it, so it moves no version; the stock an answer shows is at most `maxAgeMs`
 * old (CATALOG_CACHE_SECONDS), the listings' rule.
 */

/** Bytes of answers kept per process by default (SEARCH_CACHE_MB), least recently asked dropped first. */
export const DEFAULT_SEARCH_CACHE_BYTES = 8 * 1024 * 1024;

export interface SearchAnswersOptions<T> {
  /** The catalogue version as committed when the call is made, or later (createCatalogVersion). */
  readVersion: () => Promise<number>;
  /** The search itself, for an answer not kept (or kept from an older version). */
  compute: (query: SearchQuery) => Promise<T>;
  /** Roughly how many bytes an answer holds, to bound the memory kept. */
  sizeOf: (answer: T) => number;
  maxBytes?: number;
  /**
   * How long an answer may be kept though the version stood still (CATALOG_CACHE_SECONDS): a
   * change of stock moves no version (migration 0017), so the stock a result shows is at most
   * this old, as a listing's. Unlimited when not given.
   */
  maxAgeMs?: number;
  /**
   * An answer past `maxAgeMs` at the same version with only its stock read again (the same
   * object when nothing moved). Without it, such an answer is searched again whole: at
   * 100,000 products the facet counts alone took ~100 ms of the database each time.
   */
  restock?: (answer: T) => Promise<T>;
  /** The clock, for tests. */
  now?: () => number;
}

export interface SearchAnswersState {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

/** The fields of a parsed query in one fixed order, so equal queries give equal keys. */
export function searchAnswerKey(query: SearchQuery): string {
  return JSON.stringify([
    query.term,
    query.page,
    query.pageSize,
    query.sortBy,
    query.categoryId ?? null,
    query.brandId ?? null,
    query.minPrice ?? null,
    query.maxPrice ?? null,
  ]);
}

/**
 * Reads of the version shared by concurrent requests, never reused by a request that
 * arrives after a read began: that read's snapshot could predate a commit the request
 * already saw (its own, or one another shopper's request finished), so it waits for the
 * next read, which every request arriving meanwhile shares.
 */
export function createSharedVersionRead(readVersion: () => Promise<number>): () => Promise<number> {
  let running: Promise<number> | null = null;
  let next: Promise<number> | null = null;
  const start = (): Promise<number> => {
    running = readVersion().finally(() => {
      running = null;
    });
    return running;
  };
  return () => {
    if (!running) return start();
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return running ?? start();
      });
    return next;
  };
}

/** A search answer cache: `answer(query)` is what `compute(query)` gives against the database now. */
export function createSearchAnswers<T extends object>(options: SearchAnswersOptions<T>) {
  const now = options.now ?? Date.now;
  const maxAgeMs = options.maxAgeMs ?? Number.POSITIVE_INFINITY;
  const entries = new LRUCache<string, { version: number; madeAt: number; answer: T }>({
    maxSize: options.maxBytes ?? DEFAULT_SEARCH_CACHE_BYTES,
    sizeCalculation: (entry) => Math.max(1, options.sizeOf(entry.answer)),
  });
  const inFlight = new Map<string, Promise<T>>();
  let hits = 0;
  let misses = 0;

  return {
    /** The answer for the catalogue as committed when the call was made (or later). Kept answers are frozen. */
    async answer(query: SearchQuery): Promise<T> {
      const version = await options.readVersion();
      const key = searchAnswerKey(query);
      const kept = entries.get(key);
      if (kept && kept.version === version && now() - kept.madeAt < maxAgeMs) {
        hits++;
        return kept.answer;
      }
      const restock = options.restock;
      if (kept && kept.version === version && restock) {
        hits++;
        // Concurrent requests for one aged answer share one read of its stock.
        const flightKey = `stock ${version} ${key}`;
        let flight = inFlight.get(flightKey);
        if (!flight) {
          const madeAt = now();
          flight = restock(kept.answer).then((restocked) => {
            const answer = restocked === kept.answer ? restocked : Object.freeze(restocked);
            if (entries.get(key, { allowStale: true, updateAgeOnGet: false }) === kept) {
              entries.set(key, { version, madeAt, answer });
            }
            return answer;
          });
          inFlight.set(flightKey, flight);
          void flight.finally(() => inFlight.delete(flightKey)).catch(() => {});
        }
        return flight;
      }
      misses++;
      // Concurrent misses on one query at one version share one search.
      const flightKey = `${version} ${key}`;
      let flight = inFlight.get(flightKey);
      if (!flight) {
        const madeAt = now();
        flight = options.compute(query).then((computed) => {
          // Made at least as fresh as `version`: a change committed after the read may be in it
          // too, which only answers those requests sooner; a later request reads the new number.
          const answer = Object.freeze(computed);
          const latest = entries.get(key, { allowStale: true, updateAgeOnGet: false });
          if (!latest || latest.version <= version) entries.set(key, { version, madeAt, answer });
          return answer;
        });
        inFlight.set(flightKey, flight);
        void flight.finally(() => inFlight.delete(flightKey)).catch(() => {});
      }
      return flight;
    },

    state(): SearchAnswersState {
      return { hits, misses, entries: entries.size, bytes: entries.calculatedSize };
    },

    clear(): void {
      entries.clear();
    },
  };
}

/** The catalogue version as committed (migration 0012). */
export async function readCatalogVersion(db: Database): Promise<number> {
  const result = (await db.execute(sql`select version from catalog_version where id = 1`)) as unknown as
    | { version: number }[]
    | { rows: { version: number }[] };
  const rows = Array.isArray(result) ? result : result.rows;
  return Number(rows[0]?.version ?? 0);
}

/** Where migration 0012's triggers send each new catalogue version. */
export const CATALOG_VERSION_CHANNEL = 'catalog_version';

/**
 * The catalogue version as committed, for `createSearchAnswers`. On PostgreSQL each call
 * reads it (reads shared by concurrent requests): another process's commit reaches this one
 * by NOTIFY only some time later, too late to promise freshness. The embedded database has
 * one process, and PGlite hands over the trigger's notification before the committing
 * statement returns, so there the number is kept from the notifications and a call reads
 * nothing; until `start` has subscribed, and after `close`, it reads.
 */
export function createCatalogVersion(database: Pick<DatabaseHandle, 'db' | 'kind' | 'listen'>) {
  let reads = 0;
  const read = createSharedVersionRead(() => {
    reads++;
    return readCatalogVersion(database.db);
  });
  let known: number | null = null;
  let stopListening: (() => Promise<void>) | null = null;
  return {
    current: (): Promise<number> => (known === null ? read() : Promise.resolve(known)),
    /** Reads of the number from the database so far. */
    reads: () => reads,

    async start(log?: { warn(object: object, message: string): void }): Promise<void> {
      if (database.kind !== 'pglite' || stopListening) return;
      try {
        stopListening = await database.listen(CATALOG_VERSION_CHANNEL, (payload) => {
          const version = Number(payload);
          // Anything unreadable: stop trusting the kept number and read again.
          if (!Number.isSafeInteger(version)) known = null;
          else if (known !== null) known = Math.max(known, version);
        });
        // Subscribed first, then read: a commit in between is in the read or in a notification.
        const version = await readCatalogVersion(database.db);
        known = Math.max(known ?? version, version);
      } catch (error) {
        // Without the number kept, every search reads it: slower, never staler.
        log?.warn({ reason: error instanceof Error ? error.message : String(error) }, 'catalogue version not watched');
      }
    },

    async close(): Promise<void> {
      known = null;
      await stopListening?.();
      stopListening = null;
    },
  };
}
