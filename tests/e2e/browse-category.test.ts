import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand, Category, Product, Subcategory } from '../../contracts/catalog.ts';
import { seriousAxeViolations } from './axe.ts';
import {
  api,
  baseUrl,
  dataRequestRedirect,
  escapeRegExp,
  homeCategoryLink,
  htmlText,
  markWindow,
  productsApi,
  SETTLE,
  waitForHydration,
  windowMarked,
} from './browse-helpers.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

describe('category page', () => {
  let browser: Browser;
  let category: Category;
  let subcategories: Subcategory[];
  /** The brands with products in the category, with their counts there. */
  let brandCounts: Map<number, number>;
  let brands: Brand[];

  beforeAll(async () => {
    browser = await launchBrowser();
    const categories = await api<Category[]>('/categories');
    // The category with the most subcategories: the richest page.
    const withSubs = await Promise.all(
      categories.map(async (candidate) => ({
        candidate,
        subs: await api<Subcategory[]>(`/subcategories?categoryId=${candidate.id}`),
      })),
    );
    const richest = withSubs.sort((a, b) => b.subs.length - a.subs.length)[0]!;
    category = richest.candidate;
    subcategories = richest.subs;
    const products: Product[] = (await productsApi({ categoryId: category.id, limit: 1000 })).items;
    brandCounts = new Map();
    for (const product of products) brandCounts.set(product.brandId, (brandCounts.get(product.brandId) ?? 0) + 1);
    brands = (await api<Brand[]>('/brands')).filter((brand) => brandCounts.has(brand.id));
    expect(subcategories.length).toBeGreaterThan(1);
    expect(brands.length).toBeGreaterThan(1);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('arrives from the server with its top brands and subcategories', async () => {
    const response = await fetch(`${baseUrl}/category/${category.id}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`<title>${htmlText(category.name)} | Harbour Tools</title>`);
    expect(html).toContain(`<link rel="canonical" href="${baseUrl}/category/${category.id}"/>`);
    expect(html).toMatch(/aria-label="Breadcrumb"/);
    expect(html).toContain('Top Brands');
    expect(html).toContain('Shop by Subcategory');
    for (const subcategory of subcategories) {
      expect(html).toContain(htmlText(subcategory.name));
      expect(html).toContain(`href="/category/${category.id}/subcategory/${subcategory.id}"`);
    }
    // Every brand with products here, linked to its products in this category, with its count.
    for (const brand of brands) {
      expect(html).toContain(`alt="${htmlText(brand.name)}"`);
      expect(html).toContain(`href="/products?category=${category.id}&amp;brand=${brand.id}"`);
    }
    // Biggest range first.
    const top = [...brands].sort(
      (a, b) => brandCounts.get(b.id)! - brandCounts.get(a.id)! || a.name.localeCompare(b.name),
    )[0]!;
    const topBrandsSection = html.slice(html.indexOf('id="top-brands"'), html.indexOf('id="shop-by-subcategory"'));
    expect(topBrandsSection.indexOf(`alt="${htmlText(top.name)}"`)).toBe(topBrandsSection.indexOf('alt="'));
    expect(topBrandsSection).toContain(`>${brandCounts.get(top.id)}</span> <!-- -->products`);
  });

  it('redirects a category slug (301) to its canonical URL, keeping the query, for every category', async () => {
    const categories = await api<Category[]>('/categories');
    const target = async (path: string) => {
      const response = await fetch(`${baseUrl}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(301);
      const location = new URL(response.headers.get('location') ?? '', baseUrl);
      return `${location.pathname}${location.search}`;
    };
    // The two links of spec §2.
    const powerTools = categories.find((candidate) => candidate.slug === 'power-tools')!;
    const handTools = categories.find((candidate) => candidate.slug === 'hand-tools')!;
    expect(await target('/category/power-tools')).toBe(`/category/${powerTools.id}`);
    const landed = await fetch(`${baseUrl}/category/${powerTools.id}`, { redirect: 'manual' });
    expect(landed.status).toBe(200);
    expect(await landed.text()).toContain(`<title>${htmlText(powerTools.name)} | Harbour Tools</title>`);
    expect(await target('/category/hand-tools?utm_source=spec&sort=name')).toBe(
      `/category/${handTools.id}?utm_source=spec&sort=name`,
    );
    // Every category, not only the two the spec names; a hand-typed capital still finds it.
    for (const each of categories) expect(await target(`/category/${each.slug}`)).toBe(`/category/${each.id}`);
    expect(await target('/category/Power-Tools')).toBe(`/category/${powerTools.id}`);
    // A client-side navigation lands on the page's address, without React Router's `_routes`.
    expect(await dataRequestRedirect('/category/hand-tools?utm_source=spec', 'routes/category')).toBe(
      `/category/${handTools.id}?utm_source=spec`,
    );

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseUrl}/category/power-tools`);
    expect(new URL(page.url()).pathname).toBe(`/category/${powerTools.id}`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1, name: powerTools.name }).isVisible(), SETTLE)
      .toBe(true);
    await page.close();
  });

  it('answers a numeric id directly, with no redirect', async () => {
    const response = await fetch(`${baseUrl}/category/${category.id}`, { redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`<title>${htmlText(category.name)} | Harbour Tools</title>`);
  });

  it('answers an unknown slug, an unknown or a malformed id with a 404 and the not-found page', async () => {
    for (const id of ['no-such-slug', '999999', 'abc', '1.5', '0']) {
      const response = await fetch(`${baseUrl}/category/${id}`);
      expect(response.status, id).toBe(404);
      const html = await response.text();
      expect(html).toContain('Category not found');
      // The shop's own 404 page: a search box and where to go next.
      expect(html).toContain('Helpful links');
    }
  });

  it("shows 'Failed to load category data' with Try Again when its data does not arrive", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseUrl}/`);
    await waitForHydration(page);
    await markWindow(page);
    // The client-side navigation's data request fails (the page stays a single-page app: no reload).
    await page.route('**/category/*.data*', (route) => route.fulfill({ status: 500, body: 'down for maintenance' }));
    await homeCategoryLink(page, category).click();
    const failure = page.getByRole('heading', { name: 'Failed to load category data' });
    await expect.poll(() => failure.isVisible(), SETTLE).toBe(true);
    await page.unroute('**/category/*.data*');
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1, name: category.name }).isVisible(), SETTLE)
      .toBe(true);
    expect(await windowMarked(page)).toBe(true);
    await page.close();
  });

  it('leads on to a subcategory and to a brand within the category by clicking', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(`${baseUrl}/category/${category.id}`);
    await waitForHydration(page);
    await markWindow(page);
    const subcategory = subcategories[0]!;
    await page
      .getByRole('region', { name: 'Shop by Subcategory' })
      .getByRole('link', { name: new RegExp(`^${escapeRegExp(subcategory.name)}`) })
      .click();
    await page.waitForURL(`${baseUrl}/category/${category.id}/subcategory/${subcategory.id}`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1, name: subcategory.name }).isVisible(), SETTLE)
      .toBe(true);
    await page.goBack();
    await page.waitForURL(`${baseUrl}/category/${category.id}`);
    const brand = brands[0]!;
    await page
      .getByRole('region', { name: 'Top Brands' })
      .getByRole('link', { name: new RegExp(escapeRegExp(brand.name)) })
      .click();
    await page.waitForURL((url) => url.pathname === '/products' && url.searchParams.get('brand') === String(brand.id));
    await expect
      .poll(() => page.getByText(`${brandCounts.get(brand.id)} products found`).isVisible(), SETTLE)
      .toBe(true);
    expect(await windowMarked(page)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('has no serious or critical accessibility violations, on a phone and a desktop', async () => {
    for (const width of [390, 1280]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${baseUrl}/category/${category.id}`);
      await waitForHydration(page);
      expect(await seriousAxeViolations(page), `${width}px`).toEqual([]);
      await page.close();
    }
  });
});
