import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../contracts/orders.ts';
import { priceOrder } from '../../contracts/pricing.ts';
import { baseUrl, hydrated, pathOf, SETTLE, waitForPath } from './account-helpers.ts';
import { launchBrowser } from './browser.ts';
import {
  activeProducts,
  apiJson,
  money,
  pick,
  placeOrderViaApi,
  registerShopper,
  type Shopper,
  shippingText,
  unitCents,
} from './shop-helpers.ts';

/*
 * /orders (spec §2): status filter and sort, both in the URL; 'No orders found' with Try Again
 * for an empty filter; /profile's three most recent orders; and another shopper's order (or a
 * missing or malformed id) is 'Order Not Found' on the page and on its invoice.
 */

/** A context signed in as `shopper` through the session cookie (no sign-in attempt used). */
async function signedInContext(browser: Browser, shopper: Shopper): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: 'harbour_session', value: shopper.token, url: baseUrl }]);
  return context;
}

/** The order numbers /orders lists, top to bottom. */
async function listedNumbers(page: Page): Promise<string[]> {
  // Each row's order link (a refunded row also links its adjustment note).
  const links = await page
    .getByTestId('order-row')
    .getByRole('link', { name: /^Order / })
    .allTextContents();
  return links.map((text) => text.replace(/^Order /, ''));
}

