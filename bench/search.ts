/**
 * Search benchmark of the search issue: latency of `GET /api/search/autocomplete` and
 * `GET /api/search` measured at the server, one request at a time, over a mix of what
 * shoppers type (model numbers, SKUs, product types, brands, broad words, typos, filters);
 * and throughput under load as a ratio to a bare Fastify route.
 *
 * Throughput runs against bench/catalogue-server.ts in its own process (which also seeds
 * and caches the catalogue). Latency then runs in this process through `app.inject`, so it
 * counts routing, validation, the queries and serialisation, and no socket or client time.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ProductPage } from '../contracts/catalog.ts';
import { openDatabase } from '../db/client.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { startServer, stopServer } from './api-load.ts';
import { type LoadResult, measureLoad } from './load.ts';

/**
 * Budgets of issue 12: autocomplete (answered by the in-process suggestion index) and search
 * (facets included), each p95 at the server (sequential) and throughput under load as a share
 * of the bare route.
 */
export const SEARCH_BUDGETS = { autocompleteP95Ms: 5, autocompleteMinRatio: 0.3, searchP95Ms: 15, searchMinRatio: 0.1 };

/**
 * Server memory after the load at 100,000 products (issue 12): resident set size in MB per
 * database, and how much a second identical round of load may add (the process must stay flat).
 */
export const MEMORY_BUDGETS = { postgresRssMb: 300, pgliteRssMb: 400, secondRoundGrowthMb: 10 };

export interface MemoryFigures {
  /** Whether the server served the built storefront too (as `npm start` does). */
  withPages: boolean;
  idleRssMb: number;
  afterLoadRssMb: number;
  afterSecondRoundRssMb: number;
  heapAfterSecondRoundMb: number;
  /** V8's whole heap, garbage included, and memory outside it (PGlite's WebAssembly memory, buffers). */
  heapTotalAfterSecondRoundMb: number;
  externalAfterSecondRoundMb: number;
  /** V8's young generation (committed) after the second round: it grows under load, up to twice the semi-space size. */
  newSpaceAfterSecondRoundMb: number;
}

/** Rounds of the whole mix timed after the warm-up; each query counts once per round. */
const ROUNDS = 5;
const WARM_UP_ROUNDS = 3;

export interface LatencyFigures {
  count: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** The slowest queries by median, for the report. */
  slowest: { path: string; medianMs: number }[];
}

export interface SearchFigures {
  products: number;
  database: string;
  /** The suggestion index of the latency run: how long its build took, and how many answers the database gave. */
  suggestionIndex: { buildMs: number | null; fromDatabase: number; answered: number };
  autocomplete: LatencyFigures;
  search: LatencyFigures;
  /** Search latency with no kept answer (a query asked for the first time since the catalogue last changed). */
  searchUncached: LatencyFigures;
  bare: LoadResult;
  autocompleteLoad: LoadResult;
  searchLoad: LoadResult;
  memory: MemoryFigures;
}

const MODEL = /\b[A-Z]{2}-[A-Z]{2}\d{3,5}\b/;

/**
 * What shoppers type, from the seeded catalogue (the seed is deterministic, so every run
 * asks the same): the dropdown sees every keystroke from two characters on.
 */
export function queryMix(sample: { name: string; sku: string }[]): { autocomplete: string[]; search: string[] } {
  const models = sample.flatMap((product) => MODEL.exec(product.name)?.[0] ?? []).slice(0, 6);
  const skus = sample.map((product) => product.sku).slice(0, 4);
  const typed = (text: string) => Array.from({ length: text.length - 1 }, (_, index) => text.slice(0, index + 2));
  const autocomplete = [
    ...typed('drill'),
    ...typed('hammer dri').slice(5),
    ...typed('voltrex'),
    ...typed('angle grinder').slice(4, 9),
    ...typed('impact dr').slice(5),
    ...typed('circular saw').slice(7),
    ...typed('safety boots').slice(6),
    ...typed('tape measure').slice(4),
    ...typed('ladder'),
    ...typed('batt'),
    ...models.flatMap((model) => [model.slice(0, 4), model.slice(0, 6), model, model.replace('-', '').toLowerCase()]),
    'hamer',
    'voltrx',
    'kelvnae dr',
    'grindr',
    'power too',
    'outdoor pow',
  ];
  const search = [
    ...models.flatMap((model) => [model, model.replace('-', ''), model.replace('-', ' ').toLowerCase()]),
    ...skus,
    'hammer drill',
    'angle grinder',
    'circular saw',
    'impact driver',
    'safety boots',
    'tape measure',
    'extension ladder',
    'air compressor',
    'mitre saw',
    'voltrex drill',
    'kelvane circular saw',
    'dravik 18v impact driver',
    'drill',
    'saw',
    'battery',
    'ladder',
    'gloves',
    'hamer drill',
    'grindr',
    'kelvnae',
    'drill&categoryId=1',
    'drill&sortBy=price_asc',
    'angle grinder&sortBy=name_asc',
    'saw&page=2',
    'battery&minPrice=50&maxPrice=300',
  ];
  return {
    autocomplete: autocomplete.map((term) => `/api/search/autocomplete?term=${encodeURIComponent(term)}`),
    search: search.map((query) => {
      const [term, ...rest] = query.split('&');
      return `/api/search?term=${encodeURIComponent(term!)}${rest.length ? `&${rest.join('&')}` : ''}`;
    }),
  };
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * fraction) - 1)] ?? 0;
}

const round1 = (ms: number) => Math.round(ms * 10) / 10;

