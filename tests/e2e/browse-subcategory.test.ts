import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category, Product, Subcategory } from '../../contracts/catalog.ts';
import { formatDollars } from '../../contracts/money.ts';
import { seriousAxeViolations } from './axe.ts';
import {
  api,
  baseUrl,
  dataRequestRedirect,
  escapeRegExp,
  foundCount,
  gridNames,
  homeCategoryLink,
  htmlText,
  markWindow,
  productsApi,
  SETTLE,
  waitForHydration,
  windowMarked,
} from './browse-helpers.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

describe('subcategory page', () => {
  let browser: Browser;
  /** The subcategory with the most products, so it has several brands to filter by. */
  let subcategory: Subcategory;
  let path: string;
  let products: Product[];
  /** Its brands with their product counts, most products first. */
  let brands: { id: number; name: string; count: number }[];

  beforeAll(async () => {
    browser = await launchBrowser();
    const subcategories = await api<Subcategory[]>('/subcategories');
    subcategory = [...subcategories].sort((a, b) => b.productCount - a.productCount)[0]!;
    path = `/category/${subcategory.categoryId}/subcategory/${subcategory.id}`;
    products = (await productsApi({ subcategoryId: subcategory.id, limit: 1000 })).items;
    const byBrand = new Map<number, { id: number; name: string; count: number }>();
    for (const product of products) {
      const entry = byBrand.get(product.brandId) ?? { id: product.brandId, name: product.brandName, count: 0 };
      entry.count++;
      byBrand.set(product.brandId, entry);
    }
    brands = [...byBrand.values()].sort((a, b) => b.count - a.count);
    expect(brands.length, 'a subcategory with products from several brands').toBeGreaterThanOrEqual(2);
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openPage(url: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    const page = await browser.newPage({ viewport });
    await page.goto(`${baseUrl}${url}`);
    await waitForHydration(page);
    return page;
  }

  it('arrives from the server with breadcrumb, hero and the first page of products', async () => {
    const response = await fetch(`${baseUrl}${path}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const firstPage = await productsApi({ subcategoryId: subcategory.id, sort: 'featured', limit: 20 });
    expect(html).toContain(
      `<title>${htmlText(subcategory.name)} | ${htmlText(subcategory.categoryName)} | Harbour Tools</title>`,
    );
    expect(html).toMatch(/<meta name="description" content="[^"]{40,}"/);
    const breadcrumb = html.slice(
      html.indexOf('aria-label="Breadcrumb"'),
      html.indexOf('</nav>', html.indexOf('aria-label="Breadcrumb"')),
    );
    expect(breadcrumb).toContain('href="/"');
    expect(breadcrumb).toContain(`href="/category/${subcategory.categoryId}"`);
    expect(breadcrumb).toContain(htmlText(subcategory.categoryName));
    expect(breadcrumb).toContain(`aria-current="page"`);
    expect(html).toContain(htmlText(subcategory.description));
    expect(html).toContain('"@type":"BreadcrumbList"');
    for (const product of firstPage.items) {
      expect(html).toContain(htmlText(product.name));
      expect(html).toContain(`href="${path}/product/${product.id}"`);
    }
    expect(html).toContain(formatDollars(firstPage.items[0]!.discountPrice ?? firstPage.items[0]!.price));
  });

  it('answers 404 for a subcategory of another category, an unknown one and a malformed id', async () => {
    const otherCategory = (await api<Category[]>('/categories')).find((c) => c.id !== subcategory.categoryId)!;
    for (const url of [
      `/category/${otherCategory.id}/subcategory/${subcategory.id}`,
      `/category/${subcategory.categoryId}/subcategory/999999`,
      `/category/${subcategory.categoryId}/subcategory/abc`,
      `/category/abc/subcategory/${subcategory.id}`,
    ]) {
      const response = await fetch(`${baseUrl}${url}`);
      expect(response.status, url).toBe(404);
      expect(await response.text()).toContain('Subcategory not found');
    }
  });

  it('redirects /subcategory/:id to its canonical URL, and 404s an unknown id', async () => {
    const response = await fetch(`${baseUrl}/subcategory/${subcategory.id}?rating=4`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(
      new URL(response.headers.get('location')!, baseUrl).pathname +
        new URL(response.headers.get('location')!, baseUrl).search,
    ).toBe(`${path}?rating=4`);
    // A client-side navigation lands on the page's address, not on one carrying React Router's `_routes`.
    expect(await dataRequestRedirect(`/subcategory/${subcategory.id}?rating=4`, 'routes/subcategory-redirect')).toBe(
      `${path}?rating=4`,
    );
    expect((await fetch(`${baseUrl}/subcategory/999999`, { redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`${baseUrl}/subcategory/1.5`, { redirect: 'manual' })).status).toBe(404);

    const page = await browser.newPage();
    await page.goto(`${baseUrl}/subcategory/${subcategory.id}`);
    expect(new URL(page.url()).pathname).toBe(path);
    await expect
      .poll(() => page.getByRole('heading', { level: 1, name: subcategory.name }).isVisible(), SETTLE)
      .toBe(true);
    await page.close();
  });

  it('filters by brand with the choice kept in the URL, surviving a reload', async () => {
    const page = await openPage(path);
    const errors = watchPageErrors(page);
    const brand = brands[1]!;
    const expected = products.filter((product) => product.brandId === brand.id).map((product) => product.name);
    await markWindow(page);
    await page.getByRole('checkbox', { name: new RegExp(`^${escapeRegExp(brand.name)}`) }).check();
    await page.waitForURL((url) => url.searchParams.getAll('brand').join() === String(brand.id));
    await expect.poll(() => gridNames(page), SETTLE).toHaveLength(expected.length);
    expect((await gridNames(page)).sort()).toEqual([...expected].sort());
    expect(await foundCount(page)).toBe(expected.length);
    // Applied in place: no full page load.
    expect(await windowMarked(page)).toBe(true);

    await page.reload();
    await waitForHydration(page);
    expect(await page.getByRole('checkbox', { name: new RegExp(`^${escapeRegExp(brand.name)}`) }).isChecked()).toBe(
      true,
    );
    expect((await gridNames(page)).sort()).toEqual([...expected].sort());

    // A chip removes the filter again.
    await page.getByRole('link', { name: `${brand.name} (remove filter)` }).click();
    await page.waitForURL((url) => !url.searchParams.has('brand'));
    await expect.poll(() => foundCount(page), SETTLE).toBe(products.length);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('filters by a price range typed in and applied', async () => {
    const prices = products.map((product) => product.discountPrice ?? product.price).sort((a, b) => a - b);
    const min = prices[Math.floor(prices.length / 4)]!;
    const max = prices[Math.floor((prices.length * 3) / 4)]!;
    const expected = products.filter((product) => {
      const price = product.discountPrice ?? product.price;
      return price >= min && price <= max;
    });
    const page = await openPage(path);
    await page.getByLabel('Min price').fill(String(min));
    await page.getByLabel('Max price').fill(String(max));
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('minPrice') === String(min));
    expect(new URL(page.url()).searchParams.get('maxPrice')).toBe(String(max));
    await expect.poll(() => foundCount(page), SETTLE).toBe(expected.length);
    expect((await gridNames(page)).sort()).toEqual(expected.map((product) => product.name).sort());

    // A max below the min is refused in place with a clear message.
    await page.getByLabel('Max price').fill(String(Math.max(0, min - 1)));
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), SETTLE)
      .toContain('Max price must not be below min price');
    expect(new URL(page.url()).searchParams.get('maxPrice')).toBe(String(max));
    await page.close();
  });

  it('toggles the minimum rating: pressing the chosen rating again clears it', async () => {
    const page = await openPage(path);
    const four = page.getByRole('button', { name: '4 stars & up' });
    await four.click();
    await page.waitForURL((url) => url.searchParams.get('rating') === '4');
    await expect.poll(() => four.getAttribute('aria-pressed'), SETTLE).toBe('true');
    const rated = await productsApi({ subcategoryId: subcategory.id, minRating: 4, limit: 1 });
    await expect.poll(() => foundCount(page), SETTLE).toBe(rated.totalCount);

    await page.getByRole('button', { name: '2 stars & up' }).click();
    await page.waitForURL((url) => url.searchParams.get('rating') === '2');
    await expect.poll(() => four.getAttribute('aria-pressed'), SETTLE).toBe('false');

    await page.getByRole('button', { name: '2 stars & up' }).click();
    await page.waitForURL((url) => !url.searchParams.has('rating'));
    await expect.poll(() => foundCount(page), SETTLE).toBe(products.length);
    await page.close();
  });

  it('counts each brand under the other filters and disables brands with nothing left', async () => {
    // Pick a price ceiling that leaves some brands with products and others with none.
    const cheapestByBrand = brands.map((brand) =>
      Math.min(...products.filter((p) => p.brandId === brand.id).map((p) => p.discountPrice ?? p.price)),
    );
    const ceiling = [...cheapestByBrand].sort((a, b) => a - b)[0]!;
    const page = await openPage(`${path}?maxPrice=${ceiling}`);
    for (const brand of brands) {
      const count = (
        await productsApi({ subcategoryId: subcategory.id, brandId: brand.id, maxPrice: ceiling, limit: 1 })
      ).totalCount;
      const box = page.getByRole('checkbox', { name: new RegExp(`^${escapeRegExp(brand.name)}`) });
      const label = page.locator('label', { has: box });
      expect(await label.textContent(), brand.name).toContain(`(${count}`);
      expect(await box.isDisabled(), brand.name).toBe(count === 0);
    }
    expect(cheapestByBrand.filter((price) => price > ceiling).length, 'some brand is left with none').toBeGreaterThan(
      0,
    );
    await page.close();
  });

  it("shows 'No products found with current filters' and a way out", async () => {
    const response = await fetch(`${baseUrl}${path}?minPrice=999999`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('No products found with current filters');
    const page = await openPage(`${path}?minPrice=999999`);
    await page.getByRole('link', { name: 'Clear all filters' }).click();
    await page.waitForURL((url) => url.search === '');
    await expect.poll(() => foundCount(page), SETTLE).toBe(products.length);
    await page.close();
  });

  it('answers nonsense filter values with a 400 and a clear message, and tidies form leftovers with a redirect', async () => {
    const bad = await fetch(`${baseUrl}${path}?minPrice=cheap&rating=9`);
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain('Those filters can&#x27;t be used');
    expect(html).toContain('rating: Must be 1, 2, 3 or 4');

    const brand = brands[0]!;
    const messy = await fetch(`${baseUrl}${path}?minPrice=&maxPrice=&rating=&rating=3&brand=${brand.id}&brand=999999`, {
      redirect: 'manual',
    });
    expect(messy.status).toBe(302);
    expect(messy.headers.get('location')).toBe(`${path}?brand=${brand.id}&rating=3`);
  });

  it('still filters when the listing schema cannot be downloaded, through the server', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    let blocked = 0;
    await page.route('**/assets/listing-query-*.js', (route) => {
      blocked++;
      return route.abort();
    });
    await page.goto(`${baseUrl}${path}`);
    await waitForHydration(page);
    const brand = brands[0]!;
    await page.getByRole('checkbox', { name: new RegExp(`^${escapeRegExp(brand.name)}`) }).check();
    await page.waitForURL((url) => url.searchParams.get('brand') === String(brand.id));
    await expect.poll(() => foundCount(page), SETTLE).toBe(brand.count);
    expect(blocked, 'the schema was asked for and refused').toBeGreaterThan(0);
    // The loader tidied what the form sent (the hidden, empty rating) into the canonical URL,
    // and the redirect stayed a client-side navigation to the page, not to its data request.
    expect(new URL(page.url()).pathname).toBe(path);
    expect(new URL(page.url()).search).toBe(`?brand=${brand.id}`);
    await page.close();
  });

  it('works without JavaScript: the filter form is a plain GET form', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseUrl}${path}`);
    const brand = brands[0]!;
    await page.getByRole('checkbox', { name: new RegExp(`^${escapeRegExp(brand.name)}`) }).check();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((url) => url.searchParams.get('brand') === String(brand.id));
    expect(new URL(page.url()).search).toBe(`?brand=${brand.id}`);
    expect(await foundCount(page)).toBe(brand.count);
    // The rating buttons submit too, and the chosen one clears on a second press.
    await page.getByRole('button', { name: '3 stars & up' }).click();
    await page.waitForURL((url) => url.searchParams.get('rating') === '3');
    expect(new URL(page.url()).searchParams.get('brand')).toBe(String(brand.id));
    await page.getByRole('button', { name: '3 stars & up' }).click();
    await page.waitForURL((url) => !url.searchParams.has('rating'));
    await context.close();
  });

  it('keeps the filters in a drawer on a phone', async () => {
    const page = await openPage(path, { width: 390, height: 844 });
    const brand = brands[0]!;
    const box = page.getByRole('checkbox', { name: new RegExp(`^${escapeRegExp(brand.name)}`) });
    expect(await box.isVisible()).toBe(false);
    const opener = page.getByRole('button', { name: /^Filters/ });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Filters' });
    await expect.poll(() => dialog.isVisible(), SETTLE).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Close filters');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible(), SETTLE).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Filters/);

    await opener.click();
    await box.check();
    await page.waitForURL((url) => url.searchParams.get('brand') === String(brand.id));
    await page.getByRole('button', { name: 'Show results' }).click();
    await expect.poll(() => page.getByRole('dialog').count(), SETTLE).toBe(0);
    await expect.poll(() => foundCount(page), SETTLE).toBe(brand.count);
    expect(await page.getByRole('button', { name: 'Filters (1)' }).isVisible()).toBe(true);
    await page.close();
  });

  it('is reached by clicking from the home page through the category page, without a reload', async () => {
    const page = await openPage('/');
    await markWindow(page);
    await homeCategoryLink(page, { id: subcategory.categoryId, name: subcategory.categoryName }).click();
    await page.waitForURL(`${baseUrl}/category/${subcategory.categoryId}`);
    await page
      .getByRole('region', { name: 'Shop by Subcategory' })
      .getByRole('link', { name: new RegExp(`^${escapeRegExp(subcategory.name)}`) })
      .click();
    await page.waitForURL(`${baseUrl}${path}`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1, name: subcategory.name }).isVisible(), SETTLE)
      .toBe(true);
    expect(await windowMarked(page)).toBe(true);
    // Product links carry the category and subcategory.
    const href = await page.getByRole('list', { name: 'Products' }).locator('h3 a').first().getAttribute('href');
    expect(href).toMatch(new RegExp(`^${path}/product/\\d+$`));
    await page.close();
  });

  it('has no serious or critical accessibility violations', async () => {
    const page = await openPage(`${path}?rating=3`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.close();
  });
});
