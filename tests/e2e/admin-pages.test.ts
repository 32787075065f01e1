import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Product } from '../../contracts/catalog.ts';
import type { Order } from '../../contracts/orders.ts';
import {
  baseUrl,
  hydrated,
  pathOf,
  SETTLE,
  submitLogin,
  type WatchedPage,
  waitForPath,
  watchedPage,
} from './account-helpers.ts';
import { seriousAxeViolations } from './axe.ts';
import { launchBrowser } from './browser.ts';
import { activeProducts, apiJson, placeOrderViaApi, registerShopper, type Shopper } from './shop-helpers.ts';

/*
 * The back office's pages (issue 10): who may open them, and how they look and read for the
 * one who may. A signed-out visitor is sent to sign in (and back), a customer gets the plain
 * 'Not allowed' page with a 403, and for the admin every page has no serious or critical axe
 * finding, no Content-Security-Policy violation and no page error, at a phone's 390 px and a
 * desktop's 1280 px, where it is photographed into /tmp/admin-shots/ for a person to look at.
 */

const admin = { email: inject('adminEmail'), password: inject('adminPassword') };
const SHOTS_DIR = '/tmp/admin-shots';
const WIDTHS = [390, 1280] as const;

interface AdminPage {
  name: string;
  path: string;
  heading: string;
}

