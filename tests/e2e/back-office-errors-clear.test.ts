import type { AddressInfo } from 'node:net';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatClosedDate, localDate, SHOP_TIME_ZONE } from '../../app/lib/opening-hours.ts';
import type { Product } from '../../contracts/catalog.ts';
import { FULFILMENT_MESSAGES } from '../../contracts/fulfilment.ts';
import type { Order } from '../../contracts/orders.ts';
import { SECOND_FACTOR_MESSAGES } from '../../contracts/second-factor.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';
import { baseUrl, hydrated, newUser, SETTLE, signIn } from './account-helpers.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';
import {
  activeProducts,
  auditBothWidths,
  placeOrderViaApi,
  registerShopper,
  storedItem,
  waitForStep,
  writeBrowserCart,
} from './shop-helpers.ts';

/*
 * Issue 27, item 10: in the back office a required-field error goes as the field is put right,
 * not at the next submit — the order page's Ship form (tracking number) and the two-step
 * sign-in code forms (turn on, new recovery codes, turn off), as the product form already does.
 * Nothing is posted while the errors clear; the form's banner goes with its last field error.
 *
 * Item 7: a shop started with its own SHOP_HOURS and SHOP_CLOSED_DATES shows that week and those
 * days on the store page, in the footer and at checkout's click & collect (a shop of its own:
 * the shared e2e server runs with the default hours).
 *
 * Screenshots (390 and 1280 px, axe at each): /tmp/order-shots/back-office-*.png, store-hours-*.png.
 */

const admin = { email: inject('adminEmail'), password: inject('adminPassword') };

const codeAt = (secret: string, offsetSeconds = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + offsetSeconds * 1000,
  });

/** The page's form posts (a React Router action is a POST to the page's .data URL), counted from now. */
function countPosts(page: Page): { count: () => number } {
  let posts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST') posts += 1;
  });
  return { count: () => posts };
}

