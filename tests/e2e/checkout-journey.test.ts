import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../contracts/catalog.ts';
import type { Order } from '../../contracts/orders.ts';
import { displayPrice, priceCart, priceOrder } from '../../contracts/pricing.ts';
import {
  baseUrl,
  hydrated,
  pathOf,
  SETTLE,
  signIn,
  type WatchedPage,
  waitForPath,
  watchedPage,
} from './account-helpers.ts';
import { launchBrowser } from './browser.ts';
import {
  APPROVE_CARD,
  activeProducts,
  addFromProductPage,
  apiJson,
  browserCartQuantities,
  cartQuantity,
  cartRow,
  checkoutStepHeading,
  checkoutTotals,
  DECLINE_CARD,
  DECLINE_TEXT,
  expectCartTotals,
  fieldError,
  fillCard,
  headerCartCount,
  money,
  ordersOf,
  pick,
  registerShopper,
  SHIPPING_FIELDS,
  type Shopper,
  setShippingField,
  shippingText,
  stockOf,
  unitCents,
  waitForStep,
} from './shop-helpers.ts';

/*
 * Journey of issue 9's acceptance: a signed-out cart → sign in → the cart merged into the
 * account's → checkout with every validation text → a declined card → an approved one →
 * Complete → the order in the history → its invoice PDF → reorder → cancel, stock back.
 * One shopper, one browser context; each step starts where the one before ended.
 */

