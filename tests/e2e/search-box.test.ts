import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand, Category } from '../../contracts/catalog.ts';
import type { Suggestion } from '../../contracts/search.ts';
import { api, baseUrl, SETTLE, waitForHydration } from './browse-helpers.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

const AUTOCOMPLETE = '/api/search/autocomplete';

describe('header search box', () => {
  let browser: Browser;
  let voltrex: Brand;

  beforeAll(async () => {
    browser = await launchBrowser();
    voltrex = (await api<Brand[]>('/brands')).find((brand) => brand.name === 'Voltrex')!;
    expect(voltrex, 'the demo catalogue has Voltrex').toBeTruthy();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A hydrated home page, with every autocomplete request it makes recorded. */
  async function openHome(viewport = { width: 1280, height: 900 }) {
    const page = await browser.newPage({ viewport });
    const errors = watchPageErrors(page);
    const requests: Request[] = [];
    page.on('request', (request) => {
      if (request.url().includes(AUTOCOMPLETE)) requests.push(request);
    });
    await page.goto(`${baseUrl}/`);
    await waitForHydration(page);
    const box = page.getByRole('combobox', { name: 'Search products' }).first();
    return { page, box, requests, errors };
  }

  const listbox = (page: Page) => page.getByRole('listbox', { name: 'Search suggestions' });
  const options = (page: Page) => listbox(page).getByRole('option');
  const termsOf = (requests: Request[]) => requests.map((request) => new URL(request.url()).searchParams.get('term'));

  it('waits for a pause in typing, then asks once for the whole word', async () => {
    const { page, box, requests, errors } = await openHome();
    await box.click();
    await box.pressSequentially('drill', { delay: 40 });
    await expect.poll(() => options(page).count(), SETTLE).toBeGreaterThan(0);
    expect(termsOf(requests)).toEqual(['drill']);
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('true');
    expect(await options(page).count()).toBeLessThanOrEqual(10);
    // Every suggestion shows what it is.
    expect(await options(page).first().textContent()).toMatch(/Product|Brand|Category/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('asks nothing below two characters and closes when the term gets too short', async () => {
    const { page, box, requests } = await openHome();
    await box.click();
    await box.pressSequentially('d');
    await page.waitForTimeout(600);
    expect(requests).toEqual([]);
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    await box.pressSequentially('r');
    await expect.poll(() => options(page).count(), SETTLE).toBeGreaterThan(0);
    await box.press('Backspace');
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => listbox(page).isVisible()).toBe(false);
    await page.close();
  });

  it('aborts the request for an older term and shows "Loading suggestions..." meanwhile', async () => {
    const { page, box, requests } = await openHome();
    const failed: string[] = [];
    page.on('requestfailed', (request) => {
      if (request.url().includes(AUTOCOMPLETE)) failed.push(new URL(request.url()).searchParams.get('term') ?? '');
    });
    // The first answer is slow, so it is still in flight when the shopper types on.
    let first = true;
    await page.route(`**${AUTOCOMPLETE}?*`, async (route) => {
      if (first) {
        first = false;
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
      await route.continue().catch(() => {});
    });
    await box.click();
    await box.pressSequentially('dr');
    // The pause has passed and the request for "dr" is on its way…
    await expect.poll(() => requests.length, SETTLE).toBe(1);
    expect(await page.getByText('Loading suggestions...').isVisible()).toBe(true);
    // …when the shopper types on.
    await box.pressSequentially('i');
    await expect.poll(() => failed, SETTLE).toEqual(['dr']);
    await expect.poll(() => options(page).count(), SETTLE).toBeGreaterThan(0);
    expect(termsOf(requests)).toEqual(['dr', 'dri']);
    for (const text of await options(page).allTextContents()) expect(text.toLowerCase()).toMatch(/dri/);
    await page.close();
  });

  it('says so when nothing matches, and when suggestions fail to load', async () => {
    const { page, box } = await openHome();
    await box.click();
    await box.pressSequentially('qqzzxx');
    await expect.poll(() => page.getByText('No suggestions found for "qqzzxx"').isVisible(), SETTLE).toBe(true);

    await page.route(`**${AUTOCOMPLETE}?*`, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
    );
    await box.fill('');
    await box.pressSequentially('saw');
    await expect
      .poll(() => page.getByText('Failed to load suggestions. Please try again.').isVisible(), SETTLE)
      .toBe(true);
    expect(await options(page).count()).toBe(0);
    await page.close();
  });

  it('moves through suggestions with the arrow keys and opens the chosen brand with Enter', async () => {
    const { page, box } = await openHome();
    await box.click();
    await box.pressSequentially('voltr');
    await expect.poll(() => options(page).count(), SETTLE).toBeGreaterThan(1);
    expect(await box.getAttribute('aria-activedescendant')).toBeNull();
    await box.press('ArrowDown');
    const firstId = await options(page).first().getAttribute('id');
    expect(await box.getAttribute('aria-activedescendant')).toBe(firstId);
    expect(await options(page).first().getAttribute('aria-selected')).toBe('true');
    await box.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await options(page).nth(1).getAttribute('id'));
    await box.press('ArrowUp');
    expect(await box.getAttribute('aria-activedescendant')).toBe(firstId);
    expect(await options(page).first().textContent()).toContain('Voltrex');
    await box.press('Enter');
    await page.waitForURL(`${baseUrl}/brand/${voltrex.id}`, SETTLE);
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('false');
    await page.close();
  });

  it('closes on Escape, on a click outside and on the clear button', async () => {
    const { page, box } = await openHome();
    const open = async () => {
      await box.fill('');
      await box.pressSequentially('hammer');
      await expect.poll(() => options(page).count(), SETTLE).toBeGreaterThan(0);
    };
    await box.click();
    await open();
    await box.press('Escape');
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('false');
    expect(await box.inputValue()).toBe('hammer');

    await open();
    await page.mouse.click(5, 600);
    await expect.poll(() => listbox(page).isVisible()).toBe(false);

    await box.click();
    await open();
    await page.getByRole('button', { name: 'Clear search' }).first().click();
    await expect.poll(() => listbox(page).isVisible()).toBe(false);
    expect(await box.inputValue()).toBe('');
    await page.close();
  });

  it('opens a product or a category when its suggestion is clicked', async () => {
    const { page, box } = await openHome();
    await box.click();
    await box.pressSequentially('hammer dri');
    await expect.poll(() => options(page).count(), SETTLE).toBeGreaterThan(0);
    const suggestions = await api<Suggestion[]>('/search/autocomplete?term=hammer%20dri');
    await options(page).first().click();
    await page.waitForURL(`${baseUrl}/product/${suggestions[0]!.referenceId}`, SETTLE);
    // Leaving for another page closes the box and empties it.
    await expect.poll(() => box.inputValue(), SETTLE).toBe('');
    expect(await box.getAttribute('aria-expanded')).toBe('false');

    const category = (await api<Category[]>('/categories')).find((candidate) => candidate.name === 'Power Tools')!;
    await box.fill('');
    await box.pressSequentially('power too');
    const categoryOption = options(page).filter({ hasText: 'Power Tools' }).first();
    await expect.poll(() => categoryOption.isVisible(), SETTLE).toBe(true);
    await categoryOption.click();
    await page.waitForURL(`${baseUrl}/category/${category.id}`, SETTLE);
    await page.close();
  });

  it('submits to /search?term=, and an empty submit does nothing', async () => {
    const { page, box } = await openHome({ width: 390, height: 844 });
    await box.click();
    await box.press('Enter');
    await page.waitForTimeout(300);
    expect(page.url()).toBe(`${baseUrl}/`);
    await box.fill('   ');
    await page.getByRole('button', { name: 'Search', exact: true }).first().click();
    await page.waitForTimeout(300);
    expect(page.url()).toBe(`${baseUrl}/`);

    await box.fill('  hammer   drill ');
    await box.press('Enter');
    await page.waitForURL(`${baseUrl}/search?term=hammer+drill`, SETTLE);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Search Results', level: 1 }).isVisible(), SETTLE)
      .toBe(true);
    // The box shows the term being searched.
    await expect.poll(() => box.inputValue(), SETTLE).toBe('hammer drill');
    await page.close();
  });
});
