import type { FastifyInstance } from 'fastify';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { seedCatalogue } from '../../db/seed/seed-catalogue.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { createScratchDatabase } from './postgres.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface TestShop {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** The scratch PostgreSQL database's URL; undefined on PGlite. */
  databaseUrl?: string;
  close: () => Promise<void>;
}

/** A test-sized demo catalogue: big enough for every listing and filter to have data. */
export const TEST_CATALOGUE_PRODUCTS = 240;

/**
 * A fresh shop on its own database (in-memory PGlite, or a scratch PostgreSQL
 * database), migrated and seeded; tests drive it through inject. API only, unless
 * `storefront` asks for the built pages too (`npm run build` first), as `npm start` serves them.
 */
export async function createTestShop(
  kind: DatabaseKind = 'pglite',
  options: { products?: number; env?: Record<string, string>; storefront?: boolean; backgroundJobs?: boolean } = {},
): Promise<TestShop> {
  const scratch = kind === 'postgres' ? await createScratchDatabase() : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/harbour-tests-unused',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...options.env,
  });
  const database = await openDatabase(
    config.database.kind === 'postgres' ? { ...config.database, maxConnections: 5 } : { kind: 'pglite' },
  );
  await database.migrate();
  await seedCatalogue(database.db, { products: options.products ?? TEST_CATALOGUE_PRODUCTS, mediaDir: null });
  const app = await buildApp({
    config,
    database,
    logger: false,
    // The renewal job runs on the wall clock; tests call its runOnce(now) themselves.
    backgroundJobs: options.backgroundJobs ?? false,
    ...(options.storefront ? { storefront: { mode: 'production', buildDir: config.buildDir } as const } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    ...(scratch ? { databaseUrl: scratch.url } : {}),
    close: async () => {
      await app.close();
      await database.close();
      await scratch?.drop();
    },
  };
}