describe('a shopper’s cart, checkout and order, start to finish', () => {
  let browser: Browser;
  let context: BrowserContext;
  let watched: WatchedPage;
  let page: Page;
  let shopper: Shopper;
  /** Discounted, plenty of stock: bought twice signed out, and once already in the account's cart. */
  let onSale: Product;
  /** Plenty of stock: added from a product card. */
  let fromCard: Product;
  /** 3–5 in stock: the stepper's upper bound, then removed with minus at 1. */
  let scarce: Product;
  /** Plenty of stock: only in the account's saved cart. */
  let savedOnly: Product;
  /** 2–5 in stock: all of it already in the account's cart, one more added signed out. */
  let capped: Product;
  /** Product id → quantity the order should hold. */
  let ordered: Map<Product, number>;
  const stockBeforeOrder = new Map<number, number>();
  let checkoutFigures: Awaited<ReturnType<typeof checkoutTotals>>;
  let order: Order;

  const custom = {
    fullName: 'Matilda Q. Quokka',
    email: '',
    address: '7 Banksia Road',
    city: 'Katoomba',
    state: 'NSW',
    postalCode: '2780',
  };

  /** What the cart page should show for these lines at today's prices. */
  const cartTotals = (lines: [Product, number][]) =>
    priceCart(lines.map(([product, quantity]) => ({ unitPriceCents: unitCents(product), quantity })));

  beforeAll(async () => {
    browser = await launchBrowser();
    const catalogue = await activeProducts();
    const taken = new Set<number>();
    const plenty = (product: Product) => product.stockQuantity >= 20 && product.price >= 15;
    onSale = pick(catalogue, (product) => plenty(product) && product.discountPrice !== null, taken);
    fromCard = pick(catalogue, plenty, taken);
    savedOnly = pick(catalogue, plenty, taken);
    scarce = pick(catalogue, (product) => product.stockQuantity >= 3 && product.stockQuantity <= 5, taken);
    capped = pick(catalogue, (product) => product.stockQuantity >= 2 && product.stockQuantity <= 5, taken);
    shopper = await registerShopper('journey', undefined, 'Matilda', 'Quokka');
    custom.email = shopper.user.email;
    // The account already has a cart (saved on another device): one of the products bought below,
    // one only it has, and all the stock of a scarce one.
    const saved = await apiJson<{ items: unknown[] }>('/api/cart', {
      method: 'PUT',
      token: shopper.token,
      body: {
        items: [
          { productId: onSale.id, quantity: 1 },
          { productId: savedOnly.id, quantity: 1 },
          { productId: capped.id, quantity: capped.stockQuantity },
        ],
      },
    });
    expect(saved.status).toBe(200);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    watched = await watchedPage(context);
    page = watched.page;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a signed-out shopper fills the cart from a product card and product pages; /cart prices it by the one rule', async () => {
    // A product card (search results): one unit per click.
    await page.goto(`${baseUrl}/search?term=${encodeURIComponent(fromCard.name)}`);
    await hydrated(page);
    const card = page.locator('article').filter({ has: page.getByRole('link', { name: fromCard.name, exact: true }) });
    await card.getByRole('button', { name: 'Add to Cart' }).click();
    await expect.poll(() => headerCartCount(page), SETTLE).toBe('1');
    await addFromProductPage(page, onSale, 2);
    await addFromProductPage(page, scarce, 1);
    await addFromProductPage(page, capped, 1);
    expect(await headerCartCount(page)).toBe('5');

    await page.locator('header').getByRole('link', { name: 'Cart, 5 items' }).click();
    await waitForPath(page, '/cart');
    await hydrated(page);
    const columns = await page.getByRole('columnheader').allTextContents();
    // The ruling "Money": the unit price inc GST, the line total ex GST, each column saying which.
    expect(columns.map((text) => text.trim())).toEqual([
      'Product',
      'Price (inc GST)',
      'Quantity',
      'Total (ex GST)',
      'Remove',
    ]);
    const lines: [Product, number][] = [
      [fromCard, 1],
      [onSale, 2],
      [scarce, 1],
      [capped, 1],
    ];
    for (const [product, quantity] of lines) {
      const row = cartRow(page, product.name);
      await expect.poll(() => row.count(), SETTLE).toBe(1);
      expect(await cartQuantity(page, product.name)).toBe(String(quantity));
      const cells = await row.getByRole('cell').allTextContents();
      expect(cells.join(' ')).toContain(`${money(displayPrice(unitCents(product)).incGstCents)} inc GST`);
      expect(cells.join(' ')).toContain(`${money(unitCents(product))} ex GST`);
      expect(cells.join(' ')).toContain(money(unitCents(product) * quantity));
    }
    // The sale price is charged and the regular one (GST-inclusive, as the headline) struck through beside it.
    expect(await cartRow(page, onSale.name).locator('s').textContent()).toBe(
      `Was ${money(displayPrice(unitCents({ ...onSale, discountPrice: null })).incGstCents)}`,
    );
    await expectCartTotals(page, cartTotals(lines));
    const summary = page.getByRole('complementary', { name: 'Order Summary' });
    expect(await summary.textContent()).toContain('Calculated at checkout');
    expect(await summary.textContent()).toContain('Subtotal (5 items)');
    expect(await page.getByTestId('cart-line-problem').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Proceed to Checkout' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Continue Shopping' }).count()).toBeGreaterThan(0);
  });

  it('the stepper goes up only to the stock, down one at a time, and minus at 1 removes the line', async () => {
    await page.getByRole('button', { name: `One more ${onSale.name}`, exact: true }).click();
    await expect.poll(() => cartQuantity(page, onSale.name), SETTLE).toBe('3');
    await page.getByRole('button', { name: `One fewer ${onSale.name}`, exact: true }).click();
    await expect.poll(() => cartQuantity(page, onSale.name), SETTLE).toBe('2');

    const more = page.getByRole('button', { name: `One more ${scarce.name}`, exact: true });
    for (let quantity = 2; quantity <= scarce.stockQuantity; quantity++) {
      await more.click();
      await expect.poll(() => cartQuantity(page, scarce.name), SETTLE).toBe(String(quantity));
    }
    expect(await more.isDisabled()).toBe(true);
    await more.click({ force: true });
    expect(await cartQuantity(page, scarce.name)).toBe(String(scarce.stockQuantity));
    await expectCartTotals(
      page,
      cartTotals([
        [fromCard, 1],
        [onSale, 2],
        [scarce, scarce.stockQuantity],
        [capped, 1],
      ]),
    );

    for (let quantity = scarce.stockQuantity - 1; quantity >= 1; quantity--) {
      await page.getByRole('button', { name: `One fewer ${scarce.name}`, exact: true }).click();
      await expect.poll(() => cartQuantity(page, scarce.name), SETTLE).toBe(String(quantity));
    }
    // At 1 the stepper's minus is named for what it does (the × beside the line has the same name).
    const removeButtons = page.getByRole('button', { name: `Remove ${scarce.name}`, exact: true });
    expect(await removeButtons.count()).toBe(2);
    const minus = removeButtons.first();
    expect((await minus.textContent())?.trim()).toBe('−');
    await minus.click();
    await expect.poll(() => cartRow(page, scarce.name).count(), SETTLE).toBe(0);
    await expect.poll(() => headerCartCount(page), SETTLE).toBe('4');
    expect(await browserCartQuantities(page)).toEqual({ [fromCard.id]: 1, [onSale.id]: 2, [capped.id]: 1 });
    await expectCartTotals(
      page,
      cartTotals([
        [fromCard, 1],
        [onSale, 2],
        [capped, 1],
      ]),
    );
  });

  it('signing in from the cart merges it into the account’s saved cart: quantities added, bounded by stock', async () => {
    await signIn(page, shopper.user, { redirectTo: '/cart' });
    const merged: [Product, number][] = [
      [onSale, 3],
      [fromCard, 1],
      [savedOnly, 1],
      [capped, capped.stockQuantity],
    ];
    for (const [product, quantity] of merged) {
      await expect.poll(() => cartQuantity(page, product.name), SETTLE).toBe(String(quantity));
    }
    expect(await cartRow(page, scarce.name).count()).toBe(0);
    const totalQuantity = 5 + capped.stockQuantity;
    await expect.poll(() => headerCartCount(page), SETTLE).toBe(String(totalQuantity));
    await expectCartTotals(page, cartTotals(merged));
    // At the stock already: no more of the capped product, and no notice (nothing is short).
    expect(await page.getByRole('button', { name: `One more ${capped.name}`, exact: true }).isDisabled()).toBe(true);
    expect(await page.getByTestId('cart-line-problem').count()).toBe(0);
    // The account holds the merged cart too (another device would see it).
    await expect
      .poll(async () => {
        const response = await page.request.get(`${baseUrl}/api/cart`);
        const { items } = (await response.json()) as { items: { productId: number; quantity: number }[] };
        return Object.fromEntries(items.map((item) => [item.productId, item.quantity]));
      }, SETTLE)
      .toEqual(Object.fromEntries(merged.map(([product, quantity]) => [product.id, quantity])));
    ordered = new Map(merged);
  });

  it('checkout’s shipping step shows every text of spec §5 and keeps going once the form is right', async () => {
    await page.getByRole('link', { name: 'Proceed to Checkout' }).click();
    await waitForPath(page, '/checkout');
    await hydrated(page);
    await waitForStep(page, 'Shipping');
    // Filled from the account: its name, e-mail and default address.
    expect(await page.locator('#checkout-fullName').inputValue()).toBe('Matilda Quokka');
    expect(await page.locator('#checkout-email').inputValue()).toBe(shopper.user.email);
    expect(await page.locator('#checkout-address').inputValue()).toBe(shopper.user.address.addressLine1);
    expect(await page.locator('#checkout-country').inputValue()).toBe('Australia');
    const expected = priceOrder(
      [...ordered].map(([product, quantity]) => ({ unitPriceCents: unitCents(product), quantity })),
    );
    expect(await checkoutTotals(page)).toEqual({
      subtotal: money(expected.subtotalCents),
      gst: money(expected.gstCents),
      shipping: shippingText(expected.shippingCents),
      total: money(expected.totalCents),
    });

    for (const field of SHIPPING_FIELDS) await setShippingField(page, field, '');
    const next = page.getByRole('button', { name: 'Continue to Payment' });
    await next.click();
    await expect.poll(() => fieldError(page, 'fullName'), SETTLE).toBe('Full name is required');
    expect(await fieldError(page, 'email')).toBe('Email is required');
    expect(await fieldError(page, 'address')).toBe('Address is required');
    expect(await fieldError(page, 'city')).toBe('City is required');
    expect(await fieldError(page, 'state')).toBe('State is required');
    expect(await fieldError(page, 'postalCode')).toBe('Postal code is required');
    for (const field of SHIPPING_FIELDS) {
      expect(await page.locator(`#checkout-${field}`).getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator(`#checkout-${field}`).getAttribute('aria-describedby')).toBe(`checkout-${field}-error`);
    }
    expect(await checkoutStepHeading(page)).toBe('Shipping');

    await page.locator('#checkout-email').fill('x');
    await next.click();
    await expect.poll(() => fieldError(page, 'email'), SETTLE).toBe('Email is invalid');
    expect(await fieldError(page, 'city')).toBe('City is required');

    for (const field of SHIPPING_FIELDS) await setShippingField(page, field, custom[field]);
    await next.click();
    await waitForStep(page, 'Payment');
    for (const field of SHIPPING_FIELDS) expect(await fieldError(page, field)).toBeNull();
  });

  it('the payment step shows the four card texts and holds the number, expiry and CVV to 19, 5 and 3 characters', async () => {
    const review = page.getByRole('button', { name: 'Review Order' });
    await review.click();
    await expect.poll(() => fieldError(page, 'cardNumber'), SETTLE).toBe('Please enter a valid 16-digit card number');
    expect(await fieldError(page, 'cardName')).toBe('Please enter the name on your card');
    expect(await fieldError(page, 'expiryDate')).toBe('Please enter a valid expiry date (MM/YY)');
    expect(await fieldError(page, 'cvv')).toBe('Please enter a valid 3-digit CVV');
    expect(await checkoutStepHeading(page)).toBe('Payment');

    expect(await page.locator('#checkout-cardNumber').getAttribute('maxlength')).toBe('19');
    expect(await page.locator('#checkout-expiryDate').getAttribute('maxlength')).toBe('5');
    expect(await page.locator('#checkout-cvv').getAttribute('maxlength')).toBe('3');
    // Typed past the limit, the browser keeps only what fits.
    await page.locator('#checkout-cardNumber').pressSequentially('4242 4242 4242 4242 4242');
    expect(await page.locator('#checkout-cardNumber').inputValue()).toBe('4242 4242 4242 4242');
    await page.locator('#checkout-expiryDate').pressSequentially('12/3456');
    expect(await page.locator('#checkout-expiryDate').inputValue()).toBe('12/34');
    await page.locator('#checkout-cvv').pressSequentially('12345');
    expect(await page.locator('#checkout-cvv').inputValue()).toBe('123');
    // A number that fails the check digit is not a card number.
    await page.locator('#checkout-cardNumber').fill('4242 4242 4242 4241');
    await page.locator('#checkout-cardName').fill('Matilda Quokka');
    await review.click();
    await expect.poll(() => fieldError(page, 'cardName'), SETTLE).toBeNull();
    expect(await fieldError(page, 'cardNumber')).toBe('Please enter a valid 16-digit card number');
    expect(await checkoutStepHeading(page)).toBe('Payment');
  });

  it('a declined card says so and takes nothing; Back keeps both forms; the approved card on a double click places one order', async () => {
    for (const [product] of ordered) stockBeforeOrder.set(product.id, await stockOf(product.id));
    await fillCard(page, { number: DECLINE_CARD, name: 'Matilda Quokka' });
    // The server's quote is held back: until it comes, the step lists the cart's own lines
    // (not an empty table) and Place Order waits for it.
    let releaseQuote!: () => void;
    const quoteHeld = new Promise<void>((resolve) => {
      releaseQuote = resolve;
    });
    await page.route('**/api/cart/quote', async (route) => {
      await quoteHeld;
      await route.continue();
    });
    const step = page.getByRole('region', { name: 'Confirmation' });
    // Released and unrouted whatever happens, so a failed check does not stall the steps after it.
    try {
      await page.getByRole('button', { name: 'Review Order' }).click();
      await waitForStep(page, 'Confirmation');
      const itemRows = step.getByRole('table', { name: 'Items in this order' }).locator('tbody tr');
      await expect.poll(() => itemRows.count(), SETTLE).toBe(ordered.size);
      for (const [product, quantity] of ordered) {
        const row = itemRows.filter({ hasText: product.name });
        expect(await row.count(), product.name).toBe(1);
        expect(await row.locator('td').nth(1).textContent(), product.name).toBe(String(quantity));
      }
      expect(await step.getByRole('button', { name: 'Place Order' }).isDisabled()).toBe(true);
    } finally {
      releaseQuote();
    }
    await expect.poll(() => step.getByRole('button', { name: 'Place Order' }).isEnabled(), SETTLE).toBe(true);
    await page.unroute('**/api/cart/quote');
    expect(await step.textContent()).toContain('Card ending 0002');
    expect(await step.locator('address').textContent()).toContain(custom.address);
    await page.getByRole('button', { name: 'Place Order' }).click();
    await expect.poll(() => step.getByRole('alert').textContent(), SETTLE).toBe(DECLINE_TEXT);
    expect(await ordersOf(page)).toEqual([]);
    for (const [id, stock] of stockBeforeOrder) expect(await stockOf(id)).toBe(stock);

    // Back to payment: the card as typed; back to shipping: the address as typed.
    await step.getByRole('button', { name: 'Back' }).click();
    await waitForStep(page, 'Payment');
    expect(await page.locator('#checkout-cardNumber').inputValue()).toBe(DECLINE_CARD);
    expect(await page.locator('#checkout-cardName').inputValue()).toBe('Matilda Quokka');
    await page.getByRole('button', { name: 'Back' }).click();
    await waitForStep(page, 'Shipping');
    for (const field of SHIPPING_FIELDS)
      expect(await page.locator(`#checkout-${field}`).inputValue()).toBe(custom[field]);
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await waitForStep(page, 'Payment');
    expect(await page.locator('#checkout-cvv').inputValue()).toBe('123');

    await page.locator('#checkout-cardNumber').fill(APPROVE_CARD);
    expect(await page.locator('#checkout-cardNumber').inputValue()).toBe(APPROVE_CARD);
    await page.getByRole('button', { name: 'Review Order' }).click();
    await waitForStep(page, 'Confirmation');
    const expected = priceOrder(
      [...ordered].map(([product, quantity]) => ({ unitPriceCents: unitCents(product), quantity })),
    );
    await expect
      .poll(() => checkoutTotals(page), SETTLE)
      .toEqual({
        subtotal: money(expected.subtotalCents),
        gst: money(expected.gstCents),
        shipping: shippingText(expected.shippingCents),
        total: money(expected.totalCents),
      });
    // The step's totals and the summary beside it agree.
    expect(await page.getByTestId('checkout-total').allTextContents()).toEqual([
      money(expected.totalCents),
      money(expected.totalCents),
    ]);
    checkoutFigures = await checkoutTotals(page);
    const placeOrder = page.getByRole('button', { name: 'Place Order' });
    await expect.poll(() => placeOrder.isEnabled(), SETTLE).toBe(true);
    await placeOrder.dblclick();
    await waitForStep(page, 'Complete');
    const orderNumber = await page.getByTestId('order-number').textContent();
    expect(orderNumber).toMatch(/^HT-\d+$/);

    const orders = await ordersOf(page);
    expect(orders).toHaveLength(1);
    order = orders[0]!;
    expect(order.orderNumber).toBe(orderNumber);
    expect(order.status).toBe('Processing');
    expect(order.paymentStatus).toBe('Paid');
    expect(order.cardLast4).toBe('4242');
    expect(money(Math.round(order.total * 100))).toBe(checkoutFigures.total);
    expect(Object.fromEntries(order.items.map((item) => [item.productId, item.quantity]))).toEqual(
      Object.fromEntries([...ordered].map(([product, quantity]) => [product.id, quantity])),
    );
    expect(order.shippingAddress?.addressLine1).toBe(custom.address);
    expect(order.shippingAddress?.city).toBe(custom.city);

    // The cart is empty: header, browser and account.
    await expect.poll(() => headerCartCount(page), SETTLE).toBe('0');
    expect(await browserCartQuantities(page)).toEqual({});
    await expect
      .poll(
        async () => ((await (await page.request.get(`${baseUrl}/api/cart`)).json()) as { items: unknown[] }).items,
        SETTLE,
      )
      .toEqual([]);
    for (const [product, quantity] of ordered) {
      await expect.poll(() => stockOf(product.id), SETTLE).toBe(stockBeforeOrder.get(product.id)! - quantity);
    }
  });

  it('the order is first in /orders, and /orders/:id shows checkout’s figures, the address and the payment', async () => {
    await page.getByRole('link', { name: 'View Order' }).click();
    await waitForPath(page, `/orders/${order.id}`);
    await hydrated(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Order ${order.orderNumber}`);
    expect(await page.getByTestId('order-status').textContent()).toBe('Processing');
    const details = await page.getByRole('region', { name: 'Order details' }).textContent();
    expect(details).toContain('Paid');
    expect(details).toContain(order.transactionId!);
    expect(details).toContain('ending 4242');
    expect(details).toContain(`${custom.city} ${custom.state} ${custom.postalCode}`);
    expect({
      subtotal: await page.getByTestId('order-subtotal').textContent(),
      gst: await page.getByTestId('order-gst').textContent(),
      shipping: await page.getByTestId('order-shipping').textContent(),
      total: await page.getByTestId('order-grand-total').textContent(),
    }).toEqual(checkoutFigures);
    // The tax invoice's figure, on the page too: the goods' GST plus the delivery's share.
    expect(await page.getByTestId('order-total-gst').textContent()).toBe(
      money(Math.round(order.taxAmount * 100) + Math.round(order.shippingTaxAmount * 100)),
    );
    const items = page.getByRole('region', { name: 'Items' });
    for (const [product, quantity] of ordered) {
      const row = items.getByRole('row').filter({ has: page.getByRole('link', { name: product.name, exact: true }) });
      expect((await row.getByRole('cell').allTextContents()).slice(1)).toEqual([
        money(unitCents(product)),
        String(quantity),
        money(unitCents(product) * quantity),
      ]);
    }
    expect(await page.getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toBe(
      `/contact?order=${order.orderNumber}`,
    );
    // Returns are for fulfilled (Succeeded) orders only.
    expect(await page.getByText('Initiate Return').count()).toBe(0);

    await page.goto(`${baseUrl}/orders`);
    await hydrated(page);
    const first = page.getByTestId('order-row').first();
    expect(await first.getByRole('link').first().textContent()).toBe(`Order ${order.orderNumber}`);
    expect(await first.getByTestId('order-total').textContent()).toBe(checkoutFigures.total);
    expect(await first.getByTestId('order-status').textContent()).toBe('Processing');
    await page.goto(`${baseUrl}/profile`);
    expect(await page.getByRole('region', { name: 'Recent orders' }).textContent()).toContain(order.orderNumber);
  });

  it('Download Invoice gives a PDF tax invoice whose text shows the order number and the same totals', async () => {
    await page.goto(`${baseUrl}/orders/${order.id}`);
    await hydrated(page);
    const [download] = await Promise.all([
      page.waitForEvent('download', SETTLE),
      page.getByRole('link', { name: 'Download Invoice' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${order.orderNumber}-tax-invoice.pdf`);
    const bytes = readFileSync(await download.path());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('Tax Invoice');
    expect(flat).toContain('Harbour Tools');
    expect(flat).toContain(order.orderNumber);
    expect(flat).toContain(`Subtotal (excl. GST) ${checkoutFigures.subtotal}`);
    expect(flat).toContain(`GST (10%) ${checkoutFigures.gst}`);
    expect(flat).toContain(`Shipping ${checkoutFigures.shipping}`);
    expect(flat).toContain(`Total (incl. GST) ${checkoutFigures.total}`);
    // A long name wraps inside its column, so the lines are compared without their spacing.
    const unspaced = text.replace(/\s+/g, '');
    for (const [product, quantity] of ordered) {
      const line = `${product.name} (${product.sku}) ${quantity} ${money(unitCents(product))} ${money(unitCents(product) * quantity)}`;
      expect(unspaced).toContain(line.replace(/\s+/g, ''));
    }
    // The figures are money: "$1,234.50", never "1234.5".
    for (const figure of [checkoutFigures.subtotal, checkoutFigures.gst, checkoutFigures.total]) {
      expect(figure).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
    }
  });

  it('Reorder Items puts what can still be bought back in the cart and names what cannot', async () => {
    await page.getByRole('button', { name: 'Reorder Items' }).click();
    const outcome = page.getByRole('status').filter({ hasText: 'Added to your cart' });
    await expect.poll(() => outcome.count(), SETTLE).toBe(1);
    const message = (await outcome.textContent()) ?? '';
    for (const product of [onSale, fromCard, savedOnly]) expect(message).toContain(product.name);
    // All of the capped product was bought: nothing left to reorder.
    expect(message).toContain(`Not available: ${capped.name}.`);
    const again = { [onSale.id]: 3, [fromCard.id]: 1, [savedOnly.id]: 1 };
    await expect.poll(() => browserCartQuantities(page), SETTLE).toEqual(again);
    await expect.poll(() => headerCartCount(page), SETTLE).toBe('5');

    await outcome.getByRole('link', { name: 'Go to your cart' }).click();
    await waitForPath(page, '/cart');
    for (const product of [onSale, fromCard, savedOnly]) {
      await expect.poll(() => cartQuantity(page, product.name), SETTLE).toBe(String(again[product.id]));
    }
    expect(await cartRow(page, capped.name).count()).toBe(0);
  });

  it('Cancel Order asks first; confirmed, the order is Cancelled, refunded, and the stock is back', async () => {
    await page.goto(`${baseUrl}/orders/${order.id}`);
    await hydrated(page);
    const cancel = page.getByRole('button', { name: 'Cancel Order' });
    // Said no to the question: nothing happens.
    let question = '';
    page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.dismiss();
    });
    await cancel.click();
    expect(question).toBe('Cancel this order? Your payment will be refunded in full.');
    await page.waitForTimeout(500);
    expect(await page.getByTestId('order-status').textContent()).toBe('Processing');
    expect((await ordersOf(page))[0]?.status).toBe('Processing');

    page.once('dialog', (dialog) => void dialog.accept());
    await cancel.click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Order cancelled' }).textContent(), SETTLE)
      .toBe('Order cancelled. Your payment has been refunded in full.');
    await expect.poll(() => page.getByTestId('order-status').textContent(), SETTLE).toBe('Cancelled');
    expect(await page.getByRole('region', { name: 'Order details' }).textContent()).toContain('Refunded');
    expect(await page.getByRole('button', { name: 'Cancel Order' }).count()).toBe(0);
    const [cancelled] = await ordersOf(page);
    expect(cancelled?.status).toBe('Cancelled');
    expect(cancelled?.paymentStatus).toBe('Refunded');
    for (const [id, stock] of stockBeforeOrder) await expect.poll(() => stockOf(id), SETTLE).toBe(stock);
    expect(pathOf(page)).toBe(`/orders/${order.id}`);
  });

  it('left no Content-Security-Policy violation and no page error but the declined payment’s 402 on the way', () => {
    expect(watched.csp).toEqual([]);
    expect(watched.errors.filter((error) => !error.includes('status of 402'))).toEqual([]);
  });
});
