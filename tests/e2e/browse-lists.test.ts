import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand, Category, ProductPage } from '../../contracts/catalog.ts';
import { seriousAxeViolations } from './axe.ts';
import {
  api,
  baseUrl,
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

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function open(path: string, width = 1280, height = 720): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.goto(`${baseUrl}${path}`);
  await waitForHydration(page);
  return page;
}

async function scrollToEnd(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
}

describe('shop by brand', () => {
  let brands: Brand[];
  let counts: Map<number, number>;

  beforeAll(async () => {
    brands = await api<Brand[]>('/brands');
    const all = await productsApi({ limit: 1000 });
    counts = new Map();
    for (const product of all.items) counts.set(product.brandId, (counts.get(product.brandId) ?? 0) + 1);
  });

  it('arrives from the server with Top Brands (the 8 biggest), All Brands and Featured Products', async () => {
    const response = await fetch(`${baseUrl}/shop-by-brand`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<title>Shop by Brand | Harbour Tools</title>');
    expect(html).toMatch(/<h1[^>]*>Shop by Brand<\/h1>/);
    const top = html.slice(html.indexOf('id="top-brands"'), html.indexOf('id="all-brands"'));
    const topIds = [...top.matchAll(/href="\/brand\/(\d+)"/g)].map((match) => Number(match[1]));
    expect(topIds).toHaveLength(8);
    const expectedTop = [...brands]
      .sort((a, b) => (counts.get(b.id) ?? 0) - (counts.get(a.id) ?? 0) || a.name.localeCompare(b.name))
      .slice(0, 8)
      .map((brand) => brand.id);
    expect(topIds).toEqual(expectedTop);
    const all = html.slice(html.indexOf('id="all-brands"'), html.indexOf('id="featured-products"'));
    for (const brand of brands) expect(all).toContain(`href="/brand/${brand.id}"`);
    const featured = await productsApi({ featured: true, sort: 'featured', limit: 8 });
    for (const product of featured.items) expect(html).toContain(htmlText(product.name));
  });

  it("filters All Brands as you type in 'Search brands...', ignoring case", async () => {
    const page = await open('/shop-by-brand');
    const errors = watchPageErrors(page);
    const region = page.getByRole('region', { name: 'All Brands' });
    const box = page.getByRole('searchbox', { name: 'Search brands' });
    expect(await box.getAttribute('placeholder')).toBe('Search brands...');
    const target = brands.find((brand) => brand.name.length >= 6)!;
    const fragment = target.name.slice(1, 4).toUpperCase();
    await box.fill(fragment);
    const expected = brands
      .filter((brand) => brand.name.toLowerCase().includes(fragment.toLowerCase()))
      .map((brand) => brand.name)
      .sort();
    await expect
      .poll(async () => (await region.getByRole('listitem').locator('a > span:first-child').allTextContents()).sort())
      .toEqual(expected);
    await box.fill('zzzz-no-brand');
    await expect.poll(() => region.getByText('No brands match “zzzz-no-brand”.').isVisible(), SETTLE).toBe(true);
    await box.fill('');
    await expect.poll(() => region.getByRole('listitem').count(), SETTLE).toBe(brands.length);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("says 'Error loading brands: Failed to fetch brands' with Retry when the page's data does not arrive", async () => {
    const page = await open('/products');
    await markWindow(page);
    await page.route('**/shop-by-brand.data*', (route) => route.fulfill({ status: 500, body: 'down' }));
    await page.getByRole('link', { name: 'Shop by Brand' }).first().click();
    await expect
      .poll(
        () =>
          page.getByRole('heading', { name: 'Error loading brands: Failed to fetch brands', exact: true }).isVisible(),
        SETTLE,
      )
      .toBe(true);
    await page.unroute('**/shop-by-brand.data*');
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1, name: 'Shop by Brand' }).isVisible(), SETTLE)
      .toBe(true);
    expect(await windowMarked(page)).toBe(true);
    await page.close();
  });

  it('has no serious or critical accessibility violations', async () => {
    const page = await open('/shop-by-brand');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.close();
  });
});

