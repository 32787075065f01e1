import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand } from '../../contracts/catalog.ts';
import { seriousAxeViolations } from './axe.ts';
import {
  api,
  baseUrl,
  escapeRegExp,
  foundCount,
  gridNames,
  htmlText,
  markWindow,
  productsApi,
  SETTLE,
  waitForHydration,
  windowMarked,
} from './browse-helpers.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

describe('brand page', () => {
  let browser: Browser;
  /** The brand with the most products, so it has more than one page. */
  let brand: Brand;
  let total: number;

  beforeAll(async () => {
    browser = await launchBrowser();
    const brands = await api<Brand[]>('/brands');
    const counted = await Promise.all(
      brands.map(async (candidate) => ({
        candidate,
        total: (await productsApi({ brandId: candidate.id, limit: 1 })).totalCount,
      })),
    );
    const biggest = counted.sort((a, b) => b.total - a.total)[0]!;
    brand = biggest.candidate;
    total = biggest.total;
    expect(total, 'a brand with more than one page of products').toBeGreaterThan(20);
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openBrand(search = ''): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseUrl}/brand/${brand.id}${search}`);
    await waitForHydration(page);
    return page;
  }

  it('arrives from the server with its hero, the count and the first products', async () => {
    const response = await fetch(`${baseUrl}/brand/${brand.id}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`<title>${htmlText(brand.name)} tools | Harbour Tools</title>`);
    expect(html).toMatch(new RegExp(`<h1[^>]*>${htmlText(brand.name)}</h1>`));
    expect(html).toContain(htmlText(brand.description));
    expect(html).toMatch(new RegExp(`<strong[^>]*>${total}</strong> <!-- -->products<!-- --> found`));
    const firstPage = await productsApi({ brandId: brand.id, sort: 'featured', limit: 20 });
    for (const product of firstPage.items) expect(html).toContain(htmlText(product.name));
    expect(html).toContain(`href="/brand/${brand.id}?page=2"`);
  });

  it('sorts by name and by price, with the sort in the URL surviving a reload', async () => {
    const page = await openBrand();
    const errors = watchPageErrors(page);
    await markWindow(page);
    const sort = page.getByLabel('Sort by');
    expect(await sort.locator('option').allTextContents()).toEqual([
      'Featured',
      'Name A-Z',
      'Price low to high',
      'Price high to low',
    ]);

    for (const [label, value] of [
      ['Price low to high', 'price_asc'],
      ['Price high to low', 'price_desc'],
      ['Name A-Z', 'name_asc'],
    ] as const) {
      await sort.selectOption({ label });
      await page.waitForURL((url) => url.searchParams.get('sort') === value);
      const expected = await productsApi({ brandId: brand.id, sort: value, limit: 20 });
      await expect
        .poll(() => gridNames(page), { ...SETTLE, message: label })
        .toEqual(expected.items.map((product) => product.name));
    }
    const prices = (await productsApi({ brandId: brand.id, sort: 'price_asc', limit: 20 })).items.map(
      (product) => product.discountPrice ?? product.price,
    );
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(await windowMarked(page)).toBe(true);

    await page.reload();
    await waitForHydration(page);
    expect(await page.getByLabel('Sort by').inputValue()).toBe('name_asc');
    expect(await foundCount(page)).toBe(total);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('pages through the products, keeping the sort', async () => {
    const page = await openBrand('?sort=price_desc');
    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Next' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    expect(new URL(page.url()).searchParams.get('sort')).toBe('price_desc');
    const second = await productsApi({ brandId: brand.id, sort: 'price_desc', page: 2, limit: 20 });
    await expect.poll(() => gridNames(page), SETTLE).toEqual(second.items.map((product) => product.name));
    expect(
      await page.getByRole('navigation', { name: 'Pagination' }).locator('[aria-current="page"]').textContent(),
    ).toContain('2');
    // Changing the sort starts again from page 1.
    await page.getByLabel('Sort by').selectOption({ label: 'Featured' });
    await page.waitForURL((url) => !url.searchParams.has('page') && !url.searchParams.has('sort'));
    await page.close();
  });

  it('answers 404 for an unknown or malformed brand and 400 for a sort it does not offer', async () => {
    for (const id of ['999999', 'voltrex', '-1']) {
      const response = await fetch(`${baseUrl}/brand/${id}`);
      expect(response.status, id).toBe(404);
      expect(await response.text()).toContain('Brand not found');
    }
    const response = await fetch(`${baseUrl}/brand/${brand.id}?sort=newest`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('sort: Must be one of: featured, name_asc, price_asc, price_desc');
  });

  it("shows 'Failed to fetch products' with Try Again when the data does not arrive", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseUrl}/shop-by-brand`);
    await waitForHydration(page);
    await markWindow(page);
    await page.route('**/brand/*.data*', (route) => route.fulfill({ status: 500, body: 'down' }));
    await page
      .getByRole('region', { name: 'All Brands' })
      .getByRole('link', { name: new RegExp(`^${escapeRegExp(brand.name)}`) })
      .click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Failed to fetch products' }).isVisible(), SETTLE)
      .toBe(true);
    await page.unroute('**/brand/*.data*');
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: brand.name }).isVisible(), SETTLE).toBe(true);
    expect(await windowMarked(page)).toBe(true);
    await page.close();
  });

  it('has no serious or critical accessibility violations, on a phone and a desktop', async () => {
    for (const width of [390, 1280]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${baseUrl}/brand/${brand.id}?page=2`);
      await waitForHydration(page);
      expect(await seriousAxeViolations(page), `${width}px`).toEqual([]);
      await page.close();
    }
  });
});
