import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Category } from '../../contracts/catalog.ts';
import { seriousAxeViolations } from './axe.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

const baseUrl = inject('baseUrl');

async function hydrated(page: Page): Promise<void> {
  await page.waitForSelector('html[data-hydrated="true"]');
}

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? null);

describe('site layout', () => {
  let browser: Browser;
  let sorted: Category[];

  beforeAll(async () => {
    browser = await launchBrowser();
    const categories = (await (await fetch(`${baseUrl}/api/categories`)).json()) as Category[];
    sorted = categories.toSorted((a, b) => a.name.localeCompare(b.name, 'en-AU'));
    expect(sorted.length).toBeGreaterThan(10);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('has the top bar, header and footer of spec §2, rendered on the server', async () => {
    // React separates adjacent text with comments; the shopper sees one sentence.
    const html = (await (await fetch(`${baseUrl}/`)).text()).replaceAll('<!-- -->', '');
    expect(html).toContain('Free delivery</span> on orders over $100');
    expect(html).toContain('href="tel:0290000000"');
    expect(html).toContain('href="/store-locations"');
    expect(html).toContain('href="/login"');
    expect(html).toContain('>Cart, 0 items</span>');
    // Footer: quick links, contact details, configured social links, this year.
    for (const href of ['/', '/products', '/contact', '/store-locations']) expect(html).toContain(`href="${href}"`);
    for (const url of [
      'https://facebook.com/harbourtools',
      'https://instagram.com/harbourtools',
      'https://youtube.com/@harbourtools',
    ]) {
      expect(html).toContain(`href="${url}"`);
    }
    expect(html).toContain('hello@harbourtools.example');
    expect(html).toContain(`© ${new Date().getFullYear()} Harbour Tools`);
  });

  it('opens the Shop by Category dropdown: first 10 by name, then View All Categories (N)', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(`${baseUrl}/`);
    await hydrated(page);
    const toggle = page.getByRole('button', { name: 'Shop by Category' });
    const menu = page.getByRole('navigation', { name: 'Categories' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await menu.getByRole('link', { name: sorted[0]!.name, exact: true }).isVisible()).toBe(false);

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const links = menu.locator(`#${await toggle.getAttribute('aria-controls')} a`);
    await expect.poll(() => links.count()).toBe(10);
    expect((await links.allTextContents()).map((text) => text.trim())).toEqual(
      sorted.slice(0, 10).map((category) => category.name),
    );
    const viewAll = menu.getByRole('button', { name: `View All Categories (${sorted.length})` });
    await viewAll.click();
    await expect.poll(() => links.count()).toBe(sorted.length);
    expect(await viewAll.count()).toBe(0);
    // Focus moves to the first category the button revealed.
    expect(await focusedText(page)).toBe(sorted[10]!.name);

    // A click outside closes it.
    await page.mouse.click(1200, 800);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    // Choosing a category goes there and closes the menu.
    await toggle.click();
    await menu.getByRole('link', { name: sorted[2]!.name, exact: true }).click();
    await page.waitForURL(`${baseUrl}/category/${sorted[2]!.id}`);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('works the dropdown with the keyboard', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseUrl}/`);
    await hydrated(page);
    const toggle = page.getByRole('button', { name: 'Shop by Category' });
    await toggle.focus();
    await page.keyboard.press('ArrowDown');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => focusedText(page)).toBe(sorted[0]!.name);
    await page.keyboard.press('ArrowDown');
    expect(await focusedText(page)).toBe(sorted[1]!.name);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    // Up from the first item returns to the button.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-controls'))).toBeTruthy();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    expect(await focusedText(page)).toBe(`View All Categories (${sorted.length})`);
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedText(page)).toBe(sorted[10]!.name);
    await page.keyboard.press('Home');
    expect(await focusedText(page)).toBe(sorted[0]!.name);

    // Escape closes it and puts focus back on the button.
    await page.keyboard.press('Escape');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await toggle.evaluate((element) => element === document.activeElement)).toBe(true);

    // Enter opens it; Tab walks into the list; tabbing out of the list closes it.
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe(sorted[0]!.name);
    for (let step = 0; step < 11; step++) await page.keyboard.press('Tab');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    // Enter on a category follows it.
    await toggle.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/category/${sorted[1]!.id}`);
    await page.close();
  });

  it('gives a phone the logo, cart and menu button, with the search box full width below', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors = watchPageErrors(page);
    await page.goto(`${baseUrl}/`);
    await hydrated(page);
    const header = page.locator('header').first();
    expect(await header.getByRole('link', { name: 'Harbour Tools home' }).isVisible()).toBe(true);
    expect(await header.getByRole('link', { name: 'Cart, 0 items' }).isVisible()).toBe(true);
    expect(await header.getByRole('link', { name: 'Login' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Shop by Category' }).isVisible()).toBe(false);
    const search = await header.getByRole('search').boundingBox();
    expect(search!.width).toBeGreaterThan(390 - 40);

    const menuButton = header.getByRole('button', { name: 'Menu', exact: true });
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
    await menuButton.click();
    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
    // Focus is inside the drawer.
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    expect(await dialog.getByRole('link', { name: 'Login' }).isVisible()).toBe(true);
    const categoryLinks = dialog.getByRole('navigation', { name: 'Categories (menu)' }).locator('a');
    expect(await categoryLinks.count()).toBe(10);
    await dialog.getByRole('button', { name: `View All Categories (${sorted.length})` }).click();
    await expect.poll(() => categoryLinks.count()).toBe(sorted.length);

    // Escape closes it and focus returns to the menu button.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await menuButton.evaluate((element) => element === document.activeElement)).toBe(true);

    // Following a link closes the drawer.
    await menuButton.click();
    await dialog.getByRole('link', { name: sorted[0]!.name, exact: true }).click();
    await page.waitForURL(`${baseUrl}/category/${sorted[0]!.id}`);
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('toggles the wishlist heart and keeps it in this browser', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseUrl}/`);
    await hydrated(page);
    const heart = page.getByRole('button', { name: /^Save .+ to wishlist$/ }).first();
    const label = await heart.getAttribute('aria-label');
    expect(await heart.getAttribute('aria-pressed')).toBe('false');
    await heart.click();
    expect(await heart.getAttribute('aria-pressed')).toBe('true');
    await page.reload();
    await hydrated(page);
    const same = page.getByRole('button', { name: label! }).first();
    await expect.poll(() => same.getAttribute('aria-pressed')).toBe('true');
    await same.click();
    expect(await same.getAttribute('aria-pressed')).toBe('false');
    await page.close();
  });

  it('shows a helpful 404 page with a real 404 status and no serious axe-core violations', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const response = await page.goto(`${baseUrl}/tools/that/do/not/exist`);
    expect(response?.status()).toBe(404);
    await hydrated(page);
    expect(await page.title()).toMatch(/^Page not found \| /);
    const main = page.locator('main');
    expect(await main.getByRole('heading', { name: 'Page not found', level: 1 }).isVisible()).toBe(true);
    expect(await main.getByRole('search').isVisible()).toBe(true);
    for (const name of ['Home page', 'All products', 'Shop by brand', 'Contact us']) {
      expect(await main.getByRole('link', { name }).isVisible()).toBe(true);
    }
    await expect.poll(() => main.getByRole('link', { name: sorted[0]!.name, exact: true }).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.close();
  });

  it('has no serious axe-core violations with the menus open', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseUrl}/`);
    await hydrated(page);
    await page.getByRole('button', { name: 'Shop by Category' }).click();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.close();
  });

  it('fetches its JavaScript only after the first paint, then hydrates with no error', async () => {
    for (const path of ['/', '/category/1/subcategory/1']) {
      const page = await browser.newPage();
      const errors = watchPageErrors(page);
      await page.goto(`${baseUrl}${path}`);
      await hydrated(page);
      const timing = await page.evaluate(() => {
        const paint = performance.getEntriesByType('paint').find((entry) => entry.name === 'first-paint');
        const scripts = performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname.endsWith('.js'));
        return {
          paint: paint?.startTime ?? null,
          firstScript: Math.min(...scripts.map((entry) => entry.startTime)),
          scripts: scripts.length,
          entryFetches: scripts.filter((entry) =>
            /\/assets\/entry\.client-[^/]+\.js$/.test(new URL(entry.name).pathname),
          ).length,
        };
      });
      expect(timing.paint, path).not.toBeNull();
      expect(timing.scripts, path).toBeGreaterThan(0);
      expect(timing.firstScript, path).toBeGreaterThanOrEqual(timing.paint!);
      // The HTML carries them inert; the restored ones are what ran: none is left inert, and the
      // entry module was fetched once. (React Router drops its own script tags when the root
      // renders again after hydration, which the root's clientLoader makes it do, so the
      // restored module script is no longer there to count.)
      expect(await page.locator('script[type="x-module"], link[rel="x-modulepreload"]').count(), path).toBe(0);
      expect(timing.entryFetches, path).toBe(1);
      expect(errors, path).toEqual([]);
      await page.close();
    }
  });
});