describe('the back office’s pages', () => {
  let browser: Browser;
  let customer: Shopper;
  let customerContext: BrowserContext;
  let adminContext: BrowserContext;
  let adminWatched: WatchedPage;
  let adminPage: Page;
  let product: Product;
  let order: Order;
  let picturesDir: string;
  let pages: AdminPage[];

  /** Every admin page (the ones with an id are filled in once the order exists). */
  const pathsToGuard = () => pages.map((entry) => entry.path);

  beforeAll(async () => {
    browser = await launchBrowser();
    picturesDir = mkdtempSync(join(tmpdir(), 'harbour-admin-pages-'));
    mkdirSync(SHOTS_DIR, { recursive: true });
    customerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    customer = await registerShopper('adminpages', customerContext, 'Numbat', 'Quenda');
    const catalogue = await activeProducts();
    const found = catalogue.find((candidate) => candidate.stockQuantity >= 10 && candidate.imageUrl);
    if (!found) throw new Error('The catalogue has no product this file needs');
    product = found;
    order = await placeOrderViaApi(customer, [{ productId: product.id, quantity: 2 }]);
    pages = [
      { name: 'upload', path: '/upload', heading: 'Create Product' },
      { name: 'dashboard', path: '/admin', heading: 'Dashboard' },
      { name: 'products', path: '/admin/products', heading: 'Products' },
      { name: 'product-edit', path: `/admin/products/${product.id}`, heading: `Edit ${product.name}` },
      { name: 'orders', path: '/admin/orders', heading: 'Orders' },
      { name: 'order', path: `/admin/orders/${order.id}`, heading: `Order ${order.orderNumber}` },
      { name: 'returns', path: '/admin/returns', heading: 'Returns' },
      { name: 'messages', path: '/admin/messages', heading: 'Messages' },
      { name: 'security', path: '/admin/security', heading: 'Sign-in security' },
    ];
    adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    adminWatched = await watchedPage(adminContext);
    adminPage = adminWatched.page;
  });
  afterAll(async () => {
    await browser?.close();
    if (picturesDir) rmSync(picturesDir, { recursive: true, force: true });
  });

  it('sends a signed-out visitor of every admin page to sign in, without rendering it', async () => {
    for (const path of [...pathsToGuard(), '/admin/orders?status=Processing', '/admin/products/new']) {
      const response = await fetch(`${baseUrl}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location'), path).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
      expect(await response.text(), path).not.toContain('Back office');
    }
  });

  it('after signing in from there, the admin is back on the page asked for, query and all', async () => {
    const path = '/admin/orders?status=Processing';
    await adminPage.goto(`${baseUrl}${path}`);
    await waitForPath(adminPage, `/login?redirectTo=${encodeURIComponent(path)}`);
    expect(await adminPage.getByRole('heading', { level: 1 }).textContent()).toBe('Login');
    await submitLogin(adminPage, admin.email, admin.password);
    await waitForPath(adminPage, path);
    await expect.poll(() => adminPage.getByRole('heading', { level: 1 }).textContent(), SETTLE).toBe('Orders');
    await hydrated(adminPage);
    expect(await adminPage.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('Processing');
    // The customer's order is paid (Processing), so it is listed.
    expect(await adminPage.getByRole('link', { name: order.orderNumber, exact: true }).count()).toBe(1);
  });

  it('shows a customer the plain ‘Not allowed’ page with a 403 on every admin page, and nothing of the back office', async () => {
    const page = await customerContext.newPage();
    for (const path of pathsToGuard()) {
      const response = await page.goto(`${baseUrl}${path}`);
      expect(response?.status(), path).toBe(403);
      expect(pathOf(page), path).toBe(path);
      await hydrated(page);
      expect(await page.getByRole('heading', { level: 1 }).textContent(), path).toBe('Not allowed');
      expect(await page.getByRole('alert').filter({ hasText: 'staff only' }).textContent(), path).toBe(
        'This page is for the shop’s staff only. If you work here, sign in with your staff account.',
      );
      expect(await page.getByRole('link', { name: 'Back to the shop' }).getAttribute('href'), path).toBe('/');
      expect(await page.getByRole('navigation', { name: 'Back office' }).count(), path).toBe(0);
      // Nothing the page would have shown: not the customer's own order in the admin's view, no form.
      expect(await page.locator('main form').count(), path).toBe(0);
      expect(await page.title(), path).toBe('Not allowed | Harbour Tools');
    }
    await page.close();
  });

  it('the order is fulfilled and the customer asks to return one item, so the queue and the order page have a decision to make', async () => {
    const moved = await adminContext.request.put(`${baseUrl}/api/admin/orders/${order.id}/status`, {
      data: { status: 'Succeeded' },
    });
    expect(moved.status()).toBe(200);
    const returned = await apiJson<Order>(`/api/orders/${order.id}/returns`, {
      method: 'POST',
      token: customer.token,
      body: { reason: 'The case arrived cracked', items: [{ orderItemId: order.items[0]!.id, quantity: 1 }] },
    });
    expect(returned.status).toBe(201);
    expect(returned.body.returnStatus).toBe('Requested');
  });

  /** Full-page screenshots at both widths; at each, axe has nothing serious and nothing spills sideways. */
  async function checkAtBothWidths(page: Page, name: string): Promise<void> {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await page.waitForTimeout(150);
      await page.screenshot({ path: join(SHOTS_DIR, `${name}-${width}.png`), fullPage: true });
      expect(await seriousAxeViolations(page), `axe on ${name} at ${width} px`).toEqual([]);
      // Wide tables scroll inside their own box; the page itself never scrolls sideways.
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${name} at ${width} px is wider than the screen`,
      ).toBeLessThanOrEqual(width);
    }
  }

  it.each(['upload', 'dashboard', 'products', 'product-edit', 'orders', 'order', 'returns', 'messages', 'security'])(
    '%s: no serious axe finding, no CSP violation, no page error, at 390 and 1280 px',
    async (name) => {
      const entry = pages.find((candidate) => candidate.name === name)!;
      adminWatched.csp.length = 0;
      adminWatched.errors.length = 0;
      await adminPage.setViewportSize({ width: 1280, height: 900 });
      const response = await adminPage.goto(`${baseUrl}${entry.path}`);
      expect(response?.status()).toBe(200);
      await hydrated(adminPage);
      expect(await adminPage.getByRole('heading', { level: 1 }).textContent()).toBe(entry.heading);
      expect(await adminPage.title()).toBe(`${entry.heading} | Admin | Harbour Tools`);
      const nav = adminPage.getByRole('navigation', { name: 'Back office' });
      expect(await nav.getByRole('link').allTextContents()).toEqual([
        'Dashboard',
        'Products',
        'Orders',
        'Returns',
        'Messages',
        'Security',
      ]);
      // Let pictures and late scripts load, so a violation they cause is counted.
      await adminPage.waitForLoadState('networkidle');
      await checkAtBothWidths(adminPage, entry.name);
      expect(adminWatched.csp, `CSP violations on ${entry.path}`).toEqual([]);
      expect(adminWatched.errors, `page errors on ${entry.path}`).toEqual([]);
    },
  );

  it('the edit page names each picture’s buttons by the picture, and marks the main one', async () => {
    const { status, body } = await apiJson<{ images: { isPrimary: boolean }[] }>(`/api/products/full/${product.id}`);
    expect(status).toBe(200);
    expect(body.images.length).toBeGreaterThan(1);
    await adminPage.goto(`${baseUrl}/admin/products/${product.id}`);
    await hydrated(adminPage);
    const pictures = adminPage.getByRole('region', { name: 'Pictures' });
    expect(await pictures.getByRole('img').count()).toBe(body.images.length);
    // Accessible names, as a screen reader hears them: one per picture, none shared.
    const named = async (pattern: RegExp) => {
      const buttons = pictures.getByRole('button', { name: pattern });
      const names: string[] = [];
      for (let index = 0; index < (await buttons.count()); index++) {
        names.push(await buttons.nth(index).evaluate((button) => button.getAttribute('aria-label') ?? ''));
        expect(await pictures.getByRole('button', { name: names.at(-1), exact: true }).count()).toBe(1);
      }
      return names;
    };
    expect(await named(/^Delete/)).toEqual(body.images.map((_, index) => `Delete picture ${index + 1}`));
    expect(await named(/^Make main/)).toEqual(
      body.images.flatMap((image, index) => (image.isPrimary ? [] : [`Make main: picture ${index + 1}`])),
    );
    expect(await pictures.getByText('Main picture', { exact: true }).count()).toBe(1);
  });

  it('the order page and the returns queue offer the decision: approve, or reject with a reason', async () => {
    await adminPage.goto(`${baseUrl}/admin/returns?status=Requested`);
    await hydrated(adminPage);
    const entry = adminPage
      .getByRole('listitem')
      .filter({ has: adminPage.getByRole('link', { name: order.orderNumber, exact: true }) });
    expect(await entry.count()).toBe(1);
    expect(await entry.getByRole('button', { name: 'Approve return' }).count()).toBe(1);
    expect(await entry.getByRole('textbox', { name: 'Reason to reject' }).count()).toBe(1);
    expect(await entry.getByRole('button', { name: 'Reject' }).count()).toBe(1);
    await adminPage.goto(`${baseUrl}/admin/orders/${order.id}`);
    await hydrated(adminPage);
    const returns = adminPage.getByRole('heading', { name: 'Returns', exact: true }).locator('xpath=..');
    expect(await returns.textContent()).toContain('“The case arrived cracked”');
    expect(await returns.getByRole('button', { name: 'Approve return' }).count()).toBe(1);
    // Fulfilled: no moves are left.
    expect(await adminPage.getByText('No further moves for a Succeeded order.').count()).toBe(1);
  });

  it('/upload with two pictures, a variant row and every required-field message showing: still clean at both widths', async () => {
    adminWatched.csp.length = 0;
    adminWatched.errors.length = 0;
    await adminPage.setViewportSize({ width: 1280, height: 900 });
    await adminPage.goto(`${baseUrl}/upload`);
    await hydrated(adminPage);
    const form = adminPage
      .locator('main form')
      .filter({ has: adminPage.getByRole('group', { name: 'Basic Information' }) });
    const jpeg = join(picturesDir, 'front.jpg');
    const png = join(picturesDir, 'side.png');
    await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 230, g: 160, b: 20 } } })
      .jpeg()
      .toFile(jpeg);
    await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 30, g: 120, b: 60 } } })
      .png()
      .toFile(png);
    await form.getByLabel(/^Pictures \(JPEG, PNG, WebP or AVIF/).setInputFiles([jpeg, png]);
    await expect.poll(() => form.getByText('2 pictures chosen', { exact: true }).count(), SETTLE).toBe(1);
    await form.getByRole('button', { name: 'Add Variant' }).click();
    await form.getByRole('textbox', { name: 'Specifications (JSON)', exact: true }).fill('{"Voltage": ');
    await form.getByRole('button', { name: 'Create Product' }).click();
    await expect
      .poll(async () => (await form.getByRole('alert').textContent())?.trim(), SETTLE)
      .toBe('Please check the highlighted fields.');
    const invalid = form.locator('[aria-invalid="true"]');
    // Name, SKU, description, brand, category, subcategory, specifications, price, variant name and SKU.
    expect(await invalid.count()).toBeGreaterThanOrEqual(10);
    for (const message of [
      'Product name is required',
      'SKU is required',
      'Description is required',
      'Brand is required',
      'Category is required',
      'Price is required',
      'Specifications must be valid JSON, e.g. {"Voltage": "18 V"}',
      'Variant name is required',
      'Variant SKU is required',
    ]) {
      expect(await form.getByText(message, { exact: true }).count(), message).toBe(1);
    }
    // Each message is tied to its field, so a screen reader reads it with the field (the variant's too).
    const describedBy = (name: string) =>
      form
        .getByRole('textbox', { name, exact: true })
        .evaluate((input) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent);
    expect(await describedBy('Variant 1 name')).toBe('Variant name is required');
    expect(await describedBy('Variant 1 SKU')).toBe('Variant SKU is required');
    expect(await form.getByRole('button', { name: 'Remove variant 1', exact: true }).count()).toBe(1);
    expect(
      await form
        .getByRole('textbox', { name: 'Product name', exact: true })
        .evaluate((input) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent),
    ).toBe('Product name is required');
    await adminPage.waitForLoadState('networkidle');
    await checkAtBothWidths(adminPage, 'upload-errors');
    expect(adminWatched.csp, 'CSP violations on /upload with errors').toEqual([]);
    expect(adminWatched.errors, 'page errors on /upload with errors').toEqual([]);
  });
});
