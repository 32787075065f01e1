import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Category } from '../../contracts/catalog.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

const baseUrl = inject('baseUrl');

describe('home page', () => {
  let browser: Browser;
  let categories: Category[];

  beforeAll(async () => {
    browser = await launchBrowser();
    categories = (await (await fetch(`${baseUrl}/api/categories`)).json()) as Category[];
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('arrives from the server as HTML with the real category names in it', async () => {
    const response = await fetch(`${baseUrl}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const html = await response.text();
    expect(categories.length).toBeGreaterThanOrEqual(12);
    for (const category of categories) {
      expect(html).toContain(category.name.replaceAll('&', '&amp;'));
    }
  });

  it('hydrates in Chromium, then navigates on the client without a full reload', async () => {
    const page = await browser.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${baseUrl}/`);
    await expect.poll(() => page.evaluate(() => Boolean((window as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules))).toBe(true);
    const first = categories[0]!;
    await page.evaluate(() => {
      (window as { notReloaded?: boolean }).notReloaded = true;
    });
    await page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: first.name, exact: true }).click();
    await page.waitForURL(`${baseUrl}/category/${first.id}`);
    // A client-side navigation keeps the window object: proof that React took over the page.
    expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('answers an unknown page with a 404 status and the not-found page', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${baseUrl}/no-such-page`);
    expect(response?.status()).toBe(404);
    await expect.poll(() => page.getByRole('heading', { name: 'Page not found' }).isVisible()).toBe(true);
    await page.close();
  });
});