/** The two infinite lists behave alike (spec §2 /redemption and "Featured products"). */
for (const list of [
  {
    path: '/redemption',
    api: '/products/redemption',
    label: 'Redemption products',
    heading: 'Redeem Your Points',
    end: "You've viewed all redemption products",
    error: 'Failed to fetch redemption products',
  },
  {
    path: '/featured',
    api: '/products/featured',
    label: 'Featured products',
    heading: 'Featured Products',
    end: "You've viewed all featured products",
    error: 'Failed to load products. Please try again later.',
  },
]) {
  describe(`${list.path} infinite list`, () => {
    let all: ProductPage;

    beforeAll(async () => {
      all = await api<ProductPage>(`${list.api}?limit=1000`);
      expect(all.totalCount, 'more than two batches to scroll through').toBeGreaterThan(16);
    });

    it('renders the first 8 on the server', async () => {
      const response = await fetch(`${baseUrl}${list.path}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toMatch(new RegExp(`<h1[^>]*>${list.heading}</h1>`));
      const first = await api<ProductPage>(`${list.api}?page=1&limit=8`);
      for (const product of first.items) expect(html).toContain(htmlText(product.name));
      const ninth = all.items[8]!;
      expect(html).not.toContain(htmlText(ninth.name));
      if (list.path === '/redemption') {
        // Each card's badge says what it costs in points.
        expect(html.match(/data-testid="redeem-badge"/g)).toHaveLength(8);
        for (const product of first.items) {
          expect(product.pointsCost).toBeGreaterThan(0);
          expect(html).toContain(`${product.pointsCost!.toLocaleString('en-AU')} points`);
        }
      }
      // Without JavaScript a link asks the server for the next batch.
      expect(html).toContain(`href="${list.path}?page=2"`);
      const more = await (await fetch(`${baseUrl}${list.path}?page=2`)).text();
      expect(more).toContain(htmlText(ninth.name));
      expect((await fetch(`${baseUrl}${list.path}?page=abc`)).status).toBe(400);
    });

    it('adds 8 more 0.5 s after the shopper scrolls near the end, until the end message', async () => {
      const page = await open(list.path);
      const errors = watchPageErrors(page);
      const names = () => gridNames(page, list.label);
      expect(await names()).toHaveLength(8);
      await scrollToEnd(page);
      // Not before half a second…
      await page.waitForTimeout(250);
      expect(await names()).toHaveLength(8);
      // …but soon after.
      await expect.poll(names, { timeout: 5000 }).toHaveLength(16);
      expect(await names()).toEqual(all.items.slice(0, 16).map((product) => product.name));
      for (let shown = 16; shown < all.totalCount; shown += 8) {
        await scrollToEnd(page);
        await expect.poll(names, { timeout: 5000 }).toHaveLength(Math.min(shown + 8, all.totalCount));
      }
      await scrollToEnd(page);
      await expect.poll(() => page.getByText(list.end).isVisible(), SETTLE).toBe(true);
      await page.getByRole('link', { name: 'View All Products' }).click();
      await page.waitForURL(`${baseUrl}/products`);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('shows the error text with Try Again when a batch fails, and recovers', async () => {
      const page = await open(list.path);
      await page.route(`**/api${list.api}?*`, (route) => route.fulfill({ status: 500, body: '{"message":"down"}' }));
      await scrollToEnd(page);
      await expect.poll(() => page.getByText(list.error).isVisible(), { timeout: 5000 }).toBe(true);
      expect(await gridNames(page, list.label)).toHaveLength(8);
      await page.unroute(`**/api${list.api}?*`);
      await page.getByRole('button', { name: 'Try Again' }).click();
      await expect.poll(() => gridNames(page, list.label), { timeout: 5000 }).toHaveLength(16);
      await page.close();
    });

    it('has no serious or critical accessibility violations', async () => {
      const page = await open(list.path, 390, 844);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.close();
    });
  });
}

describe('/products and /shop', () => {
  it('arrive from the server as the same paged listing of every product', async () => {
    const first = await productsApi({ sort: 'featured', limit: 20 });
    for (const [path, title] of [
      ['/products', 'All Products'],
      ['/shop', 'Shop'],
    ]) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain(`<title>${title} | Harbour Tools</title>`);
      expect(html).toMatch(new RegExp(`<strong[^>]*>${first.totalCount.toLocaleString('en-AU')}</strong>`));
      for (const product of first.items) expect(html).toContain(htmlText(product.name));
      expect(html).toContain(`href="${path}?page=2"`);
    }
  });

  it('pages with numbered links, Previous and Next, and a filter change goes back to page 1', async () => {
    const page = await open('/products');
    await markWindow(page);
    const pager = page.getByRole('navigation', { name: 'Pagination' });
    const last = (await productsApi({ limit: 20 })).totalPages;
    // Page 1 shows 1, 2, …, last; the numbers move along with the current page.
    expect(await pager.getByRole('link', { name: `Page ${last}` }).isVisible()).toBe(true);
    expect(await pager.getByRole('link', { name: 'Page 3' }).count()).toBe(0);
    await pager.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await pager.getByRole('link', { name: 'Page 3' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '3');
    const third = await productsApi({ page: 3, limit: 20 });
    await expect.poll(() => gridNames(page), SETTLE).toEqual(third.items.map((product) => product.name));
    expect(await pager.locator('[aria-current="page"]').textContent()).toBe('Page 3');
    // A new page starts at the top.
    await expect.poll(() => page.evaluate(() => window.scrollY), SETTLE).toBe(0);
    await pager.getByRole('link', { name: 'Previous' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await pager.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '3');

    const category = (await api<Category[]>('/categories'))[0]!;
    await page.getByLabel('Category', { exact: true }).selectOption({ label: category.name });
    await page.waitForURL((url) => url.searchParams.get('category') === String(category.id));
    expect(new URL(page.url()).searchParams.has('page')).toBe(false);
    const inCategory = await productsApi({ categoryId: category.id, limit: 1 });
    await expect.poll(() => foundCount(page), SETTLE).toBe(inCategory.totalCount);
    expect(await windowMarked(page)).toBe(true);
    await page.close();
  });

  it("says 'Unable to load products' with Retry when a page's data does not arrive (spec §8)", async () => {
    const page = await open('/products');
    await markWindow(page);
    await page.route('**/products.data*', (route) => route.fulfill({ status: 500, body: 'down' }));
    const pager = page.getByRole('navigation', { name: 'Pagination' });
    await pager.getByRole('link', { name: 'Next' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Unable to load products', exact: true }).isVisible(), SETTLE)
      .toBe(true);
    expect(await page.getByText('Please check your connection and try again').isVisible()).toBe(true);
    await page.unroute('**/products.data*');
    await page.getByRole('button', { name: 'Retry', exact: true }).click();
    await expect.poll(() => gridNames(page), SETTLE).toHaveLength(20);
    expect(await windowMarked(page)).toBe(true);
    await page.close();
  });

  it('has no serious or critical accessibility violations', async () => {
    const page = await open('/products?page=2&rating=4');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.close();
  });
});

describe('/clearance, /new-arrivals and /deals', () => {
  const collections: { path: string; title: string; query: Record<string, string | boolean> }[] = [
    { path: '/clearance', title: 'Clearance', query: { isClearance: true, sort: 'price_asc' } },
    { path: '/new-arrivals', title: 'New Arrivals', query: { sort: 'newest' } },
    { path: '/deals', title: 'Deals', query: { onSale: true, sort: 'featured' } },
  ];
  for (const collection of collections) {
    it(`${collection.path} lists its products from the server, paged`, async () => {
      const expected = await productsApi({ ...collection.query, limit: 20 });
      expect(expected.totalCount).toBeGreaterThan(0);
      const response = await fetch(`${baseUrl}${collection.path}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain(`<title>${collection.title} | Harbour Tools</title>`);
      expect(html).toMatch(new RegExp(`<h1[^>]*>${collection.title}</h1>`));
      expect(html).toMatch(new RegExp(`<strong[^>]*>${expected.totalCount}</strong>`));
      const names = [...html.matchAll(/<h3[^>]*><a[^>]*>([^<]+)<\/a><\/h3>/g)].map((match) => match[1]);
      expect(names).toEqual(expected.items.map((product) => htmlText(product.name)));
      if (expected.totalPages > 1) expect(html).toContain(`href="${collection.path}?page=2"`);
    });
  }

  it('have no serious or critical accessibility violations', async () => {
    for (const path of ['/clearance', '/new-arrivals', '/deals']) {
      const page = await open(path, 390, 844);
      expect(await seriousAxeViolations(page), path).toEqual([]);
      await page.close();
    }
  });
});