/** Sequential timings of each path through inject: ROUNDS × the mix, after warming up. */
async function measureLatency(inject: (path: string) => Promise<number>, paths: string[]): Promise<LatencyFigures> {
  for (let round = 0; round < WARM_UP_ROUNDS; round++) for (const path of paths) await inject(path);
  const byPath = new Map<string, number[]>(paths.map((path) => [path, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const path of paths) byPath.get(path)!.push(await inject(path));
  }
  const all = [...byPath.values()].flat().sort((a, b) => a - b);
  const slowest = [...byPath.entries()]
    .map(([path, times]) => ({
      path,
      medianMs: round1(
        percentile(
          [...times].sort((a, b) => a - b),
          0.5,
        ),
      ),
    }))
    .sort((a, b) => b.medianMs - a.medianMs)
    .slice(0, 3);
  return {
    count: all.length,
    p50Ms: round1(percentile(all, 0.5)),
    p95Ms: round1(percentile(all, 0.95)),
    maxMs: round1(all.at(-1) ?? 0),
    slowest,
  };
}

export async function benchSearch(options: {
  products: number;
  databaseUrl?: string;
  connections: number;
  durationSeconds: number;
}): Promise<SearchFigures> {
  // 1. Throughput under load, against the server in its own process (it seeds the catalogue if needed).
  // With the built storefront when there is one, so the memory figures are the whole shop's.
  const withPages = existsSync(resolve(process.env.BUILD_DIR ?? 'build', 'server', 'index.js'));
  const server = await startServer(options.products, options.databaseUrl, { storefront: withPages });
  let mix: ReturnType<typeof queryMix>;
  let bare: LoadResult;
  let autocompleteLoad: LoadResult;
  let searchLoad: LoadResult;
  let memory: MemoryFigures;
  try {
    const memoryNow = async () =>
      (await (await fetch(`${server.bareUrl}/memory`)).json()) as {
        rssMb: number;
        heapMb: number;
        heapTotalMb: number;
        externalMb: number;
        spacesMb: Record<string, number>;
      };
    const idle = await memoryNow();
    const page = (await (await fetch(`${server.shopUrl}/api/products?limit=200&sort=newest`)).json()) as ProductPage;
    mix = queryMix(page.items);
    const common = { connections: options.connections, durationSeconds: options.durationSeconds };
    await measureLoad({
      title: 'warm-up',
      baseUrl: server.shopUrl,
      paths: [...mix.autocomplete, ...mix.search],
      ...common,
      durationSeconds: 3,
    });
    bare = await measureLoad({ title: 'bare Fastify route', baseUrl: server.bareUrl, paths: ['/bare'], ...common });
    autocompleteLoad = await measureLoad({
      title: 'GET /api/search/autocomplete',
      baseUrl: server.shopUrl,
      paths: mix.autocomplete,
      ...common,
    });
    searchLoad = await measureLoad({ title: 'GET /api/search', baseUrl: server.shopUrl, paths: mix.search, ...common });
    const afterLoad = await memoryNow();
    // The same load again: a process that keeps what it served grows here.
    for (const paths of [mix.autocomplete, mix.search]) {
      await measureLoad({ title: 'second round', baseUrl: server.shopUrl, paths, ...common });
    }
    const afterSecond = await memoryNow();
    memory = {
      withPages,
      idleRssMb: idle.rssMb,
      afterLoadRssMb: afterLoad.rssMb,
      afterSecondRoundRssMb: afterSecond.rssMb,
      heapAfterSecondRoundMb: afterSecond.heapMb,
      heapTotalAfterSecondRoundMb: afterSecond.heapTotalMb,
      externalAfterSecondRoundMb: afterSecond.externalMb,
      newSpaceAfterSecondRoundMb: afterSecond.spacesMb.new_space ?? 0,
    };
  } finally {
    await stopServer(server);
  }

  // 2. Latency at the server, one request at a time, on the same database (the server above has let go of it).
  const database = await openDatabase(
    options.databaseUrl
      ? { kind: 'postgres', url: options.databaseUrl }
      : { kind: 'pglite', dataDir: resolve('bench/.data', `pglite-${options.products}`) },
  );
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: resolve('bench/.data'),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  });
  const app = await buildApp({ config, database, logger: false });
  try {
    await app.ready();
    // Measured once the suggestion index is in: until then the SQL answers, as it did before.
    const index = app.services.search.suggestions;
    await index.whenCurrent();
    const before = index.state().fromDatabase;
    const inject = async (path: string): Promise<number> => {
      const started = performance.now();
      const response = await app.inject({ method: 'GET', url: path });
      const elapsed = performance.now() - started;
      if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}: ${response.body}`);
      return elapsed;
    };
    const autocomplete = await measureLatency(inject, mix.autocomplete);
    const state = index.state();
    const search = await measureLatency(inject, mix.search);
    // The same searches asked for the first time: kept answers emptied before each one.
    const searchUncached = await measureLatency(async (path) => {
      app.services.search.searchAnswers?.clear();
      return inject(path);
    }, mix.search);
    return {
      products: options.products,
      database: database.kind,
      suggestionIndex: {
        buildMs: state.lastBuildMs,
        fromDatabase: state.fromDatabase - before,
        answered: mix.autocomplete.length * (WARM_UP_ROUNDS + ROUNDS),
      },
      autocomplete,
      search,
      searchUncached,
      bare,
      autocompleteLoad,
      searchLoad,
      memory,
    };
  } finally {
    await app.close();
    await database.close();
  }
}
