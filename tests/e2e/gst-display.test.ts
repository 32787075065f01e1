import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../contracts/catalog.ts';
import { dollarsToCents } from '../../contracts/money.ts';
import { displayPrice, FREE_SHIPPING_THRESHOLD_CENTS, freeDeliveryShortfallCents } from '../../contracts/pricing.ts';
import { baseUrl, hydrated, SETTLE } from './account-helpers.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';
import {
  APPROVE_CARD,
  activeProducts,
  addFromProductPage,
  auditBothWidths,
  CARD_EXPIRY,
  cartRow,
  money,
  pick,
  productById,
  registerShopper,
  unitCents,
} from './shop-helpers.ts';

/*
 * Issue 22 "GST-inclusive display": a shopper reads every product price with GST included
 * ("$97.90 inc GST") and the ex-GST price beside it in smaller type, on a card, the product
 * page and the cart; the cart says how much more (before GST) makes delivery free, except to
 * a Premium member, who ships free anyway. Screenshots: /tmp/order-shots/gst-*-{390,1280}.png.
 */

/** "$97.90" for a price the API gives ex GST (in cents). */
function incGst(exGstCents: number): string {
  return money(displayPrice(exGstCents).incGstCents);
}

/** The computed font size of the first element matching `text` inside `scope`, in px. */
async function fontSize(scope: Locator, text: string): Promise<number> {
  const element = scope.getByText(text, { exact: true }).first();
  return Number.parseFloat(await element.evaluate((node) => getComputedStyle(node).fontSize));
}

async function freshPage(browser: Browser, width = 1280): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  return { page, errors: watchPageErrors(page) };
}

