import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../contracts/catalog.ts';
import { centsToDollars } from '../../contracts/money.ts';
import type { Order } from '../../contracts/orders.ts';
import { displayPrice, priceCart } from '../../contracts/pricing.ts';
import { baseUrl, hydrated, SETTLE, type WatchedPage, waitForPath, watchedPage } from './account-helpers.ts';
import { launchBrowser } from './browser.ts';
import {
  APPROVE_CARD,
  activeProducts,
  apiJson,
  auditBothWidths,
  browserCartQuantities,
  cartQuantity,
  cartRow,
  expectCartTotals,
  fillCard,
  findInactiveProduct,
  headerCartCount,
  lineNotice,
  money,
  pick,
  placeOrderViaApi,
  registerShopper,
  type Shopper,
  stockOf,
  storedItem,
  unitCents,
  waitForStep,
  writeBrowserCart,
} from './shop-helpers.ts';

/*
 * The cart says what changed since an item was added (issue 9: 'Price changed from $X to $Y',
 * 'Only N left', 'No longer available') rather than hiding it, and checkout will not place an
 * order it cannot fill. The changes are made the way they happen to a shopper: an old price
 * and an old quantity in the browser's cart, a product another order bought out, a product
 * taken off sale.
 */

describe('the cart page’s change notices', () => {
  let browser: Browser;
  let shopper: Shopper;
  /** Its price in the browser's cart is $5 above today's. */
  let repriced: Product;
  /** 3–5 in stock; the cart holds more. */
  let short: Product;
  /** Bought out by an order before the page opens. */
  let soldOut: Product;
  /** Taken off sale (isActive false) in the demo catalogue. */
  let offSale: Product;
  let buyout: Order | undefined;
  const oldPriceCents = () => unitCents(repriced) + 500;
  /** The notice quotes both prices GST-inclusive, as the line's headline (issue 22). */
  const priceNotice = () =>
    `Price changed from ${money(displayPrice(oldPriceCents()).incGstCents)} to ${money(displayPrice(unitCents(repriced)).incGstCents)} (inc GST)`;

  beforeAll(async () => {
    browser = await launchBrowser();
    const catalogue = await activeProducts();
    const taken = new Set<number>();
    repriced = pick(catalogue, (product) => product.stockQuantity >= 20 && product.price >= 10, taken);
    short = pick(catalogue, (product) => product.stockQuantity >= 3 && product.stockQuantity <= 5, taken);
    soldOut = pick(catalogue, (product) => product.stockQuantity >= 1 && product.stockQuantity <= 4, taken);
    const inactive = await findInactiveProduct();
    if (!inactive) throw new Error('The demo catalogue has no product taken off sale');
    offSale = inactive;
    shopper = await registerShopper('notices');
    // Another purchase takes every unit of one product.
    buyout = await placeOrderViaApi(shopper, [{ productId: soldOut.id, quantity: soldOut.stockQuantity }]);
    expect(await stockOf(soldOut.id)).toBe(0);
  });
  afterAll(async () => {
    await browser?.close();
    // The e2e files share one shop: put the bought-out stock back.
    if (buyout) await apiJson(`/api/orders/${buyout.id}/cancel`, { method: 'PUT', token: shopper.token });
  });

  describe('signed out', () => {
    let context: BrowserContext;
    let watched: WatchedPage;
    let page: Page;

    beforeAll(async () => {
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      watched = await watchedPage(context);
      page = watched.page;
    });
    afterAll(async () => {
      await context?.close();
    });

    it('names each change, counts only what can be bought, at today’s prices', async () => {
      await page.goto(`${baseUrl}/cart`);
      await hydrated(page);
      await expect.poll(() => page.getByText('Your Cart is Empty').count(), SETTLE).toBe(1);
      await writeBrowserCart(page, [
        storedItem(repriced, 2, { price: centsToDollars(oldPriceCents()) }),
        storedItem(short, short.stockQuantity + 3, { maxQuantity: short.stockQuantity + 3 }),
        storedItem(soldOut, 1, { maxQuantity: soldOut.stockQuantity }),
        storedItem(offSale, 1, { maxQuantity: Math.max(1, offSale.stockQuantity) }),
      ]);
      await page.reload();
      await hydrated(page);

      await expect.poll(() => lineNotice(page, repriced.name), SETTLE).toBe(priceNotice());
      expect(await lineNotice(page, short.name)).toBe(`Only ${short.stockQuantity} left`);
      expect(await lineNotice(page, soldOut.name)).toBe('No longer available');
      expect(await lineNotice(page, offSale.name)).toBe('No longer available');

      // The cart keeps what the shopper asked for, and says how much of it can be had.
      expect(await cartQuantity(page, short.name)).toBe(String(short.stockQuantity + 3));
      expect(await page.getByRole('button', { name: `One more ${short.name}`, exact: true }).isDisabled()).toBe(true);
      const cells = async (product: Product) =>
        (await cartRow(page, product.name).getByRole('cell').allTextContents()).join(' ');
      expect(await cells(repriced)).toContain(money(unitCents(repriced) * 2));
      // The old price appears in the notice only; the line is priced at today's.
      const notice = priceNotice();
      expect((await cells(repriced)).replace(notice, '')).not.toContain(money(oldPriceCents()));
      expect((await cells(repriced)).replace(notice, '')).not.toContain(
        money(displayPrice(oldPriceCents()).incGstCents),
      );
      expect(await cells(short)).toContain(money(unitCents(short) * short.stockQuantity));
      expect(await cells(soldOut)).toContain('$0.00');
      expect(await cells(offSale)).toContain('$0.00');
      await expectCartTotals(
        page,
        priceCart([
          { unitPriceCents: unitCents(repriced), quantity: 2 },
          { unitPriceCents: unitCents(short), quantity: short.stockQuantity },
        ]),
      );
      const summary = page.getByRole('complementary', { name: 'Order Summary' });
      expect(await summary.textContent()).toContain(`Subtotal (${2 + short.stockQuantity} items)`);
      expect(await page.getByRole('link', { name: 'Proceed to Checkout' }).count()).toBe(1);

      expect(await auditBothWidths(page, 'cart-notices')).toEqual([]);
    });

    it('down to the stock, the notice goes; the unavailable lines can be removed; the price notice stays', async () => {
      for (let step = 0; step < 3; step++) {
        const before = Number(await cartQuantity(page, short.name));
        await page.getByRole('button', { name: `One fewer ${short.name}`, exact: true }).click();
        await expect.poll(() => cartQuantity(page, short.name), SETTLE).toBe(String(before - 1));
      }
      await expect.poll(() => lineNotice(page, short.name), SETTLE).toBeNull();
      expect(await page.getByRole('button', { name: `One more ${short.name}`, exact: true }).isDisabled()).toBe(true);

      for (const product of [soldOut, offSale]) {
        // The × at the end of the line (the stepper's minus at 1 has the same name and does the same).
        await page
          .getByRole('button', { name: `Remove ${product.name}`, exact: true })
          .last()
          .click();
        await expect.poll(() => cartRow(page, product.name).count(), SETTLE).toBe(0);
      }
      expect(await lineNotice(page, repriced.name)).toBe(priceNotice());
      expect(await browserCartQuantities(page)).toEqual({ [repriced.id]: 2, [short.id]: short.stockQuantity });
      await expectCartTotals(
        page,
        priceCart([
          { unitPriceCents: unitCents(repriced), quantity: 2 },
          { unitPriceCents: unitCents(short), quantity: short.stockQuantity },
        ]),
      );
    });

    it('Clear Cart empties it: Your Cart is Empty, and Continue Shopping leads to the products', async () => {
      await page.getByRole('button', { name: 'Clear Cart' }).click();
      await expect.poll(() => page.getByText('Your Cart is Empty').count(), SETTLE).toBe(1);
      expect(await headerCartCount(page)).toBe('0');
      expect(await browserCartQuantities(page)).toEqual({});
      expect(await page.getByTestId('cart-subtotal').count()).toBe(0);
      await page.getByRole('main').getByRole('link', { name: 'Continue Shopping' }).click();
      await waitForPath(page, '/products');
    });

    it('left no Content-Security-Policy violation and no page error', () => {
      expect(watched.csp).toEqual([]);
      expect(watched.errors).toEqual([]);
    });
  });

  describe('signed in', () => {
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addCookies([{ name: 'harbour_session', value: shopper.token, url: baseUrl }]);
      page = await context.newPage();
    });
    afterAll(async () => {
      await context?.close();
    });

    it('a saved cart above the stock says Only N left, rendered by the server, and checkout will not place it', async () => {
      // The first page after signing in brings this browser's cart in step with the account.
      await page.goto(`${baseUrl}/`);
      await hydrated(page);
      await expect
        .poll(() => page.evaluate(() => window.localStorage.getItem('harbour-tools.cart.owner')), SETTLE)
        .not.toBeNull();
      // Saved on another device when there was more stock.
      const saved = await page.request.put(`${baseUrl}/api/cart`, {
        data: {
          items: [
            { productId: short.id, quantity: short.stockQuantity + 2 },
            { productId: repriced.id, quantity: 1 },
          ],
        },
      });
      expect(saved.status()).toBe(200);
      const html = await (await page.request.get(`${baseUrl}/cart`, { headers: { accept: 'text/html' } })).text();
      expect(html).toContain(`Only ${short.stockQuantity} left`);

      await page.goto(`${baseUrl}/cart`);
      await hydrated(page);
      await expect.poll(() => lineNotice(page, short.name), SETTLE).toBe(`Only ${short.stockQuantity} left`);
      expect(await cartQuantity(page, short.name)).toBe(String(short.stockQuantity + 2));

      await page.getByRole('link', { name: 'Proceed to Checkout' }).click();
      await waitForPath(page, '/checkout');
      await hydrated(page);
      await waitForStep(page, 'Shipping');
      await page.getByRole('button', { name: 'Continue to Payment' }).click();
      await waitForStep(page, 'Payment');
      await fillCard(page, { number: APPROVE_CARD, name: `${shopper.user.firstName} ${shopper.user.lastName}` });
      await page.getByRole('button', { name: 'Review Order' }).click();
      await waitForStep(page, 'Confirmation');
      const step = page.getByRole('region', { name: 'Confirmation' });
      await expect
        .poll(() => step.getByRole('alert').textContent(), SETTLE)
        .toContain(`Some items changed: ${short.name}: Only ${short.stockQuantity} left.`);
      expect(await page.getByRole('button', { name: 'Place Order' }).isDisabled()).toBe(true);

      // Fixed in the cart, the order can be placed.
      await step.getByRole('link', { name: 'Update your cart' }).click();
      await waitForPath(page, '/cart');
      // A change never leaves more than the stock: one fewer from above it is the stock.
      await page.getByRole('button', { name: `One fewer ${short.name}`, exact: true }).click();
      await expect.poll(() => cartQuantity(page, short.name), SETTLE).toBe(String(short.stockQuantity));
      await expect.poll(() => lineNotice(page, short.name), SETTLE).toBeNull();
      await page.getByRole('link', { name: 'Proceed to Checkout' }).click();
      await waitForPath(page, '/checkout');
      await page.getByRole('button', { name: 'Continue to Payment' }).click();
      await waitForStep(page, 'Payment');
      await fillCard(page, { number: APPROVE_CARD, name: `${shopper.user.firstName} ${shopper.user.lastName}` });
      await page.getByRole('button', { name: 'Review Order' }).click();
      await waitForStep(page, 'Confirmation');
      await expect.poll(() => page.getByRole('button', { name: 'Place Order' }).isEnabled(), SETTLE).toBe(true);
      expect(await page.getByRole('region', { name: 'Confirmation' }).getByRole('alert').count()).toBe(0);
    });
  });
});
