import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import { openPostgresConnection } from './postgres-connection.ts';
import { type ProcessLiveness, postgresLiveness, singleProcessLiveness } from './process-liveness.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** One type for both drivers: the app only uses what PostgreSQL and PGlite share. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Applies every pending migration; safe to call on each start. */
  migrate(): Promise<void>;
  /** Cheap round trip used by /api/health. */
  ping(): Promise<void>;
  /**
   * Hears `notify` on a channel from every process on this database (PostgreSQL LISTEN); the
   * embedded database has one process, so it hears its own. Returns the way to stop listening.
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    /** Called when the subscription is back after the database was out of reach: announcements may have been lost. */
    onResumed?: () => void,
  ): Promise<() => Promise<void>>;
  notify(channel: string, payload?: string): Promise<void>;
  close(): Promise<void>;
  /**
   * PostgreSQL's pool: its size, the connections busy and what waits beyond them, counted around
   * the app's queries (postgres.js exposes no counts). Absent on the embedded database.
   */
  pool?: () => { size: number; inUse: number; waiting: number };
  /** Which app processes on this database are alive (db/process-liveness.ts). */
  liveness: ProcessLiveness;
  /** False while PostgreSQL is out of reach (db/postgres-connection.ts); absent on the embedded database. */
  reachable?: () => boolean;
  /**
   * The embedded database's own client and folder (undefined: in memory), for backups, which
   * copy its files while holding its one connection. Absent on PostgreSQL.
   */
  embedded?: { client: PGlite; dataDir: string | undefined };
}

const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), 'migrations');

export type DatabaseOptions =
  | { kind: 'pglite'; dataDir?: string }
  | { kind: 'postgres'; url: string; maxConnections?: number };

/**
 * Opens the shop's database: embedded PGlite (in memory when no dataDir is given,
 * which is what tests use) or a PostgreSQL server.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === 'postgres') {
    const max = options.maxConnections ?? 10;
    const connection = openPostgresConnection(options.url, {
      max,
      // drizzle sets its type parsers on the client it is given: a replacement pool gets them too.
      prepare: (pool) => void drizzlePostgres(pool),
    });
    const { client } = connection;
    const db = drizzlePostgres(client, { schema }) as unknown as Database;
    const liveness = postgresLiveness(options.url);
    return {
      db,
      kind: 'postgres',
      liveness,
      pool: connection.pool,
      reachable: connection.reachable,
      migrate: async () => {
        await client.unsafe('CREATE EXTENSION IF NOT EXISTS pg_trgm');
        await migratePostgres(drizzlePostgres(client), { migrationsFolder });
      },
      // Readiness asks the database on a connection of its own, not through the shoppers' pool.
      ping: () => connection.ping(),
      listen: (channel, onMessage, onResumed) => connection.listen(channel, onMessage, onResumed),
      notify: async (channel, payload = '') => {
        await client.unsafe('select pg_notify($1, $2)', [channel, payload]);
      },
      close: async () => {
        await liveness.close();
        await connection.end();
      },
    };
  }

  if (options.dataDir) {
    // PGlite creates only the last folder of its data directory.
    mkdirSync(dirname(resolve(options.dataDir)), { recursive: true });
  }
  // PostgreSQL's default 128 MB buffer pool sits inside the wasm heap and is never given back.
  // 16 MB holds the shop's hot pages: the same query times at 1,500 products, and at 100,000
  // the same first-time search latency as 32 MB (p50 ~14 ms, p95 ~67 ms) for ~20 MB less RSS;
  // what misses it is in the operating system's file cache.
  const client = await PGlite.create({
    dataDir: options.dataDir,
    extensions: { pg_trgm },
    postgresqlconf: ['shared_buffers=16MB'],
  });
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  // One process owns the embedded database: a notification only needs to reach this process.
  const listeners = new Map<string, Set<(payload: string) => void>>();
  return {
    db,
    kind: 'pglite',
    // One process owns the embedded database: any other id is a process that died.
    liveness: singleProcessLiveness(),
    migrate: async () => {
      await client.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      await migratePglite(drizzlePglite(client), { migrationsFolder });
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: async (channel, onMessage) => {
      const set = listeners.get(channel) ?? new Set();
      set.add(onMessage);
      listeners.set(channel, set);
      // What the database itself sends (a trigger's pg_notify) comes through PGlite's LISTEN,
      // delivered before the statement that committed it returns.
      const fromDatabase = await client.listen(channel, onMessage);
      return async () => {
        set.delete(onMessage);
        // A closed database has no subscription left to end.
        if (!client.closed) await fromDatabase().catch(() => {});
      };
    },
    notify: async (channel, payload = '') => {
      for (const listener of listeners.get(channel) ?? []) listener(payload);
    },
    close: () => client.close(),
    embedded: { client, dataDir: options.dataDir ? resolve(options.dataDir) : undefined },
  };
}
