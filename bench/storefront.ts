import { resolve } from 'node:path';
import { BUNDLE_BUDGET_GZIP_BYTES, formatKb, measureBundles } from './bundle-size.ts';
import { benchLighthouse, LIGHTHOUSE_BUDGETS, LIGHTHOUSE_CATEGORIES, missedBudgets } from './lighthouse.ts';
import { buildStorefront, pickBenchPages, startShopServer } from './shop-server.ts';

export interface StorefrontBenchOptions {
  lighthouse: boolean;
  bundle: boolean;
  /** Lighthouse runs per page; the median counts. */
  runs: number;
  /** Demo catalogue size of the server under test. */
  products: number;
  /** Use the existing build in BUILD_DIR instead of building first. */
  skipBuild: boolean;
}

function row(cells: (string | number)[], widths: number[]): string {
  return cells.map((cell, index) => String(cell).padEnd(widths[index] ?? 12)).join('');
}

/**
 * Builds the storefront, starts the real server on a fresh seeded database and
 * measures home, a subcategory page and a product page: Lighthouse scores
 * against the budgets, and the JavaScript each page ships. Returns the missed budgets.
 */
export async function benchStorefront(options: StorefrontBenchOptions): Promise<string[]> {
  const buildDir = resolve(process.env.BUILD_DIR ?? 'build');
  if (!options.skipBuild) buildStorefront(buildDir);
  const server = await startShopServer({ buildDir, products: options.products });
  const failures: string[] = [];
  try {
    const pages = await pickBenchPages(server.baseUrl);

    if (options.bundle) {
      const bundles = await measureBundles({ baseUrl: server.baseUrl, pages });
      console.log(`\nJavaScript shipped per page (${options.products.toLocaleString('en-AU')} products)`);
      const widths = [14, 56, 10, 12, 12, 16];
      console.log(row(['page', 'path', 'files', 'raw', 'gzip', 'budget'], widths));
      for (const figures of bundles) {
        console.log(
          row(
            [
              figures.page.name,
              figures.page.path,
              figures.scripts.length,
              formatKb(figures.bytes),
              formatKb(figures.gzipBytes),
              `${figures.gzipBytes <= BUNDLE_BUDGET_GZIP_BYTES ? 'ok' : 'MISSED'} (≤${formatKb(BUNDLE_BUDGET_GZIP_BYTES)})`,
            ],
            widths,
          ),
        );
        if (figures.gzipBytes > BUNDLE_BUDGET_GZIP_BYTES) {
          failures.push(
            `JavaScript on ${figures.page.name} (${figures.page.path}): ${formatKb(figures.gzipBytes)} gzip`,
          );
        }
      }
      const largest = bundles.flatMap((figures) => figures.scripts).toSorted((a, b) => b.gzipBytes - a.gzipBytes);
      const unique = [...new Map(largest.map((asset) => [asset.url, asset])).values()].slice(0, 5);
      console.log(`  largest files: ${unique.map((asset) => `${asset.url} ${formatKb(asset.gzipBytes)}`).join(', ')}`);
    }

    if (options.lighthouse) {
      const reportDir = resolve('bench/results');
      const results = await benchLighthouse({ baseUrl: server.baseUrl, pages, runs: options.runs, reportDir });
      console.log(`\nLighthouse ${'(mobile preset, median of '}${options.runs})`);
      const widths = [14, 14, 16, 16, 10, 12, 12, 10];
      const budget = LIGHTHOUSE_CATEGORIES.map((category) => `≥${LIGHTHOUSE_BUDGETS[category]}`);
      console.log(
        row(['page', 'performance', 'accessibility', 'best-practices', 'seo', 'LCP ms', 'TBT ms', 'CLS'], widths),
      );
      console.log(row(['budget', ...budget, '', '', ''], widths));
      for (const figures of results) {
        const missed = missedBudgets(figures);
        console.log(
          row(
            [
              figures.page.name,
              ...LIGHTHOUSE_CATEGORIES.map((category) => figures.scores[category]),
              figures.metrics.lcpMs,
              figures.metrics.tbtMs,
              figures.metrics.cls,
            ],
            widths,
          ) + (missed.length > 0 ? 'MISSED' : 'ok'),
        );
        for (const audit of figures.flagged) {
          const value = audit.displayValue ? ` (${audit.displayValue})` : '';
          console.log(`    ${audit.category}: ${audit.id} — ${audit.title}${value}`);
        }
        for (const miss of missed) failures.push(`Lighthouse ${figures.page.name} (${figures.page.path}): ${miss}`);
      }
      console.log(`  full reports of the median runs: ${reportDir}/lighthouse-<page>.json`);
    }
  } finally {
    await server.stop();
  }
  return failures;
}
