import type { Locator, Page } from 'playwright-core';
import { inject } from 'vitest';
import type { ProductPage } from '../../contracts/catalog.ts';

/** Shared bits of the catalogue-browsing journeys (browse-*.test.ts). */

export const baseUrl = inject('baseUrl');

/**
 * How long to wait for the page to catch up after a click. Generous: React commits a router
 * navigation in a transition, which may wait for the new pictures, and CI machines are busy.
 */
export const SETTLE = { timeout: 10_000 };

export async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${baseUrl}/api${path}`);
  if (!response.ok) throw new Error(`GET /api${path} answered ${response.status}`);
  return (await response.json()) as T;
}

export function productsApi(query: Record<string, string | number | boolean>): Promise<ProductPage> {
  const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  return api<ProductPage>(`/products?${search}`);
}

/**
 * Resolves once React has hydrated the server HTML: the root layout marks `data-hydrated` after
 * its first commit. (The route modules being registered is not enough: they are before React
 * takes the page over, and a link clicked in between went to the server as a new document, under
 * load.)
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForSelector('html[data-hydrated="true"]', { state: 'attached', timeout: 30_000 });
  // One more frame so effects (observers, hydrated switches) have run.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
}

/** The product names of the listing grid, in order. */
export async function gridNames(page: Page, listName = 'Products'): Promise<string[]> {
  const names = await page
    .getByRole('list', { name: listName, exact: true })
    .locator(':scope > li h3')
    .allTextContents();
  return names.map((name) => name.trim());
}

/** The "N products found" number. */
export async function foundCount(page: Page): Promise<number> {
  const text = await page
    .getByText(/\d[\d,]* products? found/)
    .first()
    .textContent();
  return Number((text ?? '').replace(/,/g, '').match(/(\d+) products? found/)?.[1] ?? Number.NaN);
}

/**
 * Where the server sends a client-side navigation to `path`: the browser asks React Router's
 * data request (`/x.data?…&_routes=…`), which answers a redirect as a turbo-stream value
 * `…,"redirect","/target",…` rather than with a Location header.
 */
export async function dataRequestRedirect(path: string, routeId: string): Promise<unknown> {
  const url = new URL(path, baseUrl);
  url.pathname += '.data';
  url.searchParams.set('_routes', routeId);
  const response = await fetch(url, { redirect: 'manual' });
  const values = (await response.json()) as unknown[];
  const at = values.indexOf('redirect');
  return at === -1 ? undefined : values[at + 1];
}

/** Server HTML escapes these in text. */
export function htmlText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll("'", '&#x27;');
}

/** Marks the window so a test can tell a client-side navigation (mark kept) from a full load (mark gone). */
export async function markWindow(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as { browseMark?: boolean }).browseMark = true;
  });
}

export async function windowMarked(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as { browseMark?: boolean }).browseMark === true);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A visible link to the category in the home page's main content (its slider or category navigation). */
export function homeCategoryLink(page: Page, category: { id: number; name: string }): Locator {
  return page
    .locator('main')
    .getByRole('link', { name: category.name, exact: true })
    .and(page.locator(`[href="/category/${category.id}"]`))
    .filter({ visible: true })
    .first();
}
