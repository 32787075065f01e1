import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDollars, dollarsToCents, formatDollars } from '../../contracts/money.ts';
import { displayPrice } from '../../contracts/pricing.ts';
import type { SearchResponse } from '../../contracts/search.ts';
import { seriousAxeViolations } from './axe.ts';
import { api, baseUrl, gridNames, htmlText, SETTLE, waitForHydration } from './browse-helpers.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

const searchApi = (query: string) => api<SearchResponse>(`/search?${query}`);

describe('search results page', () => {
  let browser: Browser;
  let drill: SearchResponse;

  beforeAll(async () => {
    browser = await launchBrowser();
    drill = await searchApi('term=drill');
    expect(drill.totalPages, 'enough drills for several pages').toBeGreaterThan(1);
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

  const results = (page: Page) => gridNames(page, 'Search results');
  const summary = (page: Page) => page.getByText(/^Showing \d+ - \d+ of [\d,]+ results$/).textContent();
  const filters = (page: Page) => page.getByRole('complementary', { name: 'Search filters' });

  it('arrives from the server with the header, the summary, the facets and the first page', async () => {
    const response = await fetch(`${baseUrl}/search?term=drill`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Search Results');
    expect(html).toContain(`Showing 1 - 20 of ${drill.totalCount} results`);
    for (const result of drill.results.slice(0, 5)) expect(html).toContain(htmlText(result.name));
    for (const facet of drill.filters.categories) expect(html).toContain(htmlText(facet.name));
    expect(html).toContain('Clear All Filters');
  });

  it('ticks one category at a time, counts what it shows, and clears on a second click', async () => {
    const page = await openPage('/search?term=drill&page=2');
    const errors = watchPageErrors(page);
    const [first, second] = drill.filters.categories;
    const box = (name: string) => filters(page).getByRole('checkbox', { name: new RegExp(`^${name}`) });

    await box(first!.name).click();
    await page.waitForURL(`${baseUrl}/search?term=drill&categoryId=${first!.id}`, SETTLE);
    await expect
      .poll(() => summary(page), SETTLE)
      .toBe(`Showing 1 - ${Math.min(20, first!.productCount)} of ${first!.productCount} results`);
    expect(await box(first!.name).isChecked()).toBe(true);

    await box(second!.name).click();
    await page.waitForURL(`${baseUrl}/search?term=drill&categoryId=${second!.id}`, SETTLE);
    await expect.poll(() => box(first!.name).isChecked(), SETTLE).toBe(false);
    expect(await box(second!.name).isChecked()).toBe(true);

    await box(second!.name).click();
    await page.waitForURL(`${baseUrl}/search?term=drill`, SETTLE);
    await expect.poll(() => summary(page), SETTLE).toBe(`Showing 1 - 20 of ${drill.totalCount} results`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('filters by brand and by price range, keeping everything in the URL', async () => {
    const page = await openPage('/search?term=drill');
    const brand = drill.filters.brands[0]!;
    await filters(page)
      .getByRole('checkbox', { name: new RegExp(`^${brand.name}`) })
      .click();
    await page.waitForURL(`${baseUrl}/search?term=drill&brandId=${brand.id}`, SETTLE);
    await expect.poll(() => summary(page), SETTLE).toMatch(new RegExp(`of ${brand.productCount} results$`));

    await filters(page).getByLabel('Min price').fill('20');
    await filters(page).getByLabel('Max price').fill('300');
    await filters(page).getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(`${baseUrl}/search?term=drill&brandId=${brand.id}&minPrice=20&maxPrice=300`, SETTLE);
    const expected = await searchApi(`term=drill&brandId=${brand.id}&minPrice=20&maxPrice=300`);
    await expect.poll(() => results(page), SETTLE).toEqual(expected.results.map((result) => result.name));

    await filters(page).getByRole('button', { name: 'Clear All Filters' }).click();
    await page.waitForURL(`${baseUrl}/search?term=drill`, SETTLE);
    await expect.poll(() => filters(page).getByLabel('Min price').inputValue(), SETTLE).toBe('');
    await page.close();
  });

  it('sorts from the Sort By select and goes back to page 1', async () => {
    const page = await openPage('/search?term=drill&page=2');
    await page.getByLabel('Sort By').selectOption('price_asc');
    await page.waitForURL(`${baseUrl}/search?term=drill&sortBy=price_asc`, SETTLE);
    const cheapest = await searchApi('term=drill&sortBy=price_asc');
    await expect.poll(() => results(page), SETTLE).toEqual(cheapest.results.map((result) => result.name));
    const first = cheapest.results[0]!;
    const cards = page.getByRole('list', { name: 'Search results' });
    // The card headlines the price GST-inclusive, the ex-GST price beside it (issue 22).
    const firstCard = (await cards.locator(':scope > li').first().textContent()) ?? '';
    const shown = first.discountPrice ?? first.price;
    expect(firstCard).toContain(
      `${formatDollars(centsToDollars(displayPrice(dollarsToCents(shown)).incGstCents))} inc GST`,
    );
    expect(firstCard).toContain(`${formatDollars(shown)} ex GST`);
    await page.close();
  });

  it('pages with Previous, numbers and Next, scrolling back to the top', async () => {
    const page = await openPage('/search?term=drill');
    const pager = page.getByRole('navigation', { name: 'Pagination' });
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await pager.getByRole('link', { name: /Next/ }).click();
    await page.waitForURL(`${baseUrl}/search?term=drill&page=2`, SETTLE);
    await expect
      .poll(() => summary(page), SETTLE)
      .toBe(`Showing 21 - ${Math.min(40, drill.totalCount)} of ${drill.totalCount} results`);
    await expect.poll(() => page.evaluate(() => window.scrollY), SETTLE).toBe(0);
    const second = await searchApi('term=drill&page=2');
    expect(await results(page)).toEqual(second.results.map((result) => result.name));

    await pager.getByRole('link', { name: /Previous/ }).click();
    await page.waitForURL(`${baseUrl}/search?term=drill`, SETTLE);
    await pager.getByRole('link', { name: `Page ${drill.totalPages}` }).click();
    await page.waitForURL(`${baseUrl}/search?term=drill&page=${drill.totalPages}`, SETTLE);
    await expect
      .poll(() => summary(page), SETTLE)
      .toBe(`Showing ${20 * (drill.totalPages - 1) + 1} - ${drill.totalCount} of ${drill.totalCount} results`);
    await page.close();
  });

  it('restores every choice from the URL', async () => {
    const category = drill.filters.categories[0]!;
    const filtered = await searchApi(`term=drill&categoryId=${category.id}&sortBy=price_desc`);
    const page = await openPage(`/search?term=drill&categoryId=${category.id}&sortBy=price_desc&minPrice=1`);
    expect(
      await filters(page)
        .getByRole('checkbox', { name: new RegExp(`^${category.name}`) })
        .isChecked(),
    ).toBe(true);
    expect(await page.getByLabel('Sort By').inputValue()).toBe('price_desc');
    expect(await filters(page).getByLabel('Min price').inputValue()).toBe('1');
    expect(await results(page)).toEqual(filtered.results.map((result) => result.name));
    expect(await page.getByRole('combobox', { name: 'Search products' }).first().inputValue()).toBe('drill');
    await page.close();
  });

  it('shows the empty state, corrections and errors in the spec words', async () => {
    const page = await openPage('/search?term=qqzzxx');
    expect(await page.getByRole('heading', { name: 'No products found' }).isVisible()).toBe(true);
    expect(await page.getByText('Try adjusting your search or filters').isVisible()).toBe(true);

    await page.goto(`${baseUrl}/search?term=hamer%20drill`);
    expect(await page.getByText('Showing results for').textContent()).toContain('"hammer drill"');

    const response = await page.goto(`${baseUrl}/search?term=drill&page=0`);
    expect(response?.status()).toBe(400);
    expect(await page.getByRole('alert').textContent()).toBe('Error: Invalid query parameter: page');
    await page.close();
  });

  it('offers the filters in a panel on a phone', async () => {
    const page = await openPage('/search?term=drill', { width: 390, height: 844 });
    const toggle = page.getByRole('button', { name: 'Filters', exact: true });
    expect(await filters(page).getByRole('checkbox').first().isVisible()).toBe(false);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await filters(page).getByRole('checkbox').first().isVisible()).toBe(true);
    const horizontalOverflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(horizontalOverflow).toBe(false);
    await page.close();
  });

  it('has no serious accessibility violations, on a desktop or a phone', async () => {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const page = await openPage('/search?term=drill', viewport);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.close();
    }
    const empty = await openPage('/search?term=qqzzxx');
    expect(await seriousAxeViolations(empty)).toEqual([]);
    await empty.close();
  });
});
