import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it, type MockInstance, vi } from 'vitest';
import type { Category, Product, Subcategory } from '../../contracts/catalog.ts';
import type { Order } from '../../contracts/orders.ts';
import { categories, orders, returnRequests } from '../../db/schema.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';
import { baseUrl, hydrated, newUser, SETTLE, signIn, submitLogin, waitForPath } from './account-helpers.ts';
import { seriousAxeViolations } from './axe.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';
import { activeProducts, apiJson, placeOrderViaApi, registerShopper, type Shopper } from './shop-helpers.ts';

/*
 * Issue 27's loose ends, as a shopper and the owner meet them in the browser:
 * 3 /profile says 'Failed to fetch orders' (spec §8) when only its recent orders fail;
 * 4 moving to another category or subcategory empties the old list while the new one loads;
 * 6 a category without a picture gets the default picture on its tile;
 * 8 after creating a product, /upload fetches it again and shows its uploaded pictures;
 * 9 no form shows a field's code name ('Invalid field: newPassword');
 * 10 the back office's required-field errors clear as each field is corrected;
 * 11 at 390 px the order page's items table and the admin tables do not scroll sideways;
 * 12 a new account is greeted 'Welcome', the return form's quantity has a label and no 0,
 *    and the contact form is filled in with a signed-in shopper's name and e-mail.
 * Most run on the shared shop; the ones that need a part of a page to fail, or data set up
 * by hand, run on a shop of their own (the real app and built storefront on an in-memory
 * database, as tests/e2e/catalogue-failures.test.ts does). Screenshots: /tmp/loose-ends-shots/.
 */

const admin = { email: inject('adminEmail'), password: inject('adminPassword') };
const SHOTS_DIR = '/tmp/loose-ends-shots';
const WIDTHS = [390, 1280] as const;

/** Full-page screenshots at a phone's and a desktop's width, and axe's serious or critical findings at each. */
async function photograph(page: Page, name: string): Promise<string[]> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const findings: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    await page.waitForTimeout(200);
    for (const finding of await seriousAxeViolations(page)) findings.push(`${width}px ${finding}`);
    await page.screenshot({ path: join(SHOTS_DIR, `${name}-${width}.png`), fullPage: true });
  }
  return findings;
}

/**
 * What scrolls sideways at the page's width: the document wider than the viewport, any table
 * cell drawn outside it, or a box around a table that scrolls (which hides columns off-screen).
 */
async function sidewaysScrolling(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width) {
      found.push(`document is ${document.documentElement.scrollWidth}px wide in a ${width}px viewport`);
    }
    for (const table of document.querySelectorAll('main table')) {
      for (const cell of table.querySelectorAll('td, th')) {
        const box = cell.getBoundingClientRect();
        // Visually hidden headers (1 px) carry the names for screen readers only.
        if (box.width <= 1 || box.height <= 1) continue;
        if (box.left < -1 || box.right > width + 1) {
          found.push(
            `"${(cell.textContent ?? '').trim().slice(0, 40)}" drawn at ${Math.round(box.left)}–${Math.round(box.right)}px`,
          );
        }
      }
      for (let box = table.parentElement; box && box !== document.body; box = box.parentElement) {
        if (box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX !== 'visible') {
          found.push(`a box around a table scrolls sideways (${box.scrollWidth} > ${box.clientWidth})`);
        }
      }
    }
    return found;
  });
}

