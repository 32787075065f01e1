import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { type BenchPage, CHROMIUM_FLAGS, CHROMIUM_PATH } from './shop-server.ts';

/** Issue 13's budget: gzip JavaScript a page loads, in bytes (110 kB). */
export const BUNDLE_BUDGET_GZIP_BYTES = 110 * 1024;

export interface ScriptAsset {
  url: string;
  bytes: number;
  gzipBytes: number;
}

export interface BundleFigures {
  page: BenchPage;
  scripts: ScriptAsset[];
  bytes: number;
  gzipBytes: number;
}

/**
 * The JavaScript each page really loads: the page is opened in Chromium (phone
 * viewport), every script it fetches until the network is idle is recorded —
 * entry, route chunks, shared chunks, anything loaded lazily during start-up —
 * and each file is gzipped here (zlib default level), so the figure does not
 * depend on which encoding the server picked.
 */
export async function measureBundles(options: { baseUrl: string; pages: BenchPage[] }): Promise<BundleFigures[]> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_FLAGS.filter((flag) => !flag.startsWith('--headless')),
  });
  try {
    const figures: BundleFigures[] = [];
    for (const page of options.pages) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
      const tab = await context.newPage();
      const pending: Promise<ScriptAsset | null>[] = [];
      tab.on('response', (response) => {
        if (response.request().resourceType() !== 'script') return;
        pending.push(
          response.body().then(
            (body) => ({ url: new URL(response.url()).pathname, bytes: body.length, gzipBytes: gzipSync(body).length }),
            () => null,
          ),
        );
      });
      await tab.goto(`${options.baseUrl}${page.path}`, { waitUntil: 'networkidle' });
      const scripts = (await Promise.all(pending))
        .filter((asset): asset is ScriptAsset => asset !== null)
        .toSorted((a, b) => b.gzipBytes - a.gzipBytes);
      figures.push({
        page,
        scripts,
        bytes: scripts.reduce((sum, asset) => sum + asset.bytes, 0),
        gzipBytes: scripts.reduce((sum, asset) => sum + asset.gzipBytes, 0),
      });
      await context.close();
    }
    return figures;
  } finally {
    await browser.close();
  }
}

export function formatKb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} kB`;
}
