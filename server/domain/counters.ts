import { and, eq, gt, lt, sql } from 'drizzle-orm';
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
}

export function createDatabaseCounterStore(db: Database): CounterStore {
  let incrementsSinceSweep = 0;
  return {
    async increment(key, windowMs) {
      const expires = sql`now() + ${`${Math.ceil(windowMs)} milliseconds`}::interval`;
      const [row] = await db
        .insert(rateLimitCounters)
        .values({ key, count: 1, expiresAt: expires })
        .onConflictDoUpdate({
          target: rateLimitCounters.key,
          set: {
            count: sql`case when ${rateLimitCounters.expiresAt} <= now() then 1 else ${rateLimitCounters.count} + 1 end`,
            expiresAt: sql`case when ${rateLimitCounters.expiresAt} <= now() then excluded.expires_at else ${rateLimitCounters.expiresAt} end`,
          },
        })
        .returning({
          count: rateLimitCounters.count,
          resetInMs: sql<number>`greatest(0, floor(extract(epoch from (${rateLimitCounters.expiresAt} - now())) * 1000))::int`,
        });
      // Ended windows are swept now and then, so the table stays the size of the traffic of one window.
      incrementsSinceSweep += 1;
      if (incrementsSinceSweep >= 500) {
        incrementsSinceSweep = 0;
        await db.delete(rateLimitCounters).where(lt(rateLimitCounters.expiresAt, sql`now()`));
      }
      return { count: row?.count ?? 1, resetInMs: row?.resetInMs ?? windowMs };
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
    async decrement(key) {
      await db
        .update(rateLimitCounters)
        .set({ count: sql`greatest(0, ${rateLimitCounters.count} - 1)` })
        .where(and(eq(rateLimitCounters.key, key), gt(rateLimitCounters.expiresAt, sql`now()`)));
    },
  };
}

export function createRedisCounterStore(redis: Redis, prefix = 'harbour:counter:'): CounterStore {
  return {
    async increment(key, windowMs) {
      const name = prefix + key;
      const results = await redis.multi().incr(name).pexpire(name, Math.ceil(windowMs), 'NX').pttl(name).exec();
      const count = Number(results?.[0]?.[1] ?? 1);
      const ttl = Number(results?.[2]?.[1] ?? windowMs);
      return { count, resetInMs: ttl > 0 ? ttl : windowMs };
    },
    async peek(key) {
      const name = prefix + key;
      const [count, ttl] = await Promise.all([redis.get(name), redis.pttl(name)]);
      return { count: Number(count ?? 0), resetInMs: Math.max(0, ttl) };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
    async decrement(key) {
      // Only a live key, and never below zero: a DECR on a missing key would make one without an expiry.
      await redis.eval(
        "local n = redis.call('get', KEYS[1]) if n and tonumber(n) > 0 then redis.call('decr', KEYS[1]) end return 0",
        1,
        prefix + key,
      );
    },
  };
}