describe('issue 27 on the shared shop', () => {
  let browser: Browser;
  let picturesDir: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    picturesDir = mkdtempSync(join(tmpdir(), 'harbour-loose-ends-'));
  });
  afterAll(async () => {
    await browser?.close();
    if (picturesDir) rmSync(picturesDir, { recursive: true, force: true });
  });

  describe('4. another category or subcategory empties the old list while it loads', () => {
    /** Holds back the data request of `pathname` until the returned function is called. */
    async function holdBack(page: Page, pathname: string): Promise<{ requested: Promise<void>; release: () => void }> {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let markRequested = () => {};
      const requested = new Promise<void>((resolve) => {
        markRequested = resolve;
      });
      await page.route(
        (url) => url.pathname === `${pathname}.data`,
        async (route) => {
          markRequested();
          await held;
          await route.continue();
        },
      );
      return { requested, release };
    }

    async function visibleNames(page: Page, names: string[]): Promise<string[]> {
      const shown: string[] = [];
      for (const name of names) {
        if (await page.locator('main').getByRole('link', { name, exact: true }).first().isVisible()) shown.push(name);
      }
      return shown;
    }

    it('from one category page to another: the old best sellers go, a busy skeleton shows, then the new ones', async () => {
      const all = (await apiJson<Category[]>('/api/categories')).body.filter(
        (category) => (category.productCount ?? 0) >= 4,
      );
      const [from, to] = all;
      if (!from || !to) throw new Error('The shop has too few categories with products');
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchPageErrors(page);
      await page.goto(`${baseUrl}/category/${from.id}`);
      await hydrated(page);
      const popular = page.getByRole('region', { name: `Popular in ${from.name}` });
      const oldNames = (await popular.locator('li h3').allTextContents()).map((name) => name.trim());
      expect(oldNames.length).toBeGreaterThan(0);

      const { requested, release } = await holdBack(page, `/category/${to.id}`);
      await page.getByRole('button', { name: 'Shop by Category' }).click();
      await page
        .getByRole('navigation', { name: 'Categories' })
        .getByRole('link', { name: to.name, exact: true })
        .first()
        .click();
      await requested;
      // While the new category is on its way: none of the old products, a busy list of placeholders.
      await expect.poll(() => visibleNames(page, oldNames), SETTLE).toEqual([]);
      const busy = page.locator('main [aria-busy="true"]');
      expect(await busy.count()).toBeGreaterThan(0);
      expect(await busy.first().getByTestId('product-skeleton').count()).toBeGreaterThan(0);
      await page.screenshot({ path: join(SHOTS_DIR, 'category-loading-1280.png') });

      release();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), SETTLE).toContain(to.name);
      await expect
        .poll(
          () =>
            page
              .getByRole('region', { name: `Popular in ${to.name}` })
              .locator('li h3')
              .count(),
          SETTLE,
        )
        .toBeGreaterThan(0);
      expect(await page.locator('main [aria-busy="true"]').count()).toBe(0);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('from one subcategory to its sibling: the old products go while the sibling loads', async () => {
      const subcategories = (await apiJson<Subcategory[]>('/api/subcategories')).body;
      const from = subcategories.find(
        (candidate) =>
          candidate.productCount >= 2 &&
          subcategories.some(
            (other) =>
              other.categoryId === candidate.categoryId && other.id !== candidate.id && other.productCount >= 2,
          ),
      );
      if (!from) throw new Error('The shop has no category with two stocked subcategories');
      const to = subcategories.find(
        (other) => other.categoryId === from.categoryId && other.id !== from.id && other.productCount >= 2,
      ) as Subcategory;
      mkdirSync(SHOTS_DIR, { recursive: true });
      for (const width of WIDTHS) {
        const page = await browser.newPage({ viewport: { width, height: width < 600 ? 844 : 900 } });
        await page.goto(`${baseUrl}/category/${from.categoryId}/subcategory/${from.id}`);
        await hydrated(page);
        const list = page.getByRole('list', { name: 'Products', exact: true });
        const oldNames = (await list.locator(':scope > li h3').allTextContents()).map((name) => name.trim());
        expect(oldNames.length).toBeGreaterThan(0);

        const target = `/category/${from.categoryId}/subcategory/${to.id}`;
        const { requested, release } = await holdBack(page, target);
        await page
          .getByRole('navigation', { name: `More in ${from.categoryName}` })
          .getByRole('link', { name: to.name, exact: true })
          .click();
        await requested;
        await expect.poll(() => visibleNames(page, oldNames), SETTLE).toEqual([]);
        expect(await page.locator('main [aria-busy="true"]').getByTestId('product-skeleton').count()).toBeGreaterThan(
          0,
        );
        await page.screenshot({ path: join(SHOTS_DIR, `subcategory-loading-${width}.png`) });

        release();
        await waitForPath(page, target);
        await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), SETTLE).toContain(to.name);
        await expect.poll(() => list.locator(':scope > li h3').count(), SETTLE).toBeGreaterThan(0);
        expect(await page.locator('main [aria-busy="true"]').count()).toBe(0);
        await page.close();
      }
    });
  });

  describe('the owner on /upload', () => {
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      page = await context.newPage();
      await signIn(page, admin, { redirectTo: '/upload' });
      await hydrated(page);
    });
    afterAll(async () => {
      await context?.close();
    });

    const form = () =>
      page.locator('main form').filter({ has: page.getByRole('group', { name: 'Basic Information' }) });

    it('10. a required-field error clears as the field is corrected, the others stay until theirs are', async () => {
      await page.goto(`${baseUrl}/upload`);
      await hydrated(page);
      await form().getByRole('button', { name: 'Create Product' }).click();
      const name = form().getByRole('textbox', { name: 'Product name', exact: true });
      const sku = form().getByRole('textbox', { name: 'SKU', exact: true });
      await expect.poll(() => name.getAttribute('aria-invalid'), SETTLE).toBe('true');
      expect(await sku.getAttribute('aria-invalid')).toBe('true');
      expect(await form().getByText('Product name is required', { exact: true }).count()).toBe(1);
      expect(await form().getByText('SKU is required', { exact: true }).count()).toBe(1);

      // Typing a name clears its error at once, without another submit; the SKU's stays.
      await name.fill('Wombat');
      await expect.poll(() => name.getAttribute('aria-invalid'), SETTLE).toBeNull();
      expect(await form().getByText('Product name is required', { exact: true }).count()).toBe(0);
      expect(await sku.getAttribute('aria-invalid')).toBe('true');
      expect(await form().getByText('SKU is required', { exact: true }).count()).toBe(1);

      // Emptying it again does not bring the error back before the next submit (no nagging while typing)…
      await name.fill('');
      expect(await name.getAttribute('aria-invalid')).toBeNull();
      // …and a select is corrected as well as a text box.
      const brand = form().getByRole('combobox', { name: 'Brand', exact: true });
      expect(await brand.getAttribute('aria-invalid')).toBe('true');
      await brand.selectOption({ index: 1 });
      await expect.poll(() => brand.getAttribute('aria-invalid'), SETTLE).toBeNull();
      expect(await form().getByText('Brand is required', { exact: true }).count()).toBe(0);
      expect(await photograph(page, 'upload-errors')).toEqual([]);
    });

    it('8. after creating a product, it is fetched again and its uploaded pictures are shown', async () => {
      await page.goto(`${baseUrl}/upload`);
      await hydrated(page);
      const subcategory = (await apiJson<Subcategory[]>('/api/subcategories')).body[0] as Subcategory;
      const brand = (await apiJson<{ id: number; name: string }[]>('/api/brands')).body[0];
      if (!brand) throw new Error('The shop has no brand');
      const suffix = Date.now().toString(36).toUpperCase();
      const jpeg = join(picturesDir, 'front.jpg');
      const png = join(picturesDir, 'side.png');
      await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 230, g: 160, b: 20 } } })
        .jpeg()
        .toFile(jpeg);
      await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 30, g: 120, b: 60 } } })
        .png()
        .toFile(png);

      const productName = `Loose Ends Spirit Level ${suffix}`;
      await form().getByRole('textbox', { name: 'Product name', exact: true }).fill(productName);
      await form().getByRole('textbox', { name: 'SKU', exact: true }).fill(`LE-${suffix}`);
      await form().getByRole('textbox', { name: 'Description', exact: true }).fill('A level that stays level.');
      await form().getByRole('combobox', { name: 'Brand', exact: true }).selectOption(String(brand.id));
      await form()
        .getByRole('combobox', { name: 'Category', exact: true })
        .selectOption(String(subcategory.categoryId));
      const subcategorySelect = form().getByRole('combobox', { name: 'Subcategory', exact: true });
      await expect.poll(() => subcategorySelect.isEnabled(), SETTLE).toBe(true);
      await subcategorySelect.selectOption(String(subcategory.id));
      await form().getByRole('spinbutton', { name: 'Price ($, excl. GST)', exact: true }).fill('42');
      await form().getByRole('spinbutton', { name: 'Stock quantity', exact: true }).fill('3');
      await form()
        .getByLabel(/^Pictures \(JPEG, PNG, WebP or AVIF/)
        .setInputFiles([jpeg, png]);

      const refetched: string[] = [];
      const onRequest = (request: Request) => {
        const path = new URL(request.url()).pathname;
        if (request.method() === 'GET' && /^\/api\/products\/\d+$/.test(path)) refetched.push(path);
      };
      page.on('request', onRequest);
      await form().getByRole('button', { name: 'Create Product' }).click();
      const outcome = form().getByRole('status').filter({ hasText: 'Product created successfully!' });
      await expect.poll(() => outcome.count(), SETTLE).toBe(1);
      const uploaded = page.getByRole('region', { name: 'Uploaded pictures' });
      await expect.poll(() => uploaded.getByRole('img').count(), SETTLE).toBe(2);
      page.off('request', onRequest);
      const id = Number(
        ((await outcome.getByRole('link', { name: 'View product' }).getAttribute('href')) ?? '').split('/').pop(),
      );
      expect(refetched).toContain(`/api/products/${id}`);
      // The pictures as the shop stored them (WebP under /media), primary first, each loaded.
      const product = (await apiJson<Product>(`/api/products/${id}`)).body;
      const sources = await uploaded
        .getByRole('img')
        .evaluateAll((images) => images.map((image) => image.getAttribute('src')));
      expect(sources).toEqual(product.images.map((image) => image.imageUrl));
      expect(sources.every((source) => source?.startsWith('/media/products/'))).toBe(true);
      await expect
        .poll(() =>
          uploaded
            .getByRole('img')
            .evaluateAll((images) => images.every((image) => (image as HTMLImageElement).naturalWidth > 0)),
        )
        .toBe(true);
      expect(await uploaded.getByText('Primary', { exact: true }).count()).toBe(1);
      expect(await photograph(page, 'upload-created')).toEqual([]);
    });
  });

  describe('11. at 390 px the order page and the admin tables have no sideways scrolling', () => {
    let customer: Shopper;
    let customerContext: BrowserContext;
    let adminContext: BrowserContext;
    let order: Order;

    beforeAll(async () => {
      customerContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
      customer = await registerShopper('looseorder', customerContext, 'Bilby', 'Longname-Hyphenated');
      const catalogue = await activeProducts();
      const lines = catalogue.filter((product) => product.stockQuantity >= 5).slice(-3);
      order = await placeOrderViaApi(
        customer,
        lines.map((product, index) => ({ productId: product.id, quantity: index + 1 })),
      );
      adminContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await adminContext.newPage();
      await page.goto(`${baseUrl}/login?redirectTo=%2Fadmin`);
      await submitLogin(page, admin.email, admin.password);
      await waitForPath(page, '/admin');
      await page.close();
    });
    afterAll(async () => {
      await customerContext?.close();
      await adminContext?.close();
    });

    it("the order page's items: every line's quantity and total in view at 390 px, the table kept on a desktop", async () => {
      const page = await customerContext.newPage();
      await page.goto(`${baseUrl}/orders/${order.id}`);
      await hydrated(page);
      const items = page.getByRole('region', { name: 'Items' });
      expect(await sidewaysScrolling(page)).toEqual([]);
      for (const item of order.items) {
        const row = items.getByRole('row').filter({ hasText: item.productName });
        for (const text of [`${item.quantity}`, item.productName]) {
          expect(await row.getByText(text, { exact: true }).first().isVisible()).toBe(true);
        }
      }
      // Each stacked line names its figures (Quantity, Total) beside them on a phone, as the cells' ::before.
      const firstRow = items.getByRole('row').filter({ hasText: order.items[0]?.productName ?? '' });
      const labels = () =>
        firstRow
          .getByRole('cell')
          .evaluateAll((cells) =>
            cells
              .filter((cell) => getComputedStyle(cell, '::before').content !== 'none')
              .map((cell) => cell.getAttribute('data-label')),
          );
      expect(await labels()).toEqual(['Price (ex GST)', 'Quantity', 'Total (ex GST)']);
      expect(await photograph(page, 'order')).toEqual([]);
      // On a desktop it is still a table with its header row, and no cell carries a label of its own.
      expect(await items.getByRole('columnheader', { name: 'Quantity' }).isVisible()).toBe(true);
      expect(await labels()).toEqual([]);
      await page.close();
    });

    it('the admin orders list, products list and order page at 390 px', async () => {
      const page = await adminContext.newPage();
      for (const [name, path] of [
        ['admin-orders', '/admin/orders'],
        ['admin-products', '/admin/products'],
        ['admin-order', `/admin/orders/${order.id}`],
      ] as const) {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`${baseUrl}${path}`);
        await hydrated(page);
        expect(await page.locator('main table').count(), path).toBeGreaterThan(0);
        expect(await sidewaysScrolling(page), path).toEqual([]);
        expect(await photograph(page, name), path).toEqual([]);
        expect(await page.locator('main table').first().getByRole('columnheader').first().isVisible(), path).toBe(true);
      }
      await page.close();
    });
  });

  describe('forms a shopper meets', () => {
    it('9. a too-common new password: the banner names no field by its code name, the field says why', async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const shopper = await registerShopper('loosepass', context);
      const page = await context.newPage();
      await page.goto(`${baseUrl}/account-settings?tab=password`);
      await hydrated(page);
      await page.locator('#settings-currentPassword').fill(shopper.user.password);
      await page.locator('#settings-newPassword').fill('password1');
      await page.locator('#settings-confirmNewPassword').fill('password1');
      await page.getByRole('button', { name: 'Change Password' }).click();
      const banner = page.locator('main').getByRole('alert').first();
      await expect.poll(() => banner.textContent(), SETTLE).toBe('Failed to change password');
      expect(await page.locator('#settings-newPassword-error').textContent()).toBe(
        'This password is too common. Please choose one that is harder to guess.',
      );
      expect(await page.locator('main').textContent()).not.toMatch(/Invalid field|newPassword/);
      expect(await photograph(page, 'password-common')).toEqual([]);
      await context.close();
    });

    it("12. a brand-new account is greeted 'Welcome', not 'Welcome back'", async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const user = newUser('loosewelcome', 'Dunnart');
      const registered = await context.request.post(`${baseUrl}/api/auth/register`, {
        data: { ...user, address: { ...user.address, addressLine2: undefined } },
      });
      expect(registered.status()).toBe(201);
      const page = await context.newPage();
      await page.goto(`${baseUrl}/profile`);
      await hydrated(page);
      expect(
        await page
          .locator('main')
          .getByText(/^Welcome/)
          .first()
          .textContent(),
      ).toBe('Welcome, Dunnart.');
      expect(await page.locator('main').textContent()).not.toContain('Welcome back');
      expect(await photograph(page, 'profile-new')).toEqual([]);
      await context.close();
    });

    it("12. the contact form is filled in with a signed-in shopper's name and e-mail (and empty for anyone else)", async () => {
      const anonymous = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await anonymous.goto(`${baseUrl}/contact`);
      await hydrated(anonymous);
      expect(await anonymous.locator('#contact-name').inputValue()).toBe('');
      expect(await anonymous.locator('#contact-email').inputValue()).toBe('');
      await anonymous.close();

      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const shopper = await registerShopper('loosecontact', context, 'Quenda', 'Marsupial');
      const page = await context.newPage();
      await page.goto(`${baseUrl}/contact`);
      await hydrated(page);
      await expect.poll(() => page.locator('#contact-name').inputValue(), SETTLE).toBe('Quenda Marsupial');
      // The e-mail comes from the shopper's profile, asked for by the page (not in every page's frame).
      await expect.poll(() => page.locator('#contact-email').inputValue(), SETTLE).toBe(shopper.user.email);
      // What the shopper types is theirs: the fill-in never overwrites it.
      await page.locator('#contact-name').fill('Q. Marsupial');
      await page.waitForTimeout(300);
      expect(await page.locator('#contact-name').inputValue()).toBe('Q. Marsupial');
      expect(await photograph(page, 'contact-signed-in')).toEqual([]);
      await context.close();
    });
  });
});

