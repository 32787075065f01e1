/**
 * The server under benchmark, in its own process so the load generator does not
 * share its event loop: the shop's API on a seeded database, plus a bare Fastify
 * JSON route on a second port as the yardstick. Prints one JSON line when ready.
 *
 * Env: BENCH_PRODUCTS (catalogue size), BENCH_DATABASE_URL (PostgreSQL; else PGlite
 * cached on disk under bench/.data so the 100,000-product seed is made once),
 * BENCH_STOREFRONT=1 (serve the built storefront as well).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { getHeapSpaceStatistics } from 'node:v8';
import Fastify from 'fastify';
import { loadDrizzleAsCommonJs } from '../server/drizzle-as-commonjs.ts';

// As server/main.ts does, so the figures are those of `npm start`.
loadDrizzleAsCommonJs();
const { openDatabase } = await import('../db/client.ts');
const { isCatalogueEmpty, seedCatalogue } = await import('../db/seed/seed-catalogue.ts');
const { buildApp } = await import('../server/app.ts');
const { loadConfig } = await import('../server/config.ts');

const products = Number(process.env.BENCH_PRODUCTS ?? 1500);
const postgresUrl = process.env.BENCH_DATABASE_URL;
const dataDir = resolve('bench/.data', `pglite-${products}`);
const seeded = existsSync(dataDir);

const database = await openDatabase(postgresUrl ? { kind: 'postgres', url: postgresUrl } : { kind: 'pglite', dataDir });
await database.migrate();
if (await isCatalogueEmpty(database.db)) {
  const started = performance.now();
  await seedCatalogue(database.db, { products, mediaDir: null, log: (message) => console.error(message) });
  console.error(`seeded ${products} products in ${Math.round((performance.now() - started) / 1000)} s`);
} else if (!seeded && !postgresUrl) {
  throw new Error('unexpected: new data directory already seeded');
}

const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  DATA_DIR: resolve('bench/.data'),
  ...(postgresUrl ? { DATABASE_URL: postgresUrl } : {}),
});
// BENCH_STOREFRONT=1 serves the built pages too (bench/pages.ts), from BUILD_DIR or ./build.
const app = await buildApp({
  config,
  database,
  ...(process.env.BENCH_STOREFRONT === '1'
    ? { storefront: { mode: 'production', buildDir: resolve(process.env.BUILD_DIR ?? 'build') } as const }
    : {}),
});
await app.listen({ host: '127.0.0.1', port: 0 });
// Load is measured on the suggestion index, not on the SQL that answers until it is built.
await app.services.search.suggestions.whenCurrent();
console.error(`suggestion index built in ${app.services.search.suggestions.state().lastBuildMs} ms`);

const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ hello: 'world' }));
// The shop process's memory and CPU time, for the benches' RSS and CPU-per-request figures
// (this bare server runs in the same process).
bare.get('/memory', async () => {
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
  const { user, system } = process.cpuUsage();
  const mb = (bytes: number) => Math.round(bytes / 1048576);
  return {
    rssMb: mb(rss),
    heapMb: mb(heapUsed),
    heapTotalMb: mb(heapTotal),
    externalMb: mb(external),
    cpuMicros: user + system,
    // Where the resident memory is: V8's spaces (committed), and the kernel's split of RSS.
    spacesMb: Object.fromEntries(
      getHeapSpaceStatistics().map((space) => [space.space_name, mb(space.physical_space_size)]),
    ),
    // Linux only; elsewhere the split is left out.
    rssSplitMb: existsSync('/proc/self/status')
      ? Object.fromEntries(
          [...readFileSync('/proc/self/status', 'utf8').matchAll(/^(RssAnon|RssFile|RssShmem):\s+(\d+) kB$/gm)].map(
            ([, name, kb]) => [name, Math.round(Number(kb) / 1024)],
          ),
        )
      : {},
  };
});
await bare.listen({ host: '127.0.0.1', port: 0 });

const port = (server: { server: { address(): unknown } }) => (server.server.address() as { port: number }).port;
console.log(JSON.stringify({ ready: true, shopPort: port(app), barePort: port(bare), database: database.kind }));

process.once('SIGTERM', async () => {
  await app.close();
  await bare.close();
  await database.close();
  process.exit(0);
});
