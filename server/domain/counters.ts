import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Database } from '../../db/client.ts';
import { rateLimitCounters } from '../../db/schema.ts';

export interface WindowCount {
  count: number;
  /** Milliseconds until the window ends and the count starts again. */
  resetInMs: number;
}

/**
 * Fixed-window counters shared by every app process: the rate limits and the
 * failed sign-ins per account. In PostgreSQL (one row per key), or in Redis when
 * `REDIS_URL` is set.
 */
export interface CounterStore {
  /** Adds one to the key's window (starting a new window if the last one ended) and returns the count. */
  increment(key: string, windowMs: number): Promise<WindowCount>;
  /** The count in the key's current window, without adding to it. */
  peek(key: string): Promise<WindowCount>;
  reset(key: string): Promise<void>;
  /** Takes one back from the key's current window (an attempt counted up front that turned out fine); never below 0. */
  decrement(key: string): Promise<void>;
  /**
   * `increment` of each key (distinct keys) in one round trip; the counts in the order given.
   * A card attempt counts three caps this way before every charge.
   */
  incrementAll(keys: readonly string[], windowMs: number): Promise<WindowCount[]>;
  /** `decrement` of each distinct key in one round trip. */
  decrementAll(keys: readonly string[]): Promise<void>;
}

export function createDatabaseCounterStore(db: Database): CounterStore {
  let incrementsSinceSweep = 0;
  /** One upsert for every key; rows are locked in key order, so two batches over the same keys never deadlock. */
  async function incrementKeys(keys: readonly string[], windowMs: number): Promise<Map<string, WindowCount>> {
    const expires = sql`now() + ${`${Math.ceil(windowMs)} milliseconds`}::interval`;
    const distinct = [...new Set(keys)].sort();
    const rows = await db
      .insert(rateLimitCounters)
      .values(distinct.map((key) => ({ key, count: 1, expiresAt: expires })))
      .onConflictDoUpdate({
        target: rateLimitCounters.key,
        set: {
          count: sql`case when ${rateLimitCounters.expiresAt} <= now() then 1 else ${rateLimitCounters.count} + 1 end`,
          expiresAt: sql`case when ${rateLimitCounters.expiresAt} <= now() then excluded.expires_at else ${rateLimitCounters.expiresAt} end`,
        },
      })
      .returning({
        key: rateLimitCounters.key,
        count: rateLimitCounters.count,
        resetInMs: sql<number>`greatest(0, floor(extract(epoch from (${rateLimitCounters.expiresAt} - now())) * 1000))::int`,
      });
    // Ended windows are swept now and then, so the table stays the size of the traffic of one window.
    incrementsSinceSweep += distinct.length;
    if (incrementsSinceSweep >= 500) {
      incrementsSinceSweep = 0;
      await db.delete(rateLimitCounters).where(lt(rateLimitCounters.expiresAt, sql`now()`));
    }
    return new Map(rows.map((row) => [row.key, { count: Number(row.count), resetInMs: Number(row.resetInMs) }]));
  }
  const incrementAll = async (keys: readonly string[], windowMs: number): Promise<WindowCount[]> => {
    if (keys.length === 0) return [];
    const counted = await incrementKeys(keys, windowMs);
    return keys.map((key) => counted.get(key) ?? { count: 1, resetInMs: windowMs });
  };
  const decrementAll = async (keys: readonly string[]): Promise<void> => {
    if (keys.length === 0) return;
    await db
      .update(rateLimitCounters)
      .set({ count: sql`greatest(0, ${rateLimitCounters.count} - 1)` })
      .where(and(inArray(rateLimitCounters.key, [...new Set(keys)]), gt(rateLimitCounters.expiresAt, sql`now()`)));
  };
  return {
    async increment(key, windowMs) {
      const [count] = await incrementAll([key], windowMs);
      return count ?? { count: 1, resetInMs: windowMs };
    },
    async peek(key) {
      const [row] = await db
        .select({
          count: sql<number>`case when ${rateLimitCounters.expiresAt} <= now() then 0 else ${rateLimitCounters.count} end`,
          resetInMs: sql<number>`greatest(0, floor(extract(epoch from (${rateLimitCounters.expiresAt} - now())) * 1000))::int`,
        })
        .from(rateLimitCounters)
        .where(eq(rateLimitCounters.key, key));
      return row ? { count: Number(row.count), resetInMs: Number(row.resetInMs) } : { count: 0, resetInMs: 0 };
    },
    async reset(key) {
      await db.delete(rateLimitCounters).where(eq(rateLimitCounters.key, key));
    },
    decrement: (key) => decrementAll([key]),
    incrementAll,
    decrementAll,
  };
}

export function createRedisCounterStore(redis: Redis, prefix = 'harbour:counter:'): CounterStore {
  const incrementAll = async (keys: readonly string[], windowMs: number): Promise<WindowCount[]> => {
    if (keys.length === 0) return [];
    const transaction = redis.multi();
    for (const key of keys) {
      const name = prefix + key;
      transaction.incr(name).pexpire(name, Math.ceil(windowMs), 'NX').pttl(name);
    }
    const results = (await transaction.exec()) ?? [];
    return keys.map((_, index) => {
      const count = Number(results[index * 3]?.[1] ?? 1);
      const ttl = Number(results[index * 3 + 2]?.[1] ?? windowMs);
      return { count, resetInMs: ttl > 0 ? ttl : windowMs };
    });
  };
  const decrementAll = async (keys: readonly string[]): Promise<void> => {
    const names = [...new Set(keys)].map((key) => prefix + key);
    if (names.length === 0) return;
    // Only a live key, and never below zero: a DECR on a missing key would make one without an expiry.
    await redis.eval(
      "for _, name in ipairs(KEYS) do local n = redis.call('get', name) if n and tonumber(n) > 0 then redis.call('decr', name) end end return 0",
      names.length,
      ...names,
    );
  };
  return {
    async increment(key, windowMs) {
      const [count] = await incrementAll([key], windowMs);
      return count ?? { count: 1, resetInMs: windowMs };
    },
    async peek(key) {
      const name = prefix + key;
      const [count, ttl] = await Promise.all([redis.get(name), redis.pttl(name)]);
      return { count: Number(count ?? 0), resetInMs: Math.max(0, ttl) };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
    decrement: (key) => decrementAll([key]),
    incrementAll,
    decrementAll,
  };
}