describe('back-office errors clear as the field is corrected (issue 27 item 10)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let order: Order;
  /** The two-step set-up this file began, and the recovery codes once on: the afterAll leaves it off. */
  let secret = '';
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    const shopper = await registerShopper('officeerrors', undefined, 'Quenda', 'Bilby');
    const product = (await activeProducts()).find((candidate) => candidate.stockQuantity >= 5);
    if (!product) throw new Error('The catalogue has no stocked product');
    order = await placeOrderViaApi(shopper, [{ productId: product.id, quantity: 1 }]);
    expect(order.status).toBe('Processing');
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signIn(page, admin, { redirectTo: `/admin/orders/${order.id}` });
  });
  afterAll(async () => {
    // The staff account is shared with the other browser files: leave two-step sign-in off.
    if (context) {
      const status = await context.request.get(`${baseUrl}/api/users/second-factor`);
      const { enabled } = (await status.json()) as { enabled: boolean };
      if (!enabled && secret) {
        const on = await context.request.post(`${baseUrl}/api/users/second-factor`, {
          data: { code: codeAt(secret) },
        });
        if (on.status() === 201) recoveryCodes = ((await on.json()) as { recoveryCodes: string[] }).recoveryCodes;
      }
      if ((enabled || secret) && recoveryCodes.length > 0) {
        await context.request.delete(`${baseUrl}/api/users/second-factor`, { data: { code: recoveryCodes.at(-1) } });
      }
    }
    await browser?.close();
  });

  it('the Ship form: "Enter the tracking number" goes once a tracking number is typed, before Mark shipped', async () => {
    await page.goto(`${baseUrl}/admin/orders/${order.id}`);
    await hydrated(page);
    const tracking = page.getByRole('textbox', { name: 'Tracking number' });
    const error = page.locator('#ship-trackingNumber-error');
    const banner = page.getByRole('alert').filter({ hasText: 'Please check the shipment details' });

    await page.getByRole('button', { name: 'Mark shipped' }).click();
    await expect.poll(() => error.textContent(), SETTLE).toBe(FULFILMENT_MESSAGES.trackingNumber);
    expect(await tracking.getAttribute('aria-invalid')).toBe('true');
    expect(await tracking.getAttribute('aria-describedby')).toBe('ship-trackingNumber-error');
    expect(await banner.count()).toBe(1);
    expect(await auditBothWidths(page, 'back-office-ship-error')).toEqual([]);

    const posts = countPosts(page);
    // Still not a tracking number: the error stays (none is added or taken away for a wrong value)…
    await tracking.fill('A');
    await page.waitForTimeout(200);
    expect(await error.textContent()).toBe(FULFILMENT_MESSAGES.trackingNumber);
    // …a real one clears it at once, and the banner with it: nothing was posted.
    await tracking.fill('ab12 3456');
    await expect.poll(() => error.count(), SETTLE).toBe(0);
    expect(await tracking.getAttribute('aria-invalid')).toBeNull();
    expect(await tracking.getAttribute('aria-describedby')).toBeNull();
    expect(await banner.count()).toBe(0);
    expect(posts.count()).toBe(0);
    // Emptying it again does not bring the error back before the next submit (no nagging while typing).
    await tracking.fill('');
    await page.waitForTimeout(200);
    expect(await error.count()).toBe(0);
    await tracking.fill('ab12 3456');
    expect(await auditBothWidths(page, 'back-office-ship-corrected')).toEqual([]);

    // The next submit is judged afresh: the order ships with what was typed.
    await page.getByRole('button', { name: 'Mark shipped' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Marked shipped' }).count(), SETTLE).toBe(1);
    await expect.poll(() => page.getByTestId('fulfilment-record').textContent(), SETTLE).toContain('AB12 3456');
  });

  it('the two-step sign-in code forms: the code error goes once a code is typed, for turn on, new codes and turn off', async () => {
    await page.goto(`${baseUrl}/admin/security`);
    await hydrated(page);
    const section = page.getByRole('region', { name: 'Two-step sign-in' });
    if ((await section.textContent())?.includes('Every sign-in to this account asks for a code')) {
      throw new Error('Two-step sign-in is already on for the staff account: another file left it on');
    }
    // A set-up left half-done shows its QR code at once; otherwise begin one.
    if ((await page.getByRole('button', { name: 'Set up two-step sign-in' }).count()) > 0) {
      await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
    }
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor(SETTLE);
    secret = ((await page.locator('code').first().textContent()) ?? '').trim();

    /** Submits one code form empty, sees its error, types `code`: the error (and banner) goes, nothing posted. */
    async function emptyThenCorrected(intent: 'enable' | 'renew' | 'disable', button: string, code: string) {
      const field = page.locator(`#second-factor-${intent}-code`);
      const error = page.locator(`#second-factor-${intent}-code-error`);
      const banner = page.getByRole('alert').filter({ hasText: SECOND_FACTOR_MESSAGES.codeNeeded });
      await page.getByRole('button', { name: button, exact: true }).click();
      await expect.poll(() => error.textContent(), SETTLE).toBe(SECOND_FACTOR_MESSAGES.codeNeeded);
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await banner.count()).toBe(1);
      expect(await auditBothWidths(page, `back-office-security-${intent}-error`)).toEqual([]);
      const posts = countPosts(page);
      // Too short for a code: the error stays.
      await field.fill('12');
      await page.waitForTimeout(200);
      expect(await error.textContent()).toBe(SECOND_FACTOR_MESSAGES.codeNeeded);
      await field.fill(code);
      await expect.poll(() => error.count(), SETTLE).toBe(0);
      expect(await field.getAttribute('aria-invalid')).toBeNull();
      expect(await banner.count()).toBe(0);
      expect(posts.count()).toBe(0);
      expect(await auditBothWidths(page, `back-office-security-${intent}-corrected`)).toEqual([]);
    }

    await emptyThenCorrected('enable', 'Turn on', codeAt(secret));
    // The code typed while the error went is the one that turns it on.
    await page.locator('#second-factor-enable-code').fill(codeAt(secret));
    await page.getByRole('button', { name: 'Turn on', exact: true }).click();
    const codes = page.getByRole('region', { name: 'Your recovery codes' }).getByRole('listitem');
    await expect.poll(() => codes.count(), SETTLE).toBe(10);
    recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());

    await emptyThenCorrected('renew', 'Make new codes', recoveryCodes[0]!);
    // Only the form that was refused had an error; the other code form has none.
    expect(await page.locator('#second-factor-disable-code-error').count()).toBe(0);

    await emptyThenCorrected('disable', 'Turn off', recoveryCodes.at(-2)!);
    await page.getByRole('button', { name: 'Turn off', exact: true }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Two-step sign-in is off.' }).count(), SETTLE)
      .toBe(1);
    secret = '';
    recoveryCodes = [];
  });
});