describe('order history', () => {
  let browser: Browser;
  let owner: Shopper;
  let stranger: Shopper;
  /** Oldest first: a small order (paid shipping), a large one (cancelled), a middling one, two small ones. */
  const placed: Order[] = [];
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    const catalogue = await activeProducts();
    const taken = new Set<number>();
    const cheap = pick(catalogue, (product) => unitCents(product) < 30_00 && product.stockQuantity >= 20, taken);
    const pricey = pick(catalogue, (product) => unitCents(product) >= 150_00 && product.stockQuantity >= 10, taken);
    const middling = pick(
      catalogue,
      (product) => unitCents(product) >= 50_00 && unitCents(product) < 90_00 && product.stockQuantity >= 10,
      taken,
    );
    owner = await registerShopper('history');
    stranger = await registerShopper('stranger');
    for (const lines of [
      [{ productId: cheap.id, quantity: 1 }],
      [{ productId: pricey.id, quantity: 1 }],
      [{ productId: middling.id, quantity: 1 }],
      [{ productId: cheap.id, quantity: 2 }],
    ]) {
      placed.push(await placeOrderViaApi(owner, lines));
      // Distinct placing times, so newest and oldest are unambiguous.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const cancelled = await apiJson<Order>(`/api/orders/${placed[1]!.id}/cancel`, {
      method: 'PUT',
      token: owner.token,
    });
    expect(cancelled.status).toBe(200);
    context = await signedInContext(browser, owner);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const numbers = (orders: Order[]) => orders.map((order) => order.orderNumber);
  const newestFirst = () => numbers([...placed].reverse());

  it('lists every order, newest first, with its status and total', async () => {
    await page.goto(`${baseUrl}/orders`);
    await hydrated(page);
    expect(await listedNumbers(page)).toEqual(newestFirst());
    expect(await page.getByTestId('order-row').getByTestId('order-status').allTextContents()).toEqual([
      'Processing',
      'Processing',
      'Cancelled',
      'Processing',
    ]);
    expect(await page.getByTestId('order-total').allTextContents()).toEqual(
      [...placed].reverse().map((order) => money(Math.round(order.total * 100))),
    );
    expect(await page.locator('#orders-status').inputValue()).toBe('all');
    expect(await page.locator('#orders-sort').inputValue()).toBe('newest');
  });

  it('the status filter goes into the URL and survives a reload', async () => {
    await page.locator('#orders-status').selectOption('cancelled');
    await waitForPath(page, '/orders?status=cancelled&sort=newest');
    await expect.poll(() => listedNumbers(page), SETTLE).toEqual([placed[1]!.orderNumber]);
    await page.reload();
    await hydrated(page);
    expect(await listedNumbers(page)).toEqual([placed[1]!.orderNumber]);
    expect(await page.locator('#orders-status').inputValue()).toBe('cancelled');

    await page.locator('#orders-status').selectOption('processing');
    await waitForPath(page, '/orders?status=processing&sort=newest');
    await expect.poll(() => listedNumbers(page), SETTLE).toEqual(numbers([placed[3]!, placed[2]!, placed[0]!]));
  });

  it('the sort goes into the URL: oldest, total high to low, total low to high', async () => {
    await page.locator('#orders-status').selectOption('all');
    await waitForPath(page, '/orders?status=all&sort=newest');
    const byTotal = [...placed].sort((a, b) => b.total - a.total || b.id - a.id);

    await page.locator('#orders-sort').selectOption('total_desc');
    await waitForPath(page, '/orders?status=all&sort=total_desc');
    await expect.poll(() => listedNumbers(page), SETTLE).toEqual(numbers(byTotal));

    await page.locator('#orders-sort').selectOption('total_asc');
    await waitForPath(page, '/orders?status=all&sort=total_asc');
    const ascending = [...placed].sort((a, b) => a.total - b.total || b.id - a.id);
    await expect.poll(() => listedNumbers(page), SETTLE).toEqual(numbers(ascending));

    // Straight from a link: the page reads both from the URL.
    await page.goto(`${baseUrl}/orders?sort=oldest&status=processing`);
    await hydrated(page);
    expect(await listedNumbers(page)).toEqual(numbers([placed[0]!, placed[2]!, placed[3]!]));
    expect(await page.locator('#orders-sort').inputValue()).toBe('oldest');
    expect(await page.locator('#orders-status').inputValue()).toBe('processing');
  });

  it('a filter with no orders says No orders found, and Try Again shows them all', async () => {
    await page.goto(`${baseUrl}/orders?status=succeeded`);
    await hydrated(page);
    expect(await page.getByText('No orders found', { exact: true }).count()).toBe(1);
    expect(await page.getByText('You have no succeeded orders.').count()).toBe(1);
    expect(await page.getByTestId('order-row').count()).toBe(0);
    await page.getByRole('link', { name: 'Try Again' }).click();
    await waitForPath(page, '/orders');
    await expect.poll(() => listedNumbers(page), SETTLE).toEqual(newestFirst());
  });

  it('/profile shows the three most recent orders', async () => {
    await page.goto(`${baseUrl}/profile`);
    await hydrated(page);
    const recent = page.getByRole('region', { name: 'Recent orders' });
    const links = await recent.getByRole('link').allTextContents();
    expect(links.filter((text) => /^HT-\d+$/.test(text))).toEqual(newestFirst().slice(0, 3));
    expect(await recent.getByRole('link', { name: 'All orders' }).count()).toBe(1);
  });

  it('a small order’s page shows the $10.00 shipping of the one pricing rule', async () => {
    const small = placed[0]!;
    await page.goto(`${baseUrl}/orders/${small.id}`);
    await hydrated(page);
    const totals = priceOrder(
      small.items.map((item) => ({ unitPriceCents: Math.round(item.unitPrice * 100), quantity: item.quantity })),
    );
    expect(totals.shippingCents).toBe(10_00);
    expect({
      subtotal: await page.getByTestId('order-subtotal').textContent(),
      gst: await page.getByTestId('order-gst').textContent(),
      shipping: await page.getByTestId('order-shipping').textContent(),
      total: await page.getByTestId('order-grand-total').textContent(),
    }).toEqual({
      subtotal: money(totals.subtotalCents),
      gst: money(totals.gstCents),
      shipping: shippingText(totals.shippingCents),
      total: money(totals.totalCents),
    });
    // A cancelled order cannot be cancelled again.
    await page.goto(`${baseUrl}/orders/${placed[1]!.id}`);
    await hydrated(page);
    expect(await page.getByTestId('order-status').textContent()).toBe('Cancelled');
    expect(await page.getByRole('button', { name: 'Cancel Order' }).count()).toBe(0);
  });

  it('another shopper’s order, a missing and a malformed id are Order Not Found, and so are their invoices', async () => {
    const strangerContext = await signedInContext(browser, stranger);
    const strangerPage = await strangerContext.newPage();
    const target = placed[0]!;
    for (const path of [`/orders/${target.id}`, '/orders/999999', '/orders/abc']) {
      const response = await strangerPage.goto(`${baseUrl}${path}`);
      expect(response?.status(), path).toBe(404);
      await hydrated(strangerPage);
      expect(await strangerPage.getByRole('heading', { level: 1 }).textContent(), path).toBe('Order Not Found');
      expect(await strangerPage.getByRole('alert').textContent(), path).toBe('The requested order could not be found');
      expect(await strangerPage.content(), path).not.toContain(target.orderNumber);
      expect(pathOf(strangerPage)).toBe(path);
    }
    await strangerPage.getByRole('link', { name: 'Back to My Orders' }).click();
    await waitForPath(strangerPage, '/orders');
    await expect.poll(() => strangerPage.getByText('No orders found', { exact: true }).count(), SETTLE).toBe(1);
    expect(await strangerPage.getByText('You have not placed any orders yet.').count()).toBe(1);

    const invoice = await strangerPage.request.get(`${baseUrl}/orders/${target.id}/invoice.pdf`);
    expect(invoice.status()).toBe(404);
    expect(invoice.headers()['content-type']).not.toContain('application/pdf');
    // Its owner gets the PDF.
    const own = await page.request.get(`${baseUrl}/orders/${target.id}/invoice.pdf`);
    expect(own.status()).toBe(200);
    expect(own.headers()['content-type']).toBe('application/pdf');
    await strangerContext.close();
  });
});