describe('issue 27 on a shop of its own', () => {
  let shop: TestShop;
  let ownUrl: string;
  let browser: Browser;
  let consoleError: MockInstance<typeof console.error> | undefined;
  const password = 'Quoll-Ladder-73';
  let shopper: { email: string; token: string };
  let order: Order;
  let bareCategory: Category;

  async function post<T>(path: string, body: unknown, token?: string): Promise<T> {
    const response = await fetch(`${ownUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  }

  async function signedInPage(width = 1280): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 } });
    const page = await context.newPage();
    await page.goto(`${ownUrl}/login?redirectTo=%2Fprofile`);
    await submitLogin(page, shopper.email, password);
    await page.waitForURL((url) => url.pathname === '/profile', SETTLE);
    return page;
  }

  beforeAll(async () => {
    // No page cache and no catalogue cache: the data this file sets up by hand shows at once.
    shop = await createTestShop('pglite', {
      products: 60,
      storefront: true,
      env: { PAGE_CACHE_MB: '0', CATALOG_CACHE_SECONDS: '0' },
    });
    await shop.app.listen({ host: '127.0.0.1', port: 0 });
    ownUrl = `http://127.0.0.1:${(shop.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    const user = newUser('looseown', 'Antechinus', 'Brown');
    const registered = await post<{ token: string }>('/api/auth/register', {
      ...user,
      password,
      address: { ...user.address, addressLine2: undefined },
    });
    shopper = { email: user.email, token: registered.token };
    const products = (await (await fetch(`${ownUrl}/api/products?limit=10&sort=price_asc`)).json()) as {
      items: Product[];
    };
    const [first, second] = products.items.filter((product) => product.stockQuantity >= 5);
    if (!first || !second) throw new Error('The shop has too few stocked products');
    const placed = await post<{ order: Order }>(
      '/api/orders',
      {
        sessionId: `session_${Date.now()}_loose`,
        userEmail: user.email,
        orderItems: [
          { productId: first.id, quantity: 2 },
          { productId: second.id, quantity: 1 },
        ],
        cardData: {
          Number: '4242 4242 4242 4242',
          Name: 'Antechinus Brown',
          Expiry: `12/${String((new Date().getFullYear() + 3) % 100).padStart(2, '0')}`,
          Cvc: '123',
        },
        shippingAddress: {
          fullName: 'Antechinus Brown',
          addressLine1: user.address.addressLine1,
          city: user.address.city,
          state: user.address.state,
          postalCode: user.address.postalCode,
          country: user.address.country,
        },
      },
      registered.token,
    );
    order = placed.order;
    // Delivered yesterday: its return window is open.
    await shop.database.db
      .update(orders)
      .set({ status: 'Succeeded', fulfilledAt: new Date(Date.now() - 86_400_000) })
      .where(eq(orders.id, order.id));
    // The first category by name (the home slider's first tile) loses its picture.
    const [first_category] = await shop.database.db
      .update(categories)
      .set({ imageUrl: null })
      .where(
        eq(
          categories.id,
          shop.database.db.select({ id: categories.id }).from(categories).orderBy(asc(categories.name)).limit(1),
        ),
      )
      .returning({ id: categories.id, name: categories.name, slug: categories.slug });
    if (!first_category) throw new Error('The shop has no category');
    bareCategory = { ...first_category, description: '', imageUrl: null };
  });
  afterAll(async () => {
    consoleError?.mockRestore();
    await browser?.close();
    await shop?.close();
  });

  it("3. /profile says 'Failed to fetch orders' in place of its recent orders when only they fail", async () => {
    const page = await signedInPage();
    const recent = page.getByRole('region', { name: 'Recent orders' });
    await expect.poll(() => recent.getByRole('link', { name: order.orderNumber }).count(), SETTLE).toBe(1);

    consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const orderService = shop.app.services.orders;
    const listOrders = orderService.listOrders;
    orderService.listOrders = () => Promise.reject(new Error('connection to the database was refused (test)'));
    try {
      const response = await page.goto(`${ownUrl}/profile`);
      expect(response?.status()).toBe(200);
      await hydrated(page);
      expect(await recent.getByRole('alert').textContent()).toContain('Failed to fetch orders');
      expect(await page.getByText('Failed to fetch profile').count()).toBe(0);
      // The rest of the profile is there.
      expect(await page.getByTestId('profile-name').textContent()).toBe('Antechinus Brown');
      expect(await recent.getByRole('button', { name: 'Try Again' }).count()).toBe(1);
      expect(await photograph(page, 'profile-orders-failed')).toEqual([]);
    } finally {
      orderService.listOrders = listOrders;
      consoleError.mockRestore();
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await recent.getByRole('button', { name: 'Try Again' }).click();
    await expect.poll(() => recent.getByRole('link', { name: order.orderNumber }).count(), SETTLE).toBe(1);
    await page.context().close();
  });

  it('6. a category without a picture shows the default picture on its tile', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${ownUrl}/`);
    await hydrated(page);
    const tile = page
      .getByRole('link', { name: new RegExp(`^${bareCategory.name}\\b`) })
      .filter({ has: page.locator('img') });
    await expect.poll(() => tile.count(), SETTLE).toBeGreaterThan(0);
    const picture = tile.first().locator('img');
    expect(await picture.getAttribute('src')).toBe('/category-placeholder.svg');
    await picture.scrollIntoViewIfNeeded();
    await expect.poll(() => picture.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await page.close();
  });

  it('12. the return form: each quantity has a label and offers no 0; one line can be returned alone', async () => {
    const page = await signedInPage();
    await page.goto(`${ownUrl}/orders/${order.id}`);
    await hydrated(page);
    await page.getByText('Initiate Return', { exact: true }).click();
    const [first, second] = order.items;
    if (!first || !second) throw new Error('The order has two lines');
    const quantityOf = (item: Order['items'][number]) =>
      page.getByRole('combobox', { name: `Quantity of ${item.productName} to return` });
    for (const item of [first, second]) {
      const options = await quantityOf(item)
        .locator('option')
        .evaluateAll((all) => all.map((option) => (option as HTMLOptionElement).value));
      expect(options).toEqual(Array.from({ length: item.quantity }, (_, index) => String(index + 1)));
    }
    // The second line stays: untick it; return one of the first line's two.
    await page.getByRole('checkbox', { name: `Return ${second.productName}` }).uncheck();
    await quantityOf(first).selectOption('1');
    await page.getByRole('textbox', { name: 'Reason for the return' }).fill('One was enough.');
    expect(await photograph(page, 'return-form')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Request Return' }).click();
    await expect
      .poll(() => page.getByText('Return requested. We will e-mail you once we have looked at it.').count(), SETTLE)
      .toBe(1);
    const [request] = await shop.database.db
      .select({ items: returnRequests.items })
      .from(returnRequests)
      .where(and(eq(returnRequests.orderId, order.id)));
    expect(request?.items).toEqual([{ orderItemId: first.id, quantity: 1 }]);
    await page.context().close();
  });
});
