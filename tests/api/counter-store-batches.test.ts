/**
 * A card attempt counts itself against three caps (account, address, card) before the charge
 * and gives all three back when the card is approved. One statement each way, not one per
 * cap: at 5 orders/s the six round trips (each its own commit) were 30 of the soak's ~400
 * statements a second. The batch must count exactly as one increment per key would, on each
 * store: PostgreSQL, the embedded database and Redis.
 */
import type { PGlite } from '@electric-sql/pglite';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import {
  type CounterStore,
  createDatabaseCounterStore,
  createRedisCounterStore,
} from '../../server/domain/counters.ts';
import { createScratchDatabase, isPostgresReachable } from '../helpers/postgres.ts';
import { logStatements } from '../helpers/statement-log.ts';

const postgresAvailable = await isPostgresReachable();
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisAvailable = await (async () => {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    console.warn(`counter batches: Redis is not reachable at ${REDIS_URL}; its run is skipped.`);
    return false;
  } finally {
    probe.disconnect();
  }
})();
const HOUR = 60 * 60_000;

interface Store {
  counters: CounterStore;
  close(): Promise<void>;
}

const stores: { name: string; skip: boolean; open: () => Promise<Store> }[] = [
  {
    name: 'pglite',
    skip: false,
    open: async () => {
      const database = await openDatabase({ kind: 'pglite' });
      await database.migrate();
      return { counters: createDatabaseCounterStore(database.db), close: () => database.close() };
    },
  },
  {
    name: 'postgres',
    skip: !postgresAvailable,
    open: async () => {
      const scratch = await createScratchDatabase();
      const database = await openDatabase({ kind: 'postgres', url: scratch.url, maxConnections: 4 });
      await database.migrate();
      return {
        counters: createDatabaseCounterStore(database.db),
        close: async () => {
          await database.close();
          await scratch.drop();
        },
      };
    },
  },
  {
    name: 'redis',
    skip: !redisAvailable,
    open: async () => {
      const redis = new Redis(REDIS_URL);
      const prefix = `harbour:test:batches:${process.pid}:${Date.now()}:`;
      return {
        counters: createRedisCounterStore(redis, prefix),
        close: async () => {
          const keys = await redis.keys(`${prefix}*`);
          if (keys.length) await redis.del(...keys);
          redis.disconnect();
        },
      };
    },
  },
];

for (const { name, skip, open } of stores) {
  describe.skipIf(skip)(`counter batches on ${name}`, () => {
    let store: Store;
    let run = 0;
    const keys = () => {
      run += 1;
      return [`batch:${run}:account`, `batch:${run}:address`, `batch:${run}:card`];
    };

    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
    });

    it('counts each key as one increment would, in the order given, with its window', async () => {
      const [account, address, card] = keys();
      await store.counters.increment(address!, HOUR);
      const counts = await store.counters.incrementAll([account!, address!, card!], HOUR);
      expect(counts.map((count) => count.count)).toEqual([1, 2, 1]);
      for (const count of counts) {
        expect(count.resetInMs).toBeGreaterThan(HOUR - 60_000);
        expect(count.resetInMs).toBeLessThanOrEqual(HOUR);
      }
      expect((await store.counters.peek(address!)).count).toBe(2);
    });

    it('gives each key back once, never below zero', async () => {
      const [account, address, card] = keys();
      await store.counters.incrementAll([account!, address!], HOUR);
      await store.counters.incrementAll([address!], HOUR);
      await store.counters.decrementAll([account!, address!, card!]);
      expect((await store.counters.peek(account!)).count).toBe(0);
      expect((await store.counters.peek(address!)).count).toBe(1);
      expect((await store.counters.peek(card!)).count).toBe(0);
      await store.counters.decrementAll([account!, account!]);
      expect((await store.counters.peek(account!)).count).toBe(0);
    });

    it('counts concurrent batches over the same keys exactly, in any order, without a deadlock', async () => {
      const [account, address, card] = keys();
      const batches = Array.from({ length: 24 }, (_, index) =>
        index % 2 ? [card!, address!, account!] : [account!, address!, card!],
      );
      const results = await Promise.all(batches.map((batch) => store.counters.incrementAll(batch, HOUR)));
      expect(results.every((counts) => counts.length === 3)).toBe(true);
      for (const key of [account!, address!, card!]) expect((await store.counters.peek(key)).count).toBe(24);
      // Every count from 1 to 24 was handed out once per key.
      const seen = results
        .map((counts, index) => counts[batches[index]!.indexOf(account!)]!.count)
        .sort((a, b) => a - b);
      expect(seen).toEqual(Array.from({ length: 24 }, (_, index) => index + 1));
    });
  });
}

describe('a card attempt on the embedded database', () => {
  let database: DatabaseHandle;
  let statements: string[] = [];

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite' });
    await database.migrate();
    statements = logStatements(database.embedded?.client as PGlite);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('counts and gives back its three caps in one statement each way', async () => {
    const { createCardVelocity } = await import('../../server/domain/card-velocity.ts');
    const velocity = createCardVelocity({
      db: database.db,
      counters: createDatabaseCounterStore(database.db),
      securityEvents: { record: () => {} },
    });
    await velocity.fingerprint('4242424242424242');
    statements.length = 0;
    const approved = await velocity.attempt(
      { userId: 7, address: '127.9.0.1', cardNumber: '4242424242424242', purpose: 'order' },
      async () => ({ approved: true }),
      (result) => !result.approved,
    );
    expect(approved.approved).toBe(true);
    expect(statements.filter((text) => /"rate_limit_counters"/.test(text))).toHaveLength(2);
  });
});
