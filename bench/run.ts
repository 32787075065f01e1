/**
 * `npm run bench`: prints the shop's speed figures and checks them against the
 * issue budgets. Options: --products 1500,100000  --duration 10  --connections 10
 * --postgres (also run on PostgreSQL; needs BENCH_POSTGRES_URL or the local server).
 * Storefront: --runs 3 (Lighthouse runs per page, median counts)  --page-products 1500
 * --skip-build (use the build in BUILD_DIR as it is).
 * --only api,accounts,search,orders,images,csv,pages,lighthouse,bundle picks suites (default: all nine);
 * --only backup-pause (not in the default) measures what a backup costs shoppers at 100,000 products.
 * --only soak (not in the default) runs mixed traffic on PostgreSQL at 100,000 products for --soak-minutes 30
 * at --soak-rate 200 requests/s (a fortieth of them orders) and checks RSS growth, p95 drift and 5xx;
 * --soak-costs 20 first runs each kind of request alone for 20 s at its share of the rate and prints the
 * server's CPU per request; --soak-database URL seeds (once) and keeps that database instead of a scratch one.
 * The API/pages server process runs with npm start's Node flags; BENCH_SERVER_FLAGS='--max-semi-space-size=16' replaces them.
 * Exits 1 when a budget is missed.
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { ACCOUNT_BUDGETS, type AccountFigures, benchAccounts } from './accounts.ts';
import { API_BUDGETS, type ApiLoadFigures, benchApiLoad } from './api-load.ts';
import type { CsvImportFigures } from './csv-import.ts';
import type { ImageFigures } from './images.ts';
import { benchOrders, ORDER_BUDGETS, type OrderFigures } from './orders.ts';
import { benchPages, PAGE_BUDGETS, type PageFigures } from './pages.ts';
import { benchSearch, MEMORY_BUDGETS, SEARCH_BUDGETS, type SearchFigures } from './search.ts';
import { benchStorefront } from './storefront.ts';

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '1500,100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    postgres: { type: 'boolean', default: false },
    only: { type: 'string', default: 'api,accounts,search,orders,images,csv,pages,lighthouse,bundle' },
    runs: { type: 'string', default: '3' },
    'page-products': { type: 'string', default: '1500' },
    'skip-build': { type: 'boolean', default: false },
    'soak-minutes': { type: 'string', default: '30' },
    'soak-rate': { type: 'string', default: '200' },
    'soak-costs': { type: 'string', default: '0' },
    'soak-database': { type: 'string' },
  },
});

const SUITES = [
  'api',
  'accounts',
  'search',
  'orders',
  'images',
  'csv',
  'pages',
  'lighthouse',
  'bundle',
  'backup-pause',
  'soak',
];
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

/** Password cost (printed, not budgeted: it is on purpose) and the authenticated read against its budget. */
function reportAccounts(figures: AccountFigures): void {
  console.log(`\nAccounts — ${figures.database}, ${connections} connections, ${durationSeconds} s each`);
  console.log(
    `  argon2id (19 MiB, t=2): hash ${figures.hashMedianMs} ms, verify ${figures.verifyMedianMs} ms (median); ${figures.loginsPerSecond} password checks/s with 10 at a time`,
  );
  console.log(row(['route', 'req/s', 'ratio', 'p50 ms', 'p99 ms', 'budget']));
  console.log(
    row([
      figures.bare.title,
      Math.round(figures.bare.requestsPerSecond),
      '1.00',
      figures.bare.p50Ms,
      figures.bare.p99Ms,
      '',
    ]),
  );
  const ratio = figures.profile.requestsPerSecond / figures.bare.requestsPerSecond;
  const ok =
    ratio >= ACCOUNT_BUDGETS.authenticatedReadRatio && figures.profile.errors === 0 && figures.profile.non2xx === 0;
  console.log(
    row([
      figures.profile.title,
      Math.round(figures.profile.requestsPerSecond),
      ratio.toFixed(3),
      figures.profile.p50Ms,
      figures.profile.p99Ms,
      `${ok ? 'ok' : 'MISSED'} (≥${ACCOUNT_BUDGETS.authenticatedReadRatio}×)`,
    ]),
  );
  if (figures.profile.errors || figures.profile.non2xx) {
    console.log(`  errors: ${figures.profile.errors}, non-2xx: ${figures.profile.non2xx}`);
  }
  if (!ok) failures.push(`authenticated read on ${figures.database}`);
}

