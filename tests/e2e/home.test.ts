import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Brand, Category, Product } from '../../contracts/catalog.ts';
import { seriousAxeViolations } from './axe.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

const baseUrl = inject('baseUrl');

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${baseUrl}/api${path}`);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

async function hydrated(page: Page): Promise<void> {
  await page.waitForSelector('html[data-hydrated="true"]');
}

/** HTML-escapes text the way React does in markup. */
const escaped = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * Opens the home page with the page's clock frozen, so the hero's 5 s timer only
 * runs when the test moves time on with `page.clock.runFor`.
 */
async function homeWithFrozenClock(page: Page): Promise<void> {
  await page.clock.install({ time: new Date('2030-01-01T00:00:00Z') });
  await page.clock.pauseAt(new Date('2030-01-01T00:00:01Z'));
  await page.goto(`${baseUrl}/`);
  await hydrated(page);
}

/** Takes keyboard focus out of the carousel (to a header link). */
const focusOutside = (page: Page) => page.locator('header a[href="/store-locations"]').first().focus();

const activeSlide = (page: Page) =>
  page.locator('[aria-roledescription="slide"][data-active="true"]').getAttribute('aria-label');

describe('home page', () => {
  let browser: Browser;
  let categories: Category[];

  beforeAll(async () => {
    browser = await launchBrowser();
    categories = await api<Category[]>('/categories');
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
      expect(html).toContain(escaped(category.name));
      expect(html).toContain(`href="/category/${category.id}"`);
    }
  });

  it('renders the first 8 brands, 4 featured products and 8 new arrivals on the server', async () => {
    const html = await (await fetch(`${baseUrl}/`)).text();
    const brands = await api<Brand[]>('/brands');
    for (const brand of brands.slice(0, 8)) expect(html).toContain(`href="/brand/${brand.id}"`);
    expect(html).not.toContain(`href="/brand/${brands[8]!.id}"`);
    const featured = await api<{ items: Product[] }>('/products?featured=true&sort=featured&limit=4');
    const newest = await api<{ items: Product[] }>('/products?sort=newest&limit=8');
    for (const product of [...featured.items, ...newest.items]) {
      expect(html).toContain(escaped(product.name));
    }
    // Links of the banners lead into the catalogue.
    for (const href of ['/deals', '/clearance', '/redemption', '/membership', '/shop-by-brand', '/new-arrivals']) {
      expect(html).toContain(`href="${href}"`);
    }
    expect(html).toContain('Free delivery');
  });

  it('hydrates in Chromium, then navigates on the client without a full reload', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(`${baseUrl}/`);
    await hydrated(page);
    const first = [...categories].sort((a, b) => a.name.localeCompare(b.name, 'en-AU'))[0]!;
    await page.evaluate(() => {
      (window as { notReloaded?: boolean }).notReloaded = true;
    });
    await page.getByRole('button', { name: 'Shop by Category' }).click();
    await page
      .getByRole('navigation', { name: 'Categories' })
      .getByRole('link', { name: first.name, exact: true })
      .click();
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

  describe('hero slider', () => {
    it('moves on after 5 s, and the dots jump to a slide', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await homeWithFrozenClock(page);
      // The pointer starts at the top-left corner, outside the carousel.
      expect(await activeSlide(page)).toMatch(/^1 of \d+/);
      const count = await page.locator('[aria-roledescription="slide"]').count();
      expect(count).toBeGreaterThanOrEqual(3);
      await page.clock.runFor(4_800);
      expect(await activeSlide(page)).toMatch(/^1 of /);
      await page.clock.runFor(400);
      await expect.poll(() => activeSlide(page)).toMatch(/^2 of /);
      await page.clock.runFor(5_000);
      await expect.poll(() => activeSlide(page)).toMatch(/^3 of /);

      await page.getByRole('button', { name: /^Go to slide 1:/ }).click();
      await expect.poll(() => activeSlide(page)).toMatch(/^1 of /);
      expect(await page.getByRole('button', { name: /^Go to slide 1:/ }).getAttribute('aria-current')).toBe('true');
      // Hidden slides are out of the tab order and the accessibility tree.
      expect(
        await page.locator('[aria-roledescription="slide"][data-active="false"]').first().getAttribute('inert'),
      ).toBe('');
      await page.close();
    });

    it('holds still while hovered or focused, and moves on again afterwards', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await homeWithFrozenClock(page);
      await page.locator('[aria-roledescription="carousel"]').hover();
      await page.clock.runFor(12_000);
      expect(await activeSlide(page)).toMatch(/^1 of /);
      await page.mouse.move(10, 890);
      await page.clock.runFor(5_100);
      await expect.poll(() => activeSlide(page)).toMatch(/^2 of /);

      // Keyboard focus inside the carousel pauses it too.
      await page.getByRole('button', { name: 'Next slide' }).focus();
      await page.clock.runFor(12_000);
      expect(await activeSlide(page)).toMatch(/^2 of /);
      await focusOutside(page);
      await page.clock.runFor(5_100);
      await expect.poll(() => activeSlide(page)).toMatch(/^3 of /);
      await page.close();
    });

    it('stays put for shoppers who prefer reduced motion until they start it', async () => {
      const context = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await homeWithFrozenClock(page);
      const toggle = page.getByRole('button', { name: 'Start automatic slide show' });
      await expect.poll(() => toggle.isVisible()).toBe(true);
      await page.clock.runFor(15_000);
      expect(await activeSlide(page)).toMatch(/^1 of /);
      await toggle.click();
      expect(await page.getByRole('button', { name: 'Stop automatic slide show' }).isVisible()).toBe(true);
      await page.mouse.move(10, 890);
      await focusOutside(page);
      await page.clock.runFor(5_100);
      await expect.poll(() => activeSlide(page)).toMatch(/^2 of /);
      await context.close();
    });
  });

  it('shows category slider arrows by scroll position (10 px threshold) and scrolls 300 px a click', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseUrl}/`);
    await hydrated(page);
    const row = page.getByRole('list', { name: 'Categories', exact: true });
    const left = page.getByRole('button', { name: 'Scroll categories left' });
    const right = page.getByRole('button', { name: 'Scroll categories right' });
    await row.scrollIntoViewIfNeeded();
    expect(await row.locator('a[href^="/category/"]').count()).toBe(categories.length);
    await expect.poll(() => right.isVisible()).toBe(true);
    expect(await left.isVisible()).toBe(false);

    await right.click();
    await expect.poll(() => row.evaluate((list) => list.scrollLeft)).toBe(300);
    await expect.poll(() => left.isVisible()).toBe(true);

    const scrollTo = (x: number) =>
      row.evaluate((list, left) => {
        list.scrollTo({ left, behavior: 'instant' });
      }, x);
    await scrollTo(10);
    await expect.poll(() => left.isVisible()).toBe(false);
    await scrollTo(11);
    await expect.poll(() => left.isVisible()).toBe(true);
    const end = await row.evaluate((list) => list.scrollWidth - list.clientWidth);
    await scrollTo(end - 11);
    await expect.poll(() => right.isVisible()).toBe(true);
    await scrollTo(end - 10);
    await expect.poll(() => right.isVisible()).toBe(false);
    await left.click();
    await expect.poll(() => row.evaluate((list) => list.scrollLeft)).toBe(end - 10 - 300);
    await expect.poll(() => right.isVisible()).toBe(true);
    await page.close();
  });

  it('adds to the cart from a product card, updates the header count and stops at the stock', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(`${baseUrl}/`);
    await hydrated(page);
    // The cart link's accessible name, e.g. "Cart, 3 items".
    const cartName = () =>
      page.locator('header a[href="/cart"]').evaluate((link) => link.textContent?.match(/Cart, \d+ items?/)?.[0]);
    expect(await cartName()).toBe('Cart, 0 items');

    // The home page's product with the least stock (but some) is the one to sell out.
    const ids = [
      ...new Set(
        (
          await page
            .locator('article a[href^="/product/"]')
            .evaluateAll((links) => links.map((a) => a.getAttribute('href')))
        ).map((href) => Number(href!.split('/').pop())),
      ),
    ];
    const products = await Promise.all(ids.map((id) => api<Product>(`/products/${id}`)));
    const product = products.filter((p) => p.stockQuantity > 0).sort((a, b) => a.stockQuantity - b.stockQuantity)[0]!;
    const card = page.locator('article', { has: page.locator(`a[href="/product/${product.id}"]`) }).first();
    const addButton = card.getByRole('button', { name: 'Add to Cart' });

    await addButton.click();
    await expect.poll(() => cartName()).toBe('Cart, 1 item');
    expect(await page.getByTestId('cart-count').textContent()).toBe('1');
    if (product.stockQuantity > 5) {
      // Plenty on hand: put all but one in the cart the way a returning shopper's saved cart arrives.
      await page.evaluate(
        ({ item }) => {
          localStorage.setItem('harbour-tools.cart.v1', JSON.stringify({ items: [item] }));
        },
        {
          item: {
            id: product.id,
            name: product.name,
            price: product.discountPrice ?? product.price,
            originalPrice: product.price,
            image: product.imageUrl,
            sku: product.sku,
            quantity: product.stockQuantity - 1,
            maxQuantity: product.stockQuantity,
            totalPrice: 0,
          },
        },
      );
      await page.reload();
      await hydrated(page);
      await expect.poll(() => cartName()).toBe(`Cart, ${product.stockQuantity - 1} items`);
    }
    while ((await card.getByRole('button', { name: 'Add to Cart' }).count()) > 0) {
      await card.getByRole('button', { name: 'Add to Cart' }).click();
    }
    const soldOut = card.getByRole('button', { name: 'Out of Stock' });
    expect(await soldOut.isDisabled()).toBe(true);
    const expected = `Cart, ${product.stockQuantity} ${product.stockQuantity === 1 ? 'item' : 'items'}`;
    await expect.poll(() => cartName()).toBe(expected);

    // The cart survives a reload; the server renders it empty and the browser fills it in without a mismatch.
    await page.reload();
    await hydrated(page);
    await expect.poll(() => cartName()).toBe(expected);
    expect(await page.getByRole('link', { name: expected, exact: true }).count()).toBe(1);
    await expect.poll(() => soldOut.isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it.each([1280, 390])('has no serious or critical axe-core violations at %d px', async (width) => {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${baseUrl}/`);
    await hydrated(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.close();
  });
});
