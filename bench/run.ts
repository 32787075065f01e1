/**
 * `npm run bench`: prints the shop's speed figures and checks them against the
 * issue budgets. Options: --products 1500,100000  --duration 10  --connections 10
 * --postgres (also run on PostgreSQL; needs BENCH_POSTGRES_URL or the local server).
 * Exits 1 when a budget is missed.
 */
import { parseArgs } from 'node:util';
import { API_BUDGETS, type ApiLoadFigures, benchApiLoad } from './api-load.ts';

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '1500,100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    postgres: { type: 'boolean', default: false },
  },
});

const sizes = values.products.split(',').map(Number);
const durationSeconds = Number(values.duration);
const connections = Number(values.connections);
const failures: string[] = [];

function row(cells: (string | number)[]): string {
  return cells.map((cell, index) => String(cell).padEnd(index === 0 ? 34 : 12)).join('');
}

function report(figures: ApiLoadFigures): void {
  const { bare } = figures;
  console.log(`\nAPI load — ${figures.products.toLocaleString('en-AU')} products on ${figures.database}, ${connections} connections, ${durationSeconds} s each`);
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

for (const products of sizes) {
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

if (failures.length > 0) {
  console.log(`\nBudgets missed:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('\nAll budgets met.');