if (suites.has('accounts')) {
  reportAccounts(await benchAccounts({ connections, durationSeconds }));
  if (values.postgres) {
    const { createScratchDatabase } = await import('../tests/helpers/postgres.ts');
    const scratch = await createScratchDatabase();
    try {
      reportAccounts(await benchAccounts({ connections, durationSeconds, databaseUrl: scratch.url }));
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
  const checks: [string, SearchFigures['autocomplete'], typeof figures.bare, number, number | null][] = [
    [
      'GET /api/search/autocomplete',
      figures.autocomplete,
      figures.autocompleteLoad,
      SEARCH_BUDGETS.autocompleteP95Ms,
      SEARCH_BUDGETS.autocompleteMinRatio,
    ],
    ['GET /api/search', figures.search, figures.searchLoad, SEARCH_BUDGETS.searchP95Ms, SEARCH_BUDGETS.searchMinRatio],
  ];
  for (const [title, latency, load, budget, minimumRatio] of checks) {
    const ratio = load.requestsPerSecond / figures.bare.requestsPerSecond;
    const ok =
      latency.p95Ms <= budget &&
      (minimumRatio === null || ratio >= minimumRatio) &&
      load.errors === 0 &&
      load.non2xx === 0;
    console.log(
      row([
        title,
        latency.p50Ms,
        latency.p95Ms,
        latency.maxMs,
        Math.round(load.requestsPerSecond),
        ratio.toFixed(3),
        `${ok ? 'ok' : 'MISSED'} (p95 ≤${budget}${minimumRatio === null ? '' : `, ≥${minimumRatio}×`})`,
      ]),
    );
    console.log(`  slowest: ${latency.slowest.map((entry) => `${entry.path} ${entry.medianMs} ms`).join(' · ')}`);
    if (load.errors || load.non2xx) console.log(`  errors: ${load.errors}, non-2xx: ${load.non2xx}`);
    if (!ok) failures.push(`${title} at ${figures.products} products on ${figures.database}`);
  }
  const uncached = figures.searchUncached;
  console.log(
    `  GET /api/search asked for the first time (no kept answer): p50 ${uncached.p50Ms} ms, p95 ${uncached.p95Ms} ms, max ${uncached.maxMs} ms; slowest: ${uncached.slowest.map((entry) => `${entry.path} ${entry.medianMs} ms`).join(' · ')}`,
  );
  const { buildMs, fromDatabase, answered } = figures.suggestionIndex;
  console.log(
    `  suggestion index: built in ${buildMs} ms; ${fromDatabase} of ${answered} suggestions answered by the database (empty answers are confirmed there)`,
  );
  console.log(row(['bare Fastify route', '', '', '', Math.round(figures.bare.requestsPerSecond), '1.00', '']));
  const { memory } = figures;
  const rssBudget = figures.database === 'postgres' ? MEMORY_BUDGETS.postgresRssMb : MEMORY_BUDGETS.pgliteRssMb;
  // The RSS budget is set for 100,000 products; growth across the second round is checked at every size.
  const rssOk = figures.products < 100_000 || memory.afterSecondRoundRssMb <= rssBudget;
  const growth = memory.afterSecondRoundRssMb - memory.afterLoadRssMb;
  const growthOk = growth <= MEMORY_BUDGETS.secondRoundGrowthMb;
  console.log(
    `  server memory${memory.withPages ? '' : ' (API only: no storefront build)'}: RSS ${memory.idleRssMb} MB idle, ${memory.afterLoadRssMb} MB after the load, ${memory.afterSecondRoundRssMb} MB after a second round (heap ${memory.heapAfterSecondRoundMb} MB used of ${memory.heapTotalAfterSecondRoundMb} MB, young generation ${memory.newSpaceAfterSecondRoundMb} MB of it; ${memory.externalAfterSecondRoundMb} MB outside it) — ${rssOk && growthOk ? 'ok' : 'MISSED'} (≤${rssBudget} MB at 100,000 products, second round ≤+${MEMORY_BUDGETS.secondRoundGrowthMb} MB)`,
  );
  if (!rssOk) failures.push(`server RSS after load at ${figures.products} products on ${figures.database}`);
  if (!growthOk)
    failures.push(
      `server RSS grew ${growth} MB in a second round at ${figures.products} products on ${figures.database}`,
    );
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

/**
 * Order placement against its budgets on PostgreSQL (PGlite is printed, not budgeted), and the
 * cart page's SSR time: with the gateway answering at once (orders/s and p95), and with a slow
 * gateway and every buyer after one product (orders/s: charges side by side, issue 24).
 */
function reportOrders(figures: OrderFigures): void {
  const slow = figures.paymentLatencyMs > 0;
  console.log(
    `\nOrders — ${figures.database}, ${figures.buyers} buyers placing orders at once, ${figures.durationSeconds} s (latency of placed orders)${slow ? `; the gateway answers in ${figures.paymentLatencyMs} ms` : ''}${figures.oneProduct ? '; every order is of one product' : ''}`,
  );
  console.log(row(['route', 'orders/s', 'p50 ms', 'p95 ms', 'p99 ms', 'budget']));
  const failed = Object.values(figures.failures).reduce((sum, count) => sum + count, 0);
  const budgeted = figures.database === 'postgres';
  const ok = slow
    ? figures.ordersPerSecond >= ORDER_BUDGETS.slowGatewayOrdersPerSecond && failed === 0
    : figures.ordersPerSecond >= ORDER_BUDGETS.ordersPerSecond &&
      figures.latency.p95Ms <= ORDER_BUDGETS.p95Ms &&
      failed === 0;
  const budget = slow
    ? `≥${ORDER_BUDGETS.slowGatewayOrdersPerSecond}/s`
    : `≥${ORDER_BUDGETS.ordersPerSecond}/s, p95 ≤${ORDER_BUDGETS.p95Ms}`;
  console.log(
    row([
      'POST /api/orders',
      figures.ordersPerSecond,
      figures.latency.p50Ms,
      figures.latency.p95Ms,
      figures.latency.p99Ms,
      budgeted ? `${ok ? 'ok' : 'MISSED'} (${budget})` : 'no budget on PGlite',
    ]),
  );
  console.log(
    `  ${figures.orders} orders placed${failed ? `; not placed: ${JSON.stringify(figures.failures)} (status: count)` : ''}`,
  );
  if (budgeted && !ok) failures.push(`order placement on ${figures.database}${slow ? ' with a slow gateway' : ''}`);
  if (slow) return;
  const { cart } = figures;
  console.log(
    row([
      `GET /cart (signed in, ${cart.lines} lines)`,
      `HTTP ${cart.status}`,
      cart.latency.p50Ms,
      cart.latency.p95Ms,
      cart.latency.p99Ms,
      `SSR, ${cart.runs} one at a time, ${Math.round(cart.bytes / 1024)} KiB`,
    ]),
  );
  if (cart.status !== 200)
    console.log(`  the cart page answered ${cart.status}: its time is that answer's, not the cart's`);
  else if (cart.linesShown < cart.lines) {
    console.log(`  the rendered page shows ${cart.linesShown} of the ${cart.lines} saved lines' products`);
  }
}

if (suites.has('orders')) {
  const slowGateway = { paymentLatencyMs: ORDER_BUDGETS.slowGatewayMs, oneProduct: true };
  reportOrders(await benchOrders({ connections, durationSeconds }));
  reportOrders(await benchOrders({ connections, durationSeconds, ...slowGateway }));
  if (values.postgres) {
    const { createScratchDatabase } = await import('../tests/helpers/postgres.ts');
    for (const gateway of [{}, slowGateway]) {
      const scratch = await createScratchDatabase();
      try {
        reportOrders(await benchOrders({ connections, durationSeconds, databaseUrl: scratch.url, ...gateway }));
      } finally {
        await scratch.drop();
      }
    }
  }
}

/** Picture uploads (issue 10): time per upload, printed without a budget (the issue sets none). */
function reportImages(figures: ImageFigures): void {
  const { source } = figures;
  console.log(
    `\nPicture uploads — ${source.width} × ${source.height} JPEG of ${(source.bytes / 1e6).toFixed(1)} MB, ${figures.uploads} uploads one at a time`,
  );
  console.log(row(['step', 'median ms', 'min ms', 'max ms', 'budget']));
  const { processing, roundTrip } = figures;
  console.log(
    row(['checks + decode + 3 WebP sizes', processing.medianMs, processing.minMs, processing.maxMs, 'none set']),
  );
  console.log(row(['POST /api/products/images', roundTrip.medianMs, roundTrip.minMs, roundTrip.maxMs, 'none set']));
  console.log(
    `  one upload becomes ${figures.outputs.map((file) => `${file.width} px ${Math.round(file.bytes / 1024)} KiB`).join(', ')}; resident memory grew ${figures.rssGrowthMb} MB over the processing runs`,
  );
}

if (suites.has('images')) {
  const { benchImages } = await import('./images.ts');
  reportImages(await benchImages());
}

/** Product CSV import (issue 10): seconds for a 10,000-row file, created then re-imported (updated), under a minute each. */
function reportCsvImport(figures: CsvImportFigures, budgetSeconds: number): void {
  console.log(
    `\nCSV import — ${figures.rows.toLocaleString('en-AU')} rows (${(figures.bytes / 1e6).toFixed(1)} MB) on ${figures.database}, POST /api/admin/products/import`,
  );
  console.log(row(['run', 'seconds', 'created', 'updated', 'budget']));
  for (const [title, run, expected] of [
    ['new SKUs (all created)', figures.create, { created: figures.rows, updated: 0 }],
    ['same file again (all updated)', figures.update, { created: 0, updated: figures.rows }],
  ] as const) {
    const ok =
      run.status === 200 &&
      run.created === expected.created &&
      run.updated === expected.updated &&
      run.seconds < budgetSeconds;
    console.log(row([title, run.seconds, run.created, run.updated, `${ok ? 'ok' : 'MISSED'} (< ${budgetSeconds} s)`]));
    if (run.status !== 200) console.log(`  the import answered HTTP ${run.status}`);
    if (!ok) failures.push(`CSV import of ${figures.rows} rows (${title}) on ${figures.database}`);
  }
  console.log(`  ${figures.productsAfter.toLocaleString('en-AU')} products in the catalogue afterwards`);
}

if (suites.has('csv')) {
  const { benchCsvImport, CSV_IMPORT_BUDGETS } = await import('./csv-import.ts');
  reportCsvImport(await benchCsvImport(), CSV_IMPORT_BUDGETS.seconds);
  if (values.postgres) {
    const { createScratchDatabase } = await import('../tests/helpers/postgres.ts');
    const scratch = await createScratchDatabase();
    try {
      reportCsvImport(await benchCsvImport({ databaseUrl: scratch.url }), CSV_IMPORT_BUDGETS.seconds);
    } finally {
      await scratch.drop();
    }
  }
}

/** Server-rendered pages (issue 13): catalogue pages from the page cache, signed out and in; a signed-in view also asks for the account summary. */
function reportPages(figures: PageFigures): void {
  const { bare } = figures;
  console.log(
    `\nPages — ${figures.products.toLocaleString('en-AU')} products on ${figures.database}, ${connections} connections, ${durationSeconds} s each`,
  );
  console.log(row(['route', 'req/s', 'ratio', 'p50 ms', 'p99 ms', 'server µs', 'budget']));
  console.log(
    row([bare.title, Math.round(bare.requestsPerSecond), '1.00', bare.p50Ms, bare.p99Ms, bare.serverCpuMicros, '']),
  );
  const checks = [
    ...figures.anonymous.map((result) => ({
      result,
      ratio: PAGE_BUDGETS.anonymousRatio,
      p99: PAGE_BUDGETS.anonymousP99Ms,
    })),
    { result: figures.signedIn, ratio: PAGE_BUDGETS.signedInRatio, p99: Number.POSITIVE_INFINITY },
    { result: figures.signedInViews, ratio: PAGE_BUDGETS.signedInRatio, p99: Number.POSITIVE_INFINITY },
  ];
  for (const { result, ratio: minimumRatio, p99 } of checks) {
    const ratio = result.requestsPerSecond / bare.requestsPerSecond;
    const ok = ratio >= minimumRatio && result.p99Ms <= p99 && result.errors === 0 && result.non2xx === 0;
    const budget = `≥${minimumRatio}×${Number.isFinite(p99) ? `, p99 ≤${p99}` : ''}`;
    console.log(
      row([
        result.title,
        Math.round(result.requestsPerSecond),
        ratio.toFixed(3),
        result.p50Ms,
        result.p99Ms,
        result.serverCpuMicros,
        `${ok ? 'ok' : 'MISSED'} (${budget})`,
      ]),
    );
    if (result.errors || result.non2xx) console.log(`  errors: ${result.errors}, non-2xx: ${result.non2xx}`);
    if (!ok) failures.push(`${result.title} at ${figures.products} products on ${figures.database}`);
  }
  const capacity = figures.anonymous.map(
    (result) =>
      `${result.title.replace(' (signed out)', '')} ${(bare.serverCpuMicros / Math.max(1, result.serverCpuMicros)).toFixed(2)}×`,
  );
  console.log(
    `  server CPU per request against the bare route's (what the server could serve if the load generator kept up): ${capacity.join(', ')}; signed in ${(bare.serverCpuMicros / Math.max(1, figures.signedIn.serverCpuMicros)).toFixed(3)}×`,
  );
  console.log(
    `  page sizes: ${figures.sizes.map((size) => `${size.page} ${Math.round(size.htmlBytes / 1024)} KiB HTML, ${Math.round(size.brBytes / 1024)} KiB br`).join('; ')}`,
  );
}

for (const products of suites.has('pages') ? sizes : []) {
  const skipBuild = values['skip-build'] || products !== sizes[0];
  reportPages(await benchPages({ products, connections, durationSeconds, skipBuild }));
  if (values.postgres) {
    const { createScratchDatabase } = await import('../tests/helpers/postgres.ts');
    const scratch = await createScratchDatabase();
    try {
      reportPages(
        await benchPages({ products, connections, durationSeconds, skipBuild: true, databaseUrl: scratch.url }),
      );
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

// Not in the default run: it seeds its own 100,000-product embedded database once (bench/.data).
if (suites.has('backup-pause')) {
  const { BACKUP_PAUSE_BUDGET_MS, benchBackupPause } = await import('./backup-pause.ts');
  const figures = await benchBackupPause({ products: 100_000, rate: 4 });
  const ok = figures.during.maxMs < BACKUP_PAUSE_BUDGET_MS && figures.during.errors === 0;
  console.log(
    `\nBackup pause — ${figures.products.toLocaleString('en-AU')} products on PGlite (${figures.databaseMb} MB), shoppers at ${figures.rate} requests/s`,
  );
  console.log(
    `  before: ${figures.before.requests} requests, p95 ${figures.before.p95Ms} ms, max ${figures.before.maxMs} ms`,
  );
  console.log(
    `  during the backup (${figures.backupSeconds} s, ${figures.backupMb} MB file, database held ${figures.heldMs} ms): ${figures.during.requests} requests, p95 ${figures.during.p95Ms} ms, max ${figures.during.maxMs} ms, ${figures.during.errors} errors — ${ok ? 'ok' : 'MISSED'} (max < ${BACKUP_PAUSE_BUDGET_MS} ms)`,
  );
  if (!ok) failures.push('backup pause at 100,000 products');
}

// Not in the default run: half an hour of traffic on a PostgreSQL scratch database it seeds with 100,000 products.
if (suites.has('soak')) {
  const { benchSoak, SOAK_BUDGETS, SOAK_ORDER_SHARE } = await import('./soak.ts');
  const minutes = Number(values['soak-minutes']);
  const rate = Number(values['soak-rate']);
  if (!(minutes > 0) || !(rate > 0)) {
    console.error('--soak-minutes and --soak-rate take positive numbers.');
    process.exit(2);
  }
  const widths = [8, 10, 8, 9, 9, 9, 9, 9, 12, 6, 11, 0];
  const soakRow = (cells: (string | number)[]) =>
    cells.map((cell, index) => String(cell).padEnd(widths[index] ?? 0)).join('');
  const { createScratchDatabase } = await import('../tests/helpers/postgres.ts');
  const kept = values['soak-database'];
  const scratch = kept ? { url: kept, drop: async () => {} } : await createScratchDatabase();
  const costSeconds = Number(values['soak-costs']);
  try {
    if (costSeconds > 0) {
      console.log(
        `\nSoak costs — each kind alone for ${costSeconds} s at its share of ${rate} requests/s, after a pass that warms it: the server's CPU per request (including what it does after answering) and its share of one core`,
      );
      console.log(row(['kind', 'per s', 'CPU ms/req', 'CPU %', 'p50 ms', 'p95 ms', 'not 2xx']));
    }
    // The minutes' table follows the costs (when measured): its heading is printed with its first row.
    let headed = false;
    const printHeading = () => {
      if (headed) return;
      headed = true;
      console.log(
        `\nSoak — 100,000 products on PostgreSQL, ${minutes} min at ${rate} requests/s (${rate * SOAK_ORDER_SHARE} orders/s), open loop, after a warm-up; CPU %: the server's (100 = one core), in brackets the machine's (all ${availableParallelism()} cores)`,
      );
      console.log(
        soakRow([
          'minute',
          'requests',
          'orders',
          'p50 ms',
          'p95 ms',
          'max ms',
          'RSS MB',
          'heap MB',
          'CPU % (all)',
          '5xx',
          'no answer',
          'other',
        ]),
      );
    };
    const figures = await benchSoak({
      databaseUrl: scratch.url,
      minutes,
      rate,
      reuse: kept !== undefined,
      costSeconds,
      onCost: (cost) =>
        console.log(
          row([`  ${cost.kind}`, cost.rate, cost.cpuMsPerRequest, cost.cpuPercent, cost.p50Ms, cost.p95Ms, cost.notOk]),
        ),
      onMinute: (minute) => {
        printHeading();
        console.log(
          soakRow([
            minute.minute,
            minute.requests,
            minute.orders,
            minute.p50Ms,
            minute.p95Ms,
            minute.maxMs,
            minute.rssMb,
            minute.heapMb ?? '?',
            `${minute.serverCpuPercent} (${minute.machineCpuPercent})`,
            minute.serverErrors,
            minute.unanswered,
            Object.entries(minute.otherStatuses)
              .map(([status, count]) => `${status}×${count}`)
              .join(' '),
          ]),
        );
      },
    });
    printHeading();
    const { rss, totals } = figures;
    if (figures.serverExit) {
      console.log(
        `  the shop server ended during the soak (${figures.serverExit.how}); its last lines:\n${figures.serverExit.lastLines}`,
      );
      failures.push(`soak: the shop server ended during the run (${figures.serverExit.how})`);
    }
    console.log(
      `  ${totals.requests} requests (${Math.round(totals.requests / (minutes * 60))}/s), ${totals.orders} orders placed (${(totals.orders / (minutes * 60)).toFixed(2)}/s), ${totals.serverErrors} 5xx, ${totals.unanswered} without an answer; warm-up ${figures.warmUpSeconds} s before minute 1; the load generator sent at most ${figures.maxSendLagMs} ms late`,
    );
    console.log(row(['by kind', 'requests', 'p50 ms', 'p95 ms', 'max ms', 'not 2xx']));
    for (const kind of figures.byKind) {
      console.log(row([`  ${kind.kind}`, kind.requests, kind.p50Ms, kind.p95Ms, kind.maxMs, kind.notOk]));
    }
    const start =
      rss.baselineAtSeconds >= 300
        ? 'the first 5 minutes'
        : `the first sixth of the run (${rss.baselineAtSeconds} s; the first 5 minutes in a run of 30 minutes or more)`;
    const growth = (rss.endMb - rss.baselineMb) / rss.baselineMb;
    const rssOk = growth < SOAK_BUDGETS.rssGrowth;
    console.log(
      `  RSS growth after ${start}: ${rss.baselineMb} MB → ${rss.endMb} MB at the end, ${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} % (highest meanwhile ${rss.maxAfterBaselineMb} MB, peak ever ${rss.peakMb} MB) — ${rssOk ? 'ok' : 'MISSED'} (< ${SOAK_BUDGETS.rssGrowth * 100} %)`,
    );
    if (!rssOk) failures.push(`soak: RSS grew ${(growth * 100).toFixed(1)} % after ${start}`);
    const first = figures.rows[0]?.p95Ms ?? 0;
    const limit = Math.round(first * SOAK_BUDGETS.p95Factor * 10) / 10;
    const slow = figures.rows.filter((minute) => minute.p95Ms > limit);
    console.log(
      `  p95 per minute against minute 1's ${first} ms: highest ${Math.max(...figures.rows.map((minute) => minute.p95Ms))} ms${slow.length ? `; over ${limit} ms in minute ${slow.map((minute) => minute.minute).join(', ')}` : ''} — ${slow.length === 0 ? 'ok' : 'MISSED'} (≤ ${SOAK_BUDGETS.p95Factor}× = ${limit} ms)`,
    );
    if (slow.length) failures.push(`soak: p95 over ${limit} ms in ${slow.length} of ${figures.rows.length} minutes`);
    const errorsOk = totals.serverErrors === 0 && totals.unanswered === 0;
    console.log(
      `  errors: ${totals.serverErrors} 5xx, ${totals.unanswered} without an answer — ${errorsOk ? 'ok' : 'MISSED'} (0 5xx, every request answered)`,
    );
    if (!errorsOk)
      failures.push(`soak: ${totals.serverErrors} 5xx and ${totals.unanswered} requests without an answer`);
  } finally {
    await scratch.drop();
  }
}

if (failures.length > 0) {
  console.log(`\nBudgets missed:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('\nAll budgets met.');
