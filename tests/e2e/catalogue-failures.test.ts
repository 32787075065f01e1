import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import type { Category } from '../../contracts/catalog.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';
import { markWindow, SETTLE, waitForHydration, windowMarked } from './browse-helpers.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

type Catalog = TestShop['app']['services']['catalog'];

/**
 * Spec §8's texts where one catalogue load fails and the rest of the page does not. A part of a
 * page that the server renders cannot be made to fail from the browser, so this file runs its own
 * shop (the real app and built storefront, listening on a port, on an in-memory database) and makes
 * single catalogue reads fail on the server, as a database outage would, then puts them back.
 */
describe('catalogue loads that fail', () => {
  let shop: TestShop;
  let baseUrl: string;
  let browser: Browser;
  let consoleError: MockInstance<typeof console.error>;
  const repairs: (() => void)[] = [];
  /** What the pages of one test reported: a failed part must not break hydration or throw. */
  const pageErrors: string[][] = [];

  /** Makes `catalog[method]` reject (for the calls `when` picks) until `repair()` or the test's end. */
  function breakCatalog<K extends keyof Catalog>(
    method: K,
    when: (...args: Parameters<Catalog[K]>) => boolean = () => true,
  ): () => void {
    const catalog = shop.app.services.catalog;
    const original = catalog[method];
    const broken = (...args: Parameters<Catalog[K]>) =>
      when(...args)
        ? Promise.reject(new Error('connection to the database was refused (test)'))
        : (original as (...a: Parameters<Catalog[K]>) => unknown)(...args);
    catalog[method] = broken as Catalog[K];
    const repair = () => {
      catalog[method] = original;
    };
    repairs.push(repair);
    return repair;
  }

  async function open(path: string, width = 1280): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    pageErrors.push(watchPageErrors(page));
    const response = await page.goto(`${baseUrl}${path}`);
    // A failed part does not fail the page.
    expect(response?.status()).toBe(200);
    await waitForHydration(page);
    return page;
  }

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 120, storefront: true });
    await shop.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(shop.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
  });
  afterEach(() => {
    for (const repair of repairs.splice(0)) repair();
    consoleError?.mockRestore();
    // This shop's catalogue has no picture files (seeded without a media folder): those 404s are expected.
    const reported = pageErrors.splice(0).flat();
    expect(reported.filter((text) => !/^Failed to load resource: .* 404 /.test(text))).toEqual([]);
  });

  function silenceServerLog() {
    // The server still logs each failure (it is not swallowed); keep it out of the test output.
    consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  }

  it("shows 'Failed to fetch categories' in the header menus, and the home slider's text", async () => {
    silenceServerLog();
    breakCatalog('listCategories');
    const page = await open('/shop-by-brand');
    await page.getByRole('button', { name: 'Shop by Category' }).click();
    const menu = page.getByRole('navigation', { name: 'Categories' });
    await expect
      .poll(() => menu.getByText('Failed to fetch categories', { exact: true }).isVisible(), SETTLE)
      .toBe(true);
    // The rest of the page is there.
    expect(await page.getByRole('heading', { level: 1, name: 'Shop by Brand' }).isVisible()).toBe(true);
    await page.close();

    const phone = await open('/shop-by-brand', 390);
    await phone.getByRole('button', { name: 'Menu', exact: true }).click();
    const dialog = phone.getByRole('dialog', { name: 'Menu' });
    await expect
      .poll(() => dialog.getByText('Failed to fetch categories', { exact: true }).isVisible(), SETTLE)
      .toBe(true);
    await phone.close();

    const home = await open('/');
    await expect
      .poll(
        () => home.getByText('Error loading categories: Failed to fetch categories', { exact: true }).isVisible(),
        SETTLE,
      )
      .toBe(true);
    // The home page's departments say the same in place; the page itself stays up.
    expect(
      await home
        .getByRole('region', { name: 'Browse Departments' })
        .getByText('Failed to fetch categories')
        .isVisible(),
    ).toBe(true);
    expect(await home.getByRole('region', { name: 'New Arrivals' }).getByRole('listitem').count()).toBeGreaterThan(0);
    await home.close();

    // The 404 page lists popular categories: without them it is still the 404 page.
    const missing = await fetch(`${baseUrl}/no-such-page`);
    expect(missing.status).toBe(404);
    const html = await missing.text();
    expect(html).toContain('Page not found');
    expect(html).toContain('Failed to fetch categories');
    // Streamed, yet not silent: the server logged the failure.
    expect(consoleError).toHaveBeenCalled();
  });

  it("shows 'Failed to fetch category products' on a category page, and Try Again brings them", async () => {
    const [category] = (await shop.app.services.catalog.listCategories()) as Category[];
    silenceServerLog();
    const repair = breakCatalog('listProducts', (query) => query.categoryId === category!.id);
    const page = await open(`/category/${category!.id}`);
    expect(await page.getByRole('heading', { level: 1, name: category!.name }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Shop by Subcategory' }).isVisible()).toBe(true);
    const popular = page.getByRole('region', { name: `Popular in ${category!.name}` });
    const failure = popular.getByRole('alert');
    expect(await failure.getByText('Failed to fetch category products', { exact: true }).isVisible()).toBe(true);
    expect(consoleError).toHaveBeenCalled();

    repair();
    await markWindow(page);
    await failure.getByRole('button', { name: 'Try Again' }).click();
    await expect.poll(() => popular.getByRole('listitem').count(), SETTLE).toBeGreaterThan(0);
    expect(await popular.getByRole('alert').count()).toBe(0);
    // Asked again in place, not by reloading the page.
    expect(await windowMarked(page)).toBe(true);
    await page.close();
  });

  it("shows 'Failed to fetch brands' in the home page's brand list, and Try Again brings them", async () => {
    silenceServerLog();
    const repair = breakCatalog('listBrands');
    const page = await open('/');
    const brands = page.getByRole('region', { name: 'Top Brands' });
    const failure = brands.getByRole('alert');
    expect(await failure.getByText('Error loading brands: Failed to fetch brands', { exact: true }).isVisible()).toBe(
      true,
    );
    // The rest of the home page is there.
    expect(await page.getByRole('region', { name: 'New Arrivals' }).getByRole('listitem').count()).toBeGreaterThan(0);

    repair();
    await failure.getByRole('button', { name: 'Try Again' }).click();
    await expect.poll(() => brands.getByRole('link', { name: /products$/ }).count(), SETTLE).toBeGreaterThan(0);
    expect(await brands.getByRole('alert').count()).toBe(0);
    await page.close();
  });

  it("shows 'Failed to fetch brands' with Retry on the brands page, its featured products still there", async () => {
    silenceServerLog();
    const repair = breakCatalog('countProductsByBrand');
    const page = await open('/shop-by-brand');
    const failure = page.getByRole('region', { name: 'All Brands' }).getByRole('alert');
    expect(await failure.getByText('Error loading brands: Failed to fetch brands', { exact: true }).isVisible()).toBe(
      true,
    );
    expect(await page.getByRole('region', { name: 'Featured Products' }).getByRole('listitem').count()).toBeGreaterThan(
      0,
    );

    repair();
    await failure.getByRole('button', { name: 'Retry' }).click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Top Brands' }).getByRole('listitem').count(), SETTLE)
      .toBeGreaterThan(0);
    expect(await page.getByRole('searchbox', { name: 'Search brands' }).isVisible()).toBe(true);
    await page.close();
  });

  it("shows the featured products' text with Retry on the brands page when only they fail", async () => {
    silenceServerLog();
    breakCatalog('listProducts', (query) => query.featured === true);
    const page = await open('/shop-by-brand');
    const featured = page.getByRole('region', { name: 'Featured Products' });
    expect(
      await featured
        .getByRole('alert')
        .getByText('Failed to load products. Please try again later.', { exact: true })
        .isVisible(),
    ).toBe(true);
    // The section's Suspense boundary hydrates on its own, after the page: until then Retry is a link.
    await expect.poll(() => featured.getByRole('button', { name: 'Retry' }).isVisible(), SETTLE).toBe(true);
    expect(await page.getByRole('region', { name: 'Top Brands' }).getByRole('listitem').count()).toBeGreaterThan(0);
    await page.close();
  });

  it('renders the failure text without JavaScript too, with a link that asks again', async () => {
    silenceServerLog();
    const [category] = (await shop.app.services.catalog.listCategories()) as Category[];
    breakCatalog('listProducts', (query) => query.categoryId === category!.id);
    const html = await (await fetch(`${baseUrl}/category/${category!.id}`)).text();
    expect(html).toContain('Failed to fetch category products');
    expect(html).toMatch(new RegExp(`<a href="/category/${category!.id}"[^>]*>Try Again</a>`));
  });
});
