import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Product } from '../../contracts/catalog.ts';
import type { Order } from '../../contracts/orders.ts';
import { baseUrl, hydrated, SETTLE, signIn, type WatchedPage, waitForPath, watchedPage } from './account-helpers.ts';
import { launchBrowser } from './browser.ts';
import {
  APPROVE_CARD,
  activeProducts,
  addFromProductPage,
  auditBothWidths,
  fillCard,
  ordersOf,
  pick,
  placeOrderViaApi,
  registerShopper,
  type Shopper,
  waitForStep,
} from './shop-helpers.ts';

/*
 * Issue 22's journeys of fulfilment: a shopper checks out with click & collect (no address,
 * free, the contact phone and the store's hours on the page); the owner marks the order ready,
 * then collected, and the shopper's order page follows with its timeline; a delivery shipped
 * with a carrier and tracking number shows the carrier's tracking link. Screenshots of the
 * checkout, the admin order page and the order page at 390 and 1280 px into /tmp/order-shots/,
 * with no serious or critical axe finding.
 */

const admin = { email: inject('adminEmail'), password: inject('adminPassword') };

describe('click & collect and shipping with tracking, shopper and owner', () => {
  let browser: Browser;
  let shopperContext: BrowserContext;
  let adminContext: BrowserContext;
  let shopperWatched: WatchedPage;
  let adminWatched: WatchedPage;
  let page: Page;
  let adminPage: Page;
  let shopper: Shopper;
  let product: Product;
  let collectOrder: Order;

  beforeAll(async () => {
    browser = await launchBrowser();
    const catalogue = await activeProducts();
    product = pick(catalogue, (candidate) => candidate.stockQuantity >= 10 && candidate.price < 90, new Set());
    shopperContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    shopper = await registerShopper('collect', shopperContext, 'Numbat', 'Bandicoot');
    shopperWatched = await watchedPage(shopperContext);
    page = shopperWatched.page;
    adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    adminWatched = await watchedPage(adminContext);
    adminPage = adminWatched.page;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a shopper checks out with click & collect: no address, free, their phone and the store’s hours', async () => {
    await addFromProductPage(page, product, 1);
    await page.goto(`${baseUrl}/checkout`);
    await hydrated(page);
    await waitForStep(page, 'Shipping');
    expect(await page.getByRole('radio', { name: /^Deliver to an address/ }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: /^Click & collect from Silverwater \(free\)/ }).check();
    await expect
      .poll(() => page.getByTestId('collect-address').textContent(), SETTLE)
      .toBe('14 Boundary Lane, Silverwater NSW 2128');
    expect(await page.locator('#checkout-address').count()).toBe(0);
    expect(await page.locator('#checkout-state').count()).toBe(0);
    expect(await page.locator('main').getByText('Mon–Fri', { exact: true }).count()).toBeGreaterThan(0);
    expect(await page.locator('#checkout-contactPhone').inputValue()).toBe(shopper.user.phoneNumber);
    expect(await page.getByTestId('checkout-shipping').first().textContent()).toBe('Free');
    expect(await auditBothWidths(page, 'collect-checkout-shipping')).toEqual([]);

    await page.locator('#checkout-contactPhone').fill('0400 123 456');
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await waitForStep(page, 'Payment');
    if ((await page.locator('#checkout-cardNumber').count()) === 0) await page.getByLabel('A new card').check();
    await fillCard(page, { number: APPROVE_CARD, name: 'Numbat Bandicoot' });
    await page.getByRole('button', { name: 'Review Order' }).click();
    await waitForStep(page, 'Confirmation');
    await expect.poll(() => page.getByRole('button', { name: 'Place Order' }).isEnabled(), SETTLE).toBe(true);
    expect(await page.getByRole('heading', { name: 'Click & collect', exact: true }).count()).toBe(1);
    expect(await page.getByText('We call 0400 123 456 if needed', { exact: true }).count()).toBe(1);
    expect(await page.getByTestId('checkout-shipping').first().textContent()).toBe('Free');
    expect(await auditBothWidths(page, 'collect-checkout-confirm')).toEqual([]);

    await page.getByRole('button', { name: 'Place Order' }).click();
    await waitForStep(page, 'Complete');
    const number = await page.getByTestId('order-number').textContent();
    const [latest] = await ordersOf(page);
    expect(latest).toMatchObject({
      orderNumber: number,
      fulfilment: 'collect',
      contactPhone: '0400 123 456',
      shippingAddress: null,
      shippingCost: 0,
    });
    collectOrder = latest!;
  });

  it('the owner marks it ready to collect, then collected; the shopper’s page follows', async () => {
    await signIn(adminPage, admin, { redirectTo: `/admin/orders/${collectOrder.id}` });
    await hydrated(adminPage);
    expect(await adminPage.getByRole('button', { name: 'Mark fulfilled (Succeeded)' }).count()).toBe(0);
    expect(await adminPage.getByText('Contact phone:').textContent()).toContain('0400 123 456');
    await adminPage.getByRole('button', { name: 'Mark ready to collect' }).click();
    await expect
      .poll(() => adminPage.getByRole('status').filter({ hasText: 'Marked ready' }).textContent(), SETTLE)
      .toBe('Marked ready to collect. The customer has been e-mailed.');
    await expect.poll(() => adminPage.getByTestId('fulfilment-ready').count(), SETTLE).toBe(1);
    expect(await adminPage.getByTestId('order-status').first().textContent()).toBe('Processing');
    expect(await auditBothWidths(adminPage, 'admin-order-ready-to-collect')).toEqual([]);

    await page.goto(`${baseUrl}/orders/${collectOrder.id}`);
    await hydrated(page);
    const collectFrom = page.getByTestId('collect-from');
    expect(await collectFrom.textContent()).toContain('14 Boundary Lane');
    expect(await collectFrom.textContent()).toContain(
      `Bring your order number (${collectOrder.orderNumber}) and photo ID. Your order is ready.`,
    );
    const timeline = page.getByTestId('order-timeline');
    expect(await timeline.getByRole('listitem').allTextContents()).toEqual([
      // Each step: its mark (✓ done), its name, its date or "Not yet".
      expect.stringMatching(/^✓Placed\d/),
      expect.stringMatching(/^✓Paid\d/),
      expect.stringMatching(/^✓Ready to collect\d/),
      'CollectedNot yet',
    ]);
    expect(await auditBothWidths(page, 'order-ready-to-collect')).toEqual([]);

    await adminPage.getByRole('button', { name: 'Mark collected' }).click();
    await expect
      .poll(() => adminPage.getByRole('status').filter({ hasText: 'Marked collected' }).textContent(), SETTLE)
      .toBe('Marked collected: the order is complete.');
    await expect.poll(() => adminPage.getByTestId('order-status').first().textContent(), SETTLE).toBe('Succeeded');

    await page.reload();
    await hydrated(page);
    expect(await page.getByTestId('order-status').textContent()).toBe('Succeeded');
    expect(await timeline.getByRole('listitem').last().textContent()).toMatch(/^✓Collected\d/);
    expect(await auditBothWidths(page, 'order-collected')).toEqual([]);
    expect(shopperWatched.errors).toEqual([]);
    expect(adminWatched.errors).toEqual([]);
  });

  it('a delivery shipped with a carrier and tracking number shows the carrier’s tracking link', async () => {
    const order = await placeOrderViaApi(shopper, [{ productId: product.id, quantity: 1 }]);
    await adminPage.goto(`${baseUrl}/admin/orders/${order.id}`);
    await hydrated(adminPage);
    expect(await auditBothWidths(adminPage, 'admin-order-delivery')).toEqual([]);
    await adminPage.getByRole('button', { name: 'Mark shipped' }).click();
    await expect
      .poll(() => adminPage.locator('#ship-trackingNumber-error').textContent(), SETTLE)
      .toBe('Enter the tracking number');
    // That refusal was the page's 400 answer, as meant; nothing else may go wrong.
    expect(adminWatched.errors).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
    adminWatched.errors.length = 0;
    await adminPage.locator('#ship-carrier').selectOption('startrack');
    await adminPage.locator('#ship-trackingNumber').fill('st1234 5678');
    await adminPage.getByRole('button', { name: 'Mark shipped' }).click();
    await expect
      .poll(() => adminPage.getByRole('status').filter({ hasText: 'Marked shipped' }).count(), SETTLE)
      .toBe(1);
    await expect
      .poll(() => adminPage.getByTestId('fulfilment-record').textContent(), SETTLE)
      .toContain('with StarTrack · tracking ST1234 5678');
    expect(await auditBothWidths(adminPage, 'admin-order-shipped')).toEqual([]);

    await page.goto(`${baseUrl}/orders/${order.id}`);
    await hydrated(page);
    const link = page.getByRole('link', { name: /^Track parcel ST1234 5678/ });
    expect(await link.getAttribute('href')).toBe('https://startrack.com.au/track/details/ST1234%205678');
    expect(await page.getByTestId('order-tracking').textContent()).toContain('StarTrack');
    expect(await page.getByText('Courier contact phone: 0412 345 678', { exact: true }).count()).toBe(1);
    expect(await auditBothWidths(page, 'order-shipped')).toEqual([]);
    await waitForPath(page, `/orders/${order.id}`);
    expect(shopperWatched.errors).toEqual([]);
    expect(adminWatched.errors).toEqual([]);
  });
});