describe('a shop started with its own SHOP_HOURS and SHOP_CLOSED_DATES (issue 27 item 7)', () => {
  const SHOP_HOURS = 'Mon-Thu 07:30-16:30; Fri 07:30-18:00; Sat 08:00-12:00; Sun closed';
  /** Today (the store shut, whatever the time), in two days and in forty, and yesterday's (past, not shown). */
  const day = (offset: number) => localDate(new Date(Date.now() + offset * 86_400_000), SHOP_TIME_ZONE);
  const closed = [day(0), day(2), day(40)];
  const SHOP_CLOSED_DATES = [day(-1), ...closed].join(', ');
  /** The store page's, checkout's and footer's week (the shop's own way of writing hours). */
  const WEEK = [
    ['Mon–Thu', '7:30–16:30'],
    ['Fri', '7:30–18:00'],
    ['Sat', '8:00–12:00'],
    ['Sun', 'Closed'],
  ];
  const closures = `Closed on ${closed.map(formatClosedDate).join('; ')} (public holidays).`;

  let shop: TestShop;
  let ownUrl = '';
  let browser: Browser;
  let context: BrowserContext;
  let errors: string[] = [];

  /** The week an OpeningHours block shows, as [label, hours] rows. */
  async function weekIn(scope: ReturnType<Page['locator']>): Promise<string[][]> {
    return scope
      .locator('dl > div')
      .evaluateAll((rows) =>
        rows.map((row) => [
          row.querySelector('dt abbr')?.textContent ?? row.querySelector('dt')?.textContent ?? '',
          row.querySelector('dd')?.textContent ?? '',
        ]),
      );
  }

  beforeAll(async () => {
    shop = await createTestShop('pglite', {
      products: 30,
      storefront: true,
      env: { SHOP_HOURS, SHOP_CLOSED_DATES, PAGE_CACHE_MB: '0' },
    });
    await shop.app.listen({ host: '127.0.0.1', port: 0 });
    ownUrl = `http://127.0.0.1:${(shop.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
  });

  async function open(path: string): Promise<Page> {
    const page = await context.newPage();
    errors = watchPageErrors(page);
    await page.goto(`${ownUrl}${path}`);
    await hydrated(page);
    return page;
  }

  it('the store page shows the configured week, that it is shut today and the closed days to come', async () => {
    const page = await open('/store-locations');
    const hours = page.getByRole('region', { name: 'Harbour Tools' });
    expect(await weekIn(hours)).toEqual(WEEK);
    // Today is a closed date: shut all day, whatever the hour and its weekday's hours.
    expect(await hours.getByText(/^Closed now · opens /).count()).toBe(1);
    expect(await hours.getByText(closures, { exact: true }).count()).toBe(1);
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    expect(description).toContain('Open Mon–Thu 7:30–16:30, Fri 7:30–18:00, Sat 8:00–12:00.');
    expect(await auditBothWidths(page, 'store-hours-store-page')).toEqual([]);
    expect(errors.filter((error) => !/Failed to load resource: .* 404 /.test(error))).toEqual([]);
    await page.close();
  });

  it('the footer shows the same week and closed days, on every page', async () => {
    const page = await open('/');
    const footer = page.locator('footer');
    const rows = await footer
      .locator('dl')
      .last()
      .locator('div')
      .evaluateAll((items) =>
        items.map((item) => [item.querySelector('dt')?.textContent, item.querySelector('dd')?.textContent]),
      );
    // The same way of writing hours as the store page and checkout (was "07:30–16:30" in the footer alone).
    expect(rows).toEqual(WEEK);
    expect(await footer.getByText(`Closed ${closed.map(formatClosedDate).join('; ')}`, { exact: true }).count()).toBe(
      1,
    );
    await page.close();
  });

  it("checkout's click & collect shows the same week and closed days", async () => {
    const listing = (await (await fetch(`${ownUrl}/api/products?limit=20&sort=price_asc`)).json()) as {
      items: Product[];
    };
    const product = listing.items.find((candidate) => candidate.stockQuantity >= 2);
    if (!product) throw new Error('This shop has no stocked product');
    // A cart put together signed out, then signing up: the first signed-in page brings it along.
    const page = await open('/');
    await writeBrowserCart(page, [storedItem(product, 1)]);
    const user = newUser('ownhours', 'Dunnart', 'Fat-tailed');
    const registered = await context.request.post(`${ownUrl}/api/auth/register`, {
      data: { ...user, address: { ...user.address, addressLine2: undefined } },
    });
    expect(registered.status()).toBe(201);
    await page.goto(`${ownUrl}/checkout`);
    await hydrated(page);
    await waitForStep(page, 'Shipping');
    await page.getByRole('radio', { name: /^Click & collect from / }).check();
    const store = page.getByRole('region', { name: /^Collect from / });
    await store.waitFor(SETTLE);
    expect(await weekIn(store)).toEqual(WEEK);
    expect(await store.getByText(/^Closed now · opens /).count()).toBe(1);
    expect(await store.getByText(closures, { exact: true }).count()).toBe(1);
    expect(await auditBothWidths(page, 'store-hours-checkout-collect')).toEqual([]);
    await page.close();
  });
});