describe('GST-inclusive prices (issue 22)', () => {
  let browser: Browser;
  /** Not on sale, in stock, no options, under the free-delivery threshold: the cart shows the hint. */
  let plain: Product;
  /** On sale: Was and Save are read GST-inclusive. */
  let onSale: Product;

  beforeAll(async () => {
    browser = await launchBrowser();
    const products = await activeProducts();
    const taken = new Set<number>();
    const cheap = (product: Product) =>
      product.stockQuantity >= 10 && unitCents(product) >= 20_00 && unitCents(product) <= 60_00;
    plain = pick(products, (product) => cheap(product) && product.discountPrice === null, taken);
    onSale = pick(
      products,
      (product) => product.stockQuantity > 0 && product.discountPrice !== null && product.discountPrice < product.price,
      taken,
    );
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows a card’s price inc GST with the ex-GST price beside it, smaller', async () => {
    await firstCardShowsGst('/products', 'gst-card');
  });

  it('the redemption page’s cards read the same: inc GST headline, ex GST beside it', async () => {
    await firstCardShowsGst('/redemption', 'gst-redemption-card');
  });

  /** The first product card on `path` headlines its price inc GST, the ex-GST price beside it in smaller type. */
  async function firstCardShowsGst(path: string, shot: string) {
    const { page, errors } = await freshPage(browser);
    await page.goto(`${baseUrl}${path}`);
    await hydrated(page);
    const card = page.locator('article').first();
    const href = await card.getByRole('link').last().getAttribute('href');
    const id = Number(/\/product\/(\d+)$/.exec(href ?? '')?.[1]);
    expect(id, `a product link on the first card (${href})`).toBeGreaterThan(0);
    const product = await productById(id);
    const shown = unitCents(product);

    const text = (await card.textContent()) ?? '';
    expect(text).toContain(`${incGst(shown)}`);
    expect(text).toContain('inc GST');
    expect(text).toContain(`${money(shown)} ex GST`);
    expect(await fontSize(card, incGst(shown))).toBeGreaterThan(await fontSize(card, `${money(shown)} ex GST`));
    if (product.discountPrice !== null) expect(text).toContain(`Was ${incGst(dollarsToCents(product.price))}`);

    expect(await auditBothWidths(page, shot)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  }

  it('headlines the product page inc GST, with Was and Save inc GST too, and no "added at checkout"', async () => {
    const { page, errors } = await freshPage(browser);
    await page.goto(`${baseUrl}/product/${onSale.id}`);
    await hydrated(page);
    const price = page.getByTestId('product-price');
    const now = unitCents(onSale);
    const was = dollarsToCents(onSale.price);
    expect(await price.textContent()).toBe(`Now ${incGst(now)} inc GST${money(now)} ex GST`);
    expect(await fontSize(price, incGst(now))).toBeGreaterThan(await fontSize(price, `${money(now)} ex GST`));
    const body = (await page.locator('main').textContent()) ?? '';
    expect(body).toContain(`Was ${incGst(was)}`);
    expect(body).toContain(`Save ${money(displayPrice(was).incGstCents - displayPrice(now).incGstCents)}`);
    expect(body).not.toMatch(/excluding GST|added at checkout/);
    expect(body).toContain(`On orders over ${money(FREE_SHIPPING_THRESHOLD_CENTS).replace('.00', '')} before GST`);

    expect(await auditBothWidths(page, 'gst-product')).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('prices cart lines as the ruling says and tells a shopper how much more makes delivery free', async () => {
    const { page, errors } = await freshPage(browser);
    await addFromProductPage(page, plain);
    const productPrice = await page.getByTestId('product-price').textContent();
    expect(productPrice).toBe(`${incGst(unitCents(plain))} inc GST${money(unitCents(plain))} ex GST`);

    await page.goto(`${baseUrl}/cart`);
    await hydrated(page);
    const row = cartRow(page, plain.name);
    await expect.poll(() => row.count(), SETTLE).toBe(1);
    const headers = await page.getByRole('region', { name: 'Cart items' }).getByRole('columnheader').allTextContents();
    expect(headers).toContain('Price (inc GST)');
    expect(headers).toContain('Total (ex GST)');
    const cells = (await row.getByRole('cell').allTextContents()).join(' ');
    expect(cells).toContain(`${incGst(unitCents(plain))} inc GST`);
    expect(cells).toContain(`${money(unitCents(plain))} ex GST`);

    const hint = page.getByTestId('free-delivery-hint');
    const shortfall = freeDeliveryShortfallCents(unitCents(plain));
    expect(shortfall).toBeGreaterThan(0);
    await expect
      .poll(() => hint.textContent(), SETTLE)
      .toBe(`Add ${money(shortfall)} more (before GST) for free delivery`);
    expect(await auditBothWidths(page, 'gst-cart')).toEqual([]);

    // Over $100 before GST, delivery is free: the hint goes.
    const needed = Math.floor(FREE_SHIPPING_THRESHOLD_CENTS / unitCents(plain)) + 1;
    for (let quantity = 1; quantity < needed; quantity++) {
      await page.getByRole('button', { name: `One more ${plain.name}`, exact: true }).click();
      await expect
        .poll(() => page.getByRole('status', { name: `Quantity of ${plain.name}`, exact: true }).textContent(), SETTLE)
        .toBe(String(quantity + 1));
    }
    await expect.poll(() => hint.count(), SETTLE).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows a Premium member no free-delivery hint: they ship free at any subtotal', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const shopper = await registerShopper('gst-premium', context);
    const joined = await context.request.post(`${baseUrl}/api/membership`, {
      data: {
        plan: 'premium',
        password: shopper.user.password,
        cardData: { Number: APPROVE_CARD, Name: 'Premium Member', Expiry: CARD_EXPIRY, Cvc: '123' },
      },
    });
    expect(joined.status(), await joined.text()).toBe(201);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await addFromProductPage(page, plain);
    await page.goto(`${baseUrl}/cart`);
    await hydrated(page);
    await expect.poll(() => cartRow(page, plain.name).count(), SETTLE).toBe(1);
    await expect.poll(() => page.getByTestId('cart-subtotal').textContent(), SETTLE).toBe(money(unitCents(plain)));
    expect(await page.getByTestId('free-delivery-hint').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('explains delivery on /shipping-info: $100 before GST, Premium members and click & collect free', async () => {
    const { page, errors } = await freshPage(browser);
    await page.goto(`${baseUrl}/shipping-info`);
    await hydrated(page);
    const body = ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
    const threshold = money(FREE_SHIPPING_THRESHOLD_CENTS).replace('.00', '');
    expect(body).toContain(`on orders over ${threshold} before GST`);
    expect(body).toContain('Premium members');
    expect(body).toContain('ship free at any subtotal');
    expect(body).toContain('Click & collect');
    expect(body).toContain('includes GST of $0.91');
    expect(body).not.toMatch(/exclude GST|added at checkout/);
    expect(await auditBothWidths(page, 'gst-shipping-info')).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
