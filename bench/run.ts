/**
 * `npm run bench`: prints the shop's speed figures and checks them against the
 * issue budgets. Options: --products 1500,100000  --duration 10  --connections 10
 * --postgres (also run on PostgreSQL; needs BENCH_POSTGRES_URL or the local server).
 * Storefront: --runs 3 (Lighthouse runs per page, median counts)  --page-products 1500
 * --skip-build (use the build in BUILD_DIR as it is).
 * --only api,search,lighthouse,bundle picks suites (default: all four).
 * Exits 1 when a budget is missed.
 */
import { parseArgs } from 'node:util';
import { API_BUDGETS, type ApiLoadFigures, benchApiLoad } from './api-load.ts';
import { benchSearch, SEARCH_BUDGETS, type SearchFigures } from './search.ts';
import { benchStorefront } from './storefront.ts';

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '1500,100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    postgres: { type: 'boolean', default: false },
    only: { type: 'string', default: 'api,search,lighthouse,bundle' },
    runs: { type: 'string', default: '3' },
    'page-products': { type: 'string', default: '1500' },
    'skip-build': { type: 'boolean', default: false },
  },
});

const SUITES = ['api', 'search', 'lighthouse', 'bundle'];
const suites = new Set(values.only.split(',').map((suite) => suite.trim()));
for (const suite of suites) {
  if (!SUITES.includes(suite)) {
    console.error(`Unknown suite "${suite}" in --only; choose from ${SUITES.join(', ')}.`);
    process.exit(2);
  }
}

const sizes = values.products.split(',').map(Number);
const durationSeconds = Number(values.duration);
const connections = Number(values.connections);
const failures: string[] = [];

function row(cells: (string | number)[]): string {
  return cells.map((cell, index) => String(cell).padEnd(index === 0 ? 34 : 12)).join('');
}

function report(figures: ApiLoadFigures): void {
  const { bare } = figures;
  console.log(
    `\nAPI load — ${figures.products.toLocaleString('en-AU')} products on ${figures.database}, ${connections} connections, ${durationSeconds} s each`,
  );
  console.log(row(['route', 'req/s', 'ratio', 'p50 ms', 'p99 ms', 'budget']));
  console.log(row([bare.title, Math.round(bare.requestsPerSecond), '1.00', bare.p50Ms, bare.p99Ms, '']));
  const checks: [typeof figures.productById, number][] = [
    [figures.productById, API_BUDGETS.productById],
    [figures.categoryListing, API_BUDGETS.categoryListing],
  ];
  for (const [result, minimumRatio] of checks) {
    const ratio = result.requestsPerSecond / bare.requestsPerSecond;
    const ok = ratio >= minimumRatio && result.p99Ms <= API_BUDGETS.p99Ms && result.errors === 0 && result.non2xx === 0;
    console.log(
      row([
        result.title,
        Math.round(result.requestsPerSecond),
        ratio.toFixed(3),
        result.p50Ms,
        result.p99Ms,
        `${ok ? 'ok' : 'MISSED'} (≥${minimumRatio}×, p99 ≤${API_BUDGETS.p99Ms})`,
      ]),
    );
    if (result.errors || result.non2xx) console.log(`  errors: ${result.errors}, non-2xx: ${result.non2xx}`);
    if (!ok) failures.push(`${result.title} at ${figures.products} products on ${figures.database}`);
  }
}

for (const products of suites.has('api') ? sizes : []) {
  report(await benchApiLoad({ products, connections, durationSeconds }));
  if (values.postgres) {
    const { createScratchDatabase } = await import('../tests/helpers/postgres.ts');
    const scratch = await createScratchDatabase();
    try {
      report(await benchApiLoad({ products, connections, durationSeconds, databaseUrl: scratch.url }));
    } finally {
      await scratch.drop();
    }
  }
}

/** Search latency at the server (sequential) against the issue budgets, and throughput as a share of the bare route. */
function reportSearch(figures: SearchFigures): void {
  console.log(
    `\nSearch — ${figures.products.toLocaleString('en-AU')} products on ${figures.database}, latency at the server (sequential), load with ${connections} connections`,
  );
  console.log(row(['route', 'p50 ms', 'p95 ms', 'max ms', 'req/s', 'ratio', 'budget']));
  const checks: [string, SearchFigures['autocomplete'], typeof figures.bare, number][] = [
    ['GET /api/search/autocomplete', figures.autocomplete, figures.autocompleteLoad, SEARCH_BUDGETS.autocompleteP95Ms],
    ['GET /api/search', figures.search, figures.searchLoad, SEARCH_BUDGETS.searchP95Ms],
  ];
  for (const [title, latency, load, budget] of checks) {
    const ratio = load.requestsPerSecond / figures.bare.requestsPerSecond;
    const ok = latency.p95Ms <= budget && load.errors === 0 && load.non2xx === 0;
    console.log(
      row([
        title,
        latency.p50Ms,
        latency.p95Ms,
        latency.maxMs,
        Math.round(load.requestsPerSecond),
        ratio.toFixed(3),
        `${ok ? 'ok' : 'MISSED'} (p95 ≤${budget})`,
      ]),
    );
    console.log(`  slowest: ${latency.slowest.map((entry) => `${entry.path} ${entry.medianMs} ms`).join(' · ')}`);
    if (load.errors || load.non2xx) console.log(`  errors: ${load.errors}, non-2xx: ${load.non2xx}`);
    if (!ok) failures.push(`${title} at ${figures.products} products on ${figures.database}`);
  }
  const goal = figures.autocomplete.p95Ms <= SEARCH_BUDGETS.autocompleteGoalP95Ms ? 'met' : 'not met';
  console.log(`  autocomplete goal p95 ≤${SEARCH_BUDGETS.autocompleteGoalP95Ms} ms: ${goal}`);
  console.log(row(['bare Fastify route', '', '', '', Math.round(figures.bare.requestsPerSecond), '1.00', '']));
}

for (const products of suites.has('search') ? sizes : []) {
  reportSearch(await benchSearch({ products, connections, durationSeconds }));
  if (values.postgres) {
    const { createScratchDatabase } = await import('../tests/helpers/postgres.ts');
    const scratch = await createScratchDatabase();
    try {
      reportSearch(await benchSearch({ products, connections, durationSeconds, databaseUrl: scratch.url }));
    } finally {
      await scratch.drop();
    }
  }
}

if (suites.has('lighthouse') || suites.has('bundle')) {
  failures.push(
    ...(await benchStorefront({
      lighthouse: suites.has('lighthouse'),
      bundle: suites.has('bundle'),
      runs: Number(values.runs),
      products: Number(values['page-products']),
      skipBuild: values['skip-build'],
    })),
  );
}

if (failures.length > 0) {
  console.log(`\nBudgets missed:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('\nAll budgets met.');
