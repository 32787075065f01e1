/**
 * Seeds the demo catalogue into the database the server uses.
 *
 *   npx node db/seed/seed-cli.ts [--products N] [--reset] [--seed S]
 *
 * Without --reset it only seeds an empty catalogue, so it is safe to run on every start.
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { type DatabaseOptions, openDatabase } from '../client.ts';
import { DEFAULT_SEED } from './product-generator.ts';
import { isCatalogueEmpty, seedCatalogue, seededMediaFolders } from './seed-catalogue.ts';

const DEFAULT_PRODUCTS = 1500;

export interface SeedEnvironment {
  database: DatabaseOptions;
  mediaDir: string;
}

/** The one place that reads the environment, mirroring how the server opens its database. */
export function seedEnvironment(env: NodeJS.ProcessEnv = process.env): SeedEnvironment {
  const dataDir = env.DATA_DIR || './data';
  return {
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL }
      : { kind: 'pglite', dataDir: resolve(dataDir, 'pglite') },
    mediaDir: resolve(env.MEDIA_DIR || resolve(dataDir, 'media')),
  };
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`--${name} must be a whole number, got "${value}"`);
  return parsed;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      products: { type: 'string' },
      seed: { type: 'string' },
      reset: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log('Usage: npx node db/seed/seed-cli.ts [--products N] [--reset] [--seed S]');
    return;
  }
  const productCount = positiveInteger('products', values.products, DEFAULT_PRODUCTS);
  const seed = positiveInteger('seed', values.seed, DEFAULT_SEED);
  const environment = seedEnvironment();
  const where = environment.database.kind === 'postgres' ? 'PostgreSQL' : `PGlite at ${environment.database.dataDir}`;

  const started = performance.now();
  const handle = await openDatabase(environment.database);
  try {
    await handle.migrate();
    const migrated = performance.now();
    console.log(`Database: ${where}, migrated in ${seconds(migrated - started)}`);

    if (values.reset) {
      // CASCADE also empties any table that references products (orders, carts, wishlists).
      await handle.db.execute(
        sql`TRUNCATE TABLE reviews, product_variants, product_images, products, subcategories, brands, categories RESTART IDENTITY CASCADE`,
      );
      for (const folder of seededMediaFolders(environment.mediaDir)) rmSync(folder, { recursive: true, force: true });
      console.log(`Reset the catalogue and ${environment.mediaDir} in ${seconds(performance.now() - migrated)}`);
    } else if (!(await isCatalogueEmpty(handle.db))) {
      console.log('The catalogue already has data; nothing to do. Use --reset to replace it.');
      return;
    }

    const seedStarted = performance.now();
    const result = await seedCatalogue(handle.db, {
      products: productCount,
      mediaDir: environment.mediaDir,
      seed,
      log: (message) => console.log(`  ${message}`),
    });
    const finished = performance.now();
    console.log(
      `Seeded ${result.categories} categories, ${result.subcategories} subcategories, ${result.brands} brands, ` +
        `${result.products} products and ${result.reviews} reviews (seed ${seed}) in ${seconds(finished - seedStarted)}; ` +
        `pictures in ${environment.mediaDir}; total ${seconds(finished - started)}`,
    );
  } finally {
    await handle.close();
  }
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    // Drizzle's message is the failed SQL; the database's own reason is in the cause.
    const cause = error instanceof Error && error.cause instanceof Error ? `\n  ${error.cause.message}` : '';
    console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}${cause}`);
    process.exitCode = 1;
  });
}
