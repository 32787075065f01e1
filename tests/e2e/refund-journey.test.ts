import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Order } from '../../contracts/orders.ts';
import { baseUrl, hydrated, SETTLE } from './account-helpers.ts';
import { launchBrowser } from './browser.ts';
import {
  activeProducts,
  apiJson,
  auditBothWidths,
  money,
  pick,
  placeOrderViaApi,
  registerShopper,
  type Shopper,
  unitCents,
} from './shop-helpers.ts';

/*
 * Issue 22, "Refunds the shopper sees": a shopper returns one of two items, the shop approves it;
 * the order page says Partially refunded with the amount and date and offers the adjustment
 * note (a PDF with the note's fields); the status badge stays Succeeded. A cancelled order says
 * Refunded, has its note and no tax invoice link. The orders list shows both refunds. Screenshots
 * at 390 and 1280 px, axe clean.
 */

const admin = { email: inject('adminEmail'), password: inject('adminPassword') };

describe('a refund the shopper sees', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let shopper: Shopper;
  let returned: Order;
  let cancelled: Order;
  /** What the approved return refunded: one unit and its GST, in cents. */
  let refundCents = 0;

  beforeAll(async () => {
    browser = await launchBrowser();
    const catalogue = await activeProducts();
    const taken = new Set<number>();
    const saw = pick(catalogue, (product) => unitCents(product) < 40_00 && product.stockQuantity >= 10, taken);
    const blade = pick(catalogue, (product) => unitCents(product) < 20_00 && product.stockQuantity >= 10, taken);
    shopper = await registerShopper('refunds');
    const signedIn = await apiJson<{ token: string }>('/api/auth/login', { method: 'POST', body: admin });
    expect(signedIn.status).toBe(200);
    const adminToken = signedIn.body.token;

    // A delivered order; one of its two saws comes back and the shop approves the return.
    const order = await placeOrderViaApi(shopper, [
      { productId: saw.id, quantity: 2 },
      { productId: blade.id, quantity: 1 },
    ]);
    const moved = await apiJson(`/api/admin/orders/${order.id}/status`, {
      method: 'PUT',
      token: adminToken,
      body: { status: 'Succeeded' },
    });
    expect(moved.status).toBe(200);
    const sawLine = order.items.find((item) => item.productId === saw.id)!;
    const asked = await apiJson(`/api/orders/${order.id}/returns`, {
      method: 'POST',
      token: shopper.token,
      body: { reason: 'Only needed the one saw', items: [{ orderItemId: sawLine.id, quantity: 1 }] },
    });
    expect(asked.status).toBe(201);
    const queue = await apiJson<{ id: number; orderId: number }[]>('/api/admin/returns?status=Requested', {
      token: adminToken,
    });
    const request = queue.body.find((entry) => entry.orderId === order.id)!;
    const approved = await apiJson(`/api/admin/returns/${request.id}/approve`, { method: 'POST', token: adminToken });
    expect(approved.status).toBe(200);
    refundCents = unitCents(saw) + Math.round(unitCents(saw) * 0.1);

    // Another order, cancelled by the shopper before it left: refunded in full.
    cancelled = await placeOrderViaApi(shopper, [{ productId: blade.id, quantity: 1 }]);
    expect((await apiJson(`/api/orders/${cancelled.id}/cancel`, { method: 'PUT', token: shopper.token })).status).toBe(
      200,
    );
    returned = (await apiJson<Order>(`/api/orders/${order.id}`, { token: shopper.token })).body;

    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await context.addCookies([{ name: 'harbour_session', value: shopper.token, url: baseUrl }]);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the returned order says Partially refunded, how much and when, and offers its adjustment note; the badge stays Succeeded', async () => {
    expect(returned).toMatchObject({ paymentStatus: 'Partially refunded', refundedAmount: refundCents / 100 });
    await page.goto(`${baseUrl}/orders/${returned.id}`);
    await hydrated(page);
    expect(await page.getByTestId('order-status').first().textContent()).toBe('Succeeded');
    expect(await page.getByTestId('payment-status').textContent()).toContain('Partially refunded');
    const refunds = page.getByRole('region', { name: 'Refunds' });
    expect(await refunds.getByTestId('refund-payment-status').textContent()).toBe('Partially refunded');
    expect(await refunds.getByTestId('refund-amount').textContent()).toMatch(
      new RegExp(`^${money(refundCents).replace('$', '\\$')} refunded on \\d{1,2} \\w+ \\d{4}$`),
    );
    const [note] = returned.adjustmentNotes;
    expect(note).toBeDefined();
    const entry = refunds.getByTestId('adjustment-note');
    expect(await entry.count()).toBe(1);
    expect(await entry.textContent()).toContain(`Adjustment note ${note!.number}`);
    expect(await entry.textContent()).toContain('Goods returned: Only needed the one saw');

    const [download] = await Promise.all([
      page.waitForEvent('download', SETTLE),
      refunds.getByRole('link', { name: `Download adjustment note ${note!.number}` }).click(),
    ]);
    const bytes = readFileSync(await download.path());
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
    const flat = text.replace(/\s+/g, ' ');
    for (const field of [
      'Adjustment note',
      note!.number,
      'Harbour Tools',
      'ABN',
      `Original tax invoice ${returned.orderNumber}`,
      `Total refunded (incl. GST) ${money(refundCents)}`,
      'GST adjusted',
      'Only needed the one saw',
    ]) {
      expect(flat, field).toContain(field);
    }
    // The order still has its tax invoice (it was not cancelled).
    expect(await page.getByRole('link', { name: 'Download Invoice' }).count()).toBe(1);
    expect(await auditBothWidths(page, 'refund-order-partially-refunded')).toEqual([]);
  });

  it('the cancelled order says Refunded in full, has its note and no tax invoice link', async () => {
    await page.goto(`${baseUrl}/orders/${cancelled.id}`);
    await hydrated(page);
    expect(await page.getByTestId('order-status').first().textContent()).toBe('Cancelled');
    const refunds = page.getByRole('region', { name: 'Refunds' });
    expect(await refunds.getByTestId('refund-payment-status').textContent()).toBe('Refunded');
    expect(await refunds.getByTestId('refund-amount').textContent()).toContain(
      `${money(Math.round(cancelled.total * 100))} refunded on`,
    );
    expect(await refunds.getByTestId('adjustment-note').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Download Invoice' }).count()).toBe(0);
    // Its invoice's address, opened anyway, says there is none (409), in words.
    const invoice = await page.request.get(`${baseUrl}/orders/${cancelled.id}/invoice.pdf`);
    expect(invoice.status()).toBe(409);
    expect(await invoice.text()).toContain('no tax invoice');
    expect(await auditBothWidths(page, 'refund-order-cancelled')).toEqual([]);
  });

  it('the orders list shows each refund beside its order', async () => {
    await page.goto(`${baseUrl}/orders`);
    await hydrated(page);
    const row = (order: Order) =>
      page.getByTestId('order-row').filter({ has: page.getByRole('link', { name: `Order ${order.orderNumber}` }) });
    await expect.poll(() => row(returned).count(), SETTLE).toBe(1);
    expect(await row(returned).getByTestId('order-refund').textContent()).toContain(
      `Partially refunded · ${money(refundCents)} refunded on`,
    );
    expect(await row(returned).getByTestId('order-status').textContent()).toBe('Succeeded');
    expect(await row(cancelled).getByTestId('order-refund').textContent()).toContain('Refunded ·');
    // Each refund's adjustment note is one click from the list too (issue 22: "order list … and the note link").
    for (const order of [returned, cancelled]) {
      const links = row(order).getByRole('link', { name: /^Adjustment note AN-\d+/ });
      expect(await links.count()).toBe(1);
      expect(await links.getAttribute('href')).toMatch(
        new RegExp(`^/orders/${order.id}/adjustment-notes/AN-\\d+\\.pdf$`),
      );
    }
    expect(await auditBothWidths(page, 'refund-orders-list')).toEqual([]);
  });
});
