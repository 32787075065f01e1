import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FullProduct, Subcategory } from '../../contracts/catalog.ts';
import { dollarsToCents } from '../../contracts/money.ts';
import type { Order } from '../../contracts/orders.ts';
import { displayPrice } from '../../contracts/pricing.ts';
import {
  baseUrl,
  hydrated,
  outboxDir,
  SETTLE,
  signIn,
  type WatchedPage,
  waitForPath,
  watchedPage,
} from './account-helpers.ts';
import { launchBrowser } from './browser.ts';
import {
  activeProducts,
  apiJson,
  cartRow,
  fillCard,
  headerCartCount,
  money,
  ordersOf,
  registerShopper,
  type Shopper,
  waitForStep,
} from './shop-helpers.ts';

/*
 * Issue 10's journey: the shop owner creates a product with two pictures and a variant on
 * /upload → the shop shows it on its subcategory page, its product page (option choice,
 * gallery) and in search, at once (the catalogue cache is cleared by the write) → a customer
 * buys two of the variant → the owner marks the order fulfilled → the customer asks to
 * return one → the owner approves. The product's own stock and the variant's are read after
 * every step, and the order's history on the admin page grows by exactly one line each time.
 * One admin and one customer context; each step starts where the one before ended.
 */

const admin = { email: inject('adminEmail'), password: inject('adminPassword') };

/** The moment a change should show everywhere: the catalogue cache is cleared by writes, not aged out (10 s). */
const AT_ONCE = { timeout: 2_000, interval: 100 };

const suffix = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`.toUpperCase();
const PRODUCT = {
  name: `Quokka Ridge Impact Driver ${suffix}`,
  sku: `QR-ID-${suffix}`,
  tagLine: 'Built for the back shed',
  description: 'A compact impact driver for decking and framing.\nComes with a belt clip.',
  // Typed out of alphabetical order: the product page must keep this order.
  specifications: [
    ['Voltage', '18 V'],
    ['Chuck', '1/4" hex'],
    ['Max torque', '180 Nm'],
    ['Battery', 'Not included'],
  ] as [string, string][],
  price: 119,
  stock: 6,
  weight: '1.35',
  dimensions: '16 x 8 x 21 cm',
  warranty: '3 years',
  variant: { name: 'Kit with two 4.0 Ah batteries', sku: `QR-ID-${suffix}-KIT`, price: 149, stock: 4 },
};

/** Two small pictures made here: a JPEG (the main one) and a PNG, each a different colour. */
async function makePictures(dir: string): Promise<[string, string]> {
  const jpeg = join(dir, 'driver-front.jpg');
  const png = join(dir, 'driver-side.png');
  await sharp({ create: { width: 960, height: 720, channels: 3, background: { r: 200, g: 40, b: 30 } } })
    .jpeg({ quality: 80 })
    .toFile(jpeg);
  await sharp({ create: { width: 600, height: 600, channels: 4, background: { r: 20, g: 70, b: 160, alpha: 1 } } })
    .png()
    .toFile(png);
  return [jpeg, png];
}

async function fullProduct(id: number): Promise<FullProduct> {
  const { status, body } = await apiJson<FullProduct>(`/api/products/full/${id}`);
  if (status !== 200) throw new Error(`GET /api/products/full/${id} answered ${status}`);
  return body;
}

/** The product's own stock and its variant's, as the API reports them now. */
async function stocks(id: number): Promise<{ product: number; variant: number | undefined }> {
  const full = await fullProduct(id);
  return { product: full.product.stockQuantity, variant: full.variants[0]?.stockQuantity };
}

/** Every e-mail to `email` so far (headers unfolded, quoted-printable undone), as text. */
function mailsTo(email: string): string[] {
  if (!existsSync(outboxDir)) return [];
  return readdirSync(outboxDir)
    .filter((file) => file.endsWith('.eml'))
    .map((file) =>
      readFileSync(join(outboxDir, file), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/\r?\n[ \t]+/g, ' '),
    )
    .filter((message) => (/^To:\s*(.+)$/im.exec(message)?.[1] ?? '').toLowerCase().includes(email.toLowerCase()));
}

/** The admin order page's history, one line per event without its time ("Succeeded by admin owner@example.com"). */
async function historyOf(page: Page): Promise<string[]> {
  const lines = await page
    .getByRole('heading', { name: 'History', exact: true })
    .locator('xpath=..')
    .getByRole('listitem')
    .allTextContents();
  return lines.map((line) => line.replace(/^[^·]+·\s*/, '').trim());
}

/**
 * The product page's buy box: the options group's parent (the options table further down
 * lists the variant's price too, and related products have their own Add to Cart).
 */
function buyBoxOf(page: Page) {
  return page.getByRole('group', { name: 'Option' }).locator('xpath=..');
}

describe('the shop owner’s side, start to finish', () => {
  let browser: Browser;
  let picturesDir: string;
  let pictures: [string, string];
  let adminContext: BrowserContext;
  let adminWatched: WatchedPage;
  let adminPage: Page;
  let customerContext: BrowserContext;
  let customerWatched: WatchedPage;
  let customerPage: Page;
  let customer: Shopper;
  let subcategory: Subcategory;
  let brandName: string;
  let productId: number;
  let variantId: number;
  let order: Order;

  beforeAll(async () => {
    browser = await launchBrowser();
    picturesDir = mkdtempSync(join(tmpdir(), 'harbour-admin-pictures-'));
    pictures = await makePictures(picturesDir);
    // A subcategory with few products, so its first page (default sort) lists every one of them.
    const catalogue = await activeProducts();
    const counts = new Map<number, number>();
    for (const product of catalogue) counts.set(product.subcategoryId, (counts.get(product.subcategoryId) ?? 0) + 1);
    const small = [...counts].filter(([, count]) => count <= 10).toSorted((a, b) => a[1] - b[1])[0];
    if (!small) throw new Error('The catalogue has no small subcategory');
    const found = await apiJson<Subcategory>(`/api/subcategories/${small[0]}`);
    expect(found.status).toBe(200);
    subcategory = found.body;
    const brands = await apiJson<{ id: number; name: string }[]>('/api/brands');
    brandName = brands.body[0]!.name;

    adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    adminWatched = await watchedPage(adminContext);
    adminPage = adminWatched.page;
    customerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    customer = await registerShopper('adminjourney', customerContext, 'Bettong', 'Brushtail');
    customerWatched = await watchedPage(customerContext);
    customerPage = customerWatched.page;
  });
  afterAll(async () => {
    await browser?.close();
    if (picturesDir) rmSync(picturesDir, { recursive: true, force: true });
  });

  it('before it exists, the subcategory page and search do not list it (and have it in their cache)', async () => {
    const path = `/category/${subcategory.categoryId}/subcategory/${subcategory.id}`;
    await customerPage.goto(`${baseUrl}${path}`);
    await hydrated(customerPage);
    expect(await customerPage.getByRole('heading', { level: 1 }).textContent()).toContain(subcategory.name);
    expect(await customerPage.getByRole('link', { name: PRODUCT.name }).count()).toBe(0);
    await customerPage.goto(`${baseUrl}/search?term=${encodeURIComponent(PRODUCT.name)}`);
    await hydrated(customerPage);
    expect(await customerPage.locator('main').getByRole('link', { name: PRODUCT.name }).count()).toBe(0);
  });

  it('the admin creates the product on /upload with two pictures and a variant', async () => {
    await signIn(adminPage, admin, { redirectTo: '/upload' });
    await hydrated(adminPage);
    expect(await adminPage.getByRole('heading', { level: 1 }).textContent()).toBe('Create Product');
    // The product form (its submit button's name changes while it works).
    const form = adminPage
      .locator('main form')
      .filter({ has: adminPage.getByRole('group', { name: 'Basic Information' }) });

    await form.getByRole('textbox', { name: 'Product name', exact: true }).fill(PRODUCT.name);
    await form.getByRole('textbox', { name: 'SKU', exact: true }).fill(PRODUCT.sku);
    await form.getByRole('textbox', { name: 'Tag line (optional)', exact: true }).fill(PRODUCT.tagLine);
    await form.getByRole('textbox', { name: 'Description', exact: true }).fill(PRODUCT.description);

    // The subcategory waits for a category, then offers only that category's subcategories.
    const subcategorySelect = form.getByRole('combobox', { name: 'Subcategory', exact: true });
    expect(await subcategorySelect.isDisabled()).toBe(true);
    await form.getByRole('combobox', { name: 'Brand', exact: true }).selectOption({ label: brandName });
    await form.getByRole('combobox', { name: 'Category', exact: true }).selectOption(String(subcategory.categoryId));
    await expect.poll(() => subcategorySelect.isEnabled(), SETTLE).toBe(true);
    const siblings = await apiJson<Subcategory[]>(`/api/subcategories?categoryId=${subcategory.categoryId}`);
    const offered = await subcategorySelect
      .locator('option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value).filter(Boolean));
    expect(offered.toSorted()).toEqual(siblings.body.map((sibling) => String(sibling.id)).toSorted());
    await subcategorySelect.selectOption(String(subcategory.id));

    const specs = form.getByRole('textbox', { name: 'Specifications (JSON)', exact: true });
    expect(await specs.inputValue()).toBe('{}');
    await specs.fill(JSON.stringify(Object.fromEntries(PRODUCT.specifications), null, 2));
    await form.getByRole('spinbutton', { name: 'Price ($, excl. GST)', exact: true }).fill(String(PRODUCT.price));
    await form.getByRole('spinbutton', { name: 'Stock quantity', exact: true }).fill(String(PRODUCT.stock));
    await form.getByRole('spinbutton', { name: 'Weight (kg) (optional)', exact: true }).fill(PRODUCT.weight);
    await form.getByRole('textbox', { name: 'Dimensions (LxWxH) (optional)', exact: true }).fill(PRODUCT.dimensions);
    await form.getByRole('textbox', { name: 'Warranty period (optional)', exact: true }).fill(PRODUCT.warranty);

    // Two pictures: the count and a preview of each (blob: pictures, allowed by the CSP).
    await form.getByLabel(/^Pictures \(JPEG, PNG, WebP or AVIF/).setInputFiles(pictures);
    await expect.poll(() => form.getByText('2 pictures chosen', { exact: true }).count(), SETTLE).toBe(1);
    const previews = form.getByRole('img', { name: /^Preview of / });
    expect(await previews.evaluateAll((images) => images.map((image) => image.getAttribute('alt')))).toEqual([
      'Preview of driver-front.jpg',
      'Preview of driver-side.png',
    ]);
    await expect
      .poll(() => previews.evaluateAll((images) => images.map((image) => (image as HTMLImageElement).naturalWidth)))
      .toEqual([960, 600]);

    await form.getByRole('button', { name: 'Add Variant' }).click();
    await form.getByRole('textbox', { name: 'Variant 1 name', exact: true }).fill(PRODUCT.variant.name);
    await form.getByRole('textbox', { name: 'Variant 1 SKU', exact: true }).fill(PRODUCT.variant.sku);
    await form.getByRole('spinbutton', { name: 'Variant 1 price', exact: true }).fill(String(PRODUCT.variant.price));
    await form.getByRole('spinbutton', { name: 'Variant 1 stock', exact: true }).fill(String(PRODUCT.variant.stock));

    // Each picture is held back a moment, so the busy state can be seen.
    // (Chromium does not hand a file upload's body to the route, so each is let through as it is.)
    const uploads: number[] = [];
    const onResponse = (response: Response) => {
      if (new URL(response.url()).pathname === '/api/products/images') uploads.push(response.status());
    };
    adminPage.on('response', onResponse);
    await adminPage.route('**/api/products/images', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await form.getByRole('button', { name: 'Create Product' }).click();
    const busy = form.getByRole('button', { name: 'Creating Product...' });
    await expect.poll(() => busy.count(), SETTLE).toBe(1);
    expect(await busy.isDisabled()).toBe(true);

    const outcome = form.getByRole('status').filter({ hasText: 'Product created successfully!' });
    await expect.poll(() => outcome.count(), SETTLE).toBe(1);
    await adminPage.unroute('**/api/products/images');
    adminPage.off('response', onResponse);
    expect(uploads).toEqual([201, 201]);
    const view = outcome.getByRole('link', { name: 'View product' });
    const href = (await view.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/product\/\d+$/);
    productId = Number(href.split('/').at(-1));
    expect(await outcome.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(`/admin/products/${productId}`);
    // The form is empty again, ready for the next product.
    expect(await form.getByRole('textbox', { name: 'Product name', exact: true }).inputValue()).toBe('');
    expect(await form.getByText('No pictures chosen', { exact: true }).count()).toBe(1);
    expect(await form.getByRole('button', { name: 'Create Product' }).isEnabled()).toBe(true);

    const full = await fullProduct(productId);
    expect(full.product).toMatchObject({
      name: PRODUCT.name,
      sku: PRODUCT.sku,
      price: PRODUCT.price,
      discountPrice: null,
      stockQuantity: PRODUCT.stock,
      isActive: true,
      subcategoryId: subcategory.id,
      categoryId: subcategory.categoryId,
    });
    expect(full.brand.name).toBe(brandName);
    expect(Object.keys(full.product.specifications)).toEqual(PRODUCT.specifications.map(([key]) => key));
    expect(full.variants).toHaveLength(1);
    expect(full.variants[0]).toMatchObject({
      name: PRODUCT.variant.name,
      sku: PRODUCT.variant.sku,
      price: PRODUCT.variant.price,
      stockQuantity: PRODUCT.variant.stock,
    });
    variantId = full.variants[0]!.id;
    // Two pictures in the order chosen, the first the main one, each served as WebP sizes.
    expect(full.images.map((image) => image.isPrimary)).toEqual([true, false]);
    expect(full.product.imageUrl).toBe(full.images[0]!.imageUrl);
    for (const image of full.images) {
      expect(image.imageUrl).toMatch(/^\/media\/products\/[0-9a-f-]{36}-\d+\.webp$/);
      expect(image.altText).toBe(PRODUCT.name);
      expect(image.srcset).toMatch(/^\/media\/products\/\S+\.webp 400w, /);
      const served = await fetch(`${baseUrl}${image.imageUrl}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      // Never the client's file name.
      expect(image.imageUrl).not.toContain('driver-');
    }
    expect(await stocks(productId)).toEqual({ product: PRODUCT.stock, variant: PRODUCT.variant.stock });

    // The back office's list finds it by SKU, with its stock and shown.
    await adminPage.goto(`${baseUrl}/admin/products?q=${encodeURIComponent(PRODUCT.sku)}`);
    await hydrated(adminPage);
    const row = adminPage.getByRole('row').filter({ has: adminPage.getByRole('link', { name: PRODUCT.name }) });
    expect(await row.count()).toBe(1);
    expect(await row.getByLabel(`Stock of ${PRODUCT.name}`).inputValue()).toBe(String(PRODUCT.stock));
    expect(await row.getByRole('button', { name: 'Hide' }).count()).toBe(1);
    // Its edit page: both pictures, the first the main one, and the same form filled in.
    await row.getByRole('link', { name: PRODUCT.name }).click();
    await waitForPath(adminPage, `/admin/products/${productId}`);
    await hydrated(adminPage);
    await expect
      .poll(() => adminPage.getByRole('heading', { level: 1 }).textContent(), SETTLE)
      .toBe(`Edit ${PRODUCT.name}`);
    const pictureList = adminPage.getByRole('region', { name: 'Pictures' });
    expect(
      await pictureList.getByRole('img').evaluateAll((images) => images.map((image) => image.getAttribute('src'))),
    ).toEqual(full.images.map((image) => image.imageUrl));
    expect(await pictureList.getByText('Main picture', { exact: true }).count()).toBe(1);
    expect(await pictureList.getByRole('button', { name: 'Make main: picture 2', exact: true }).count()).toBe(1);
    expect(await adminPage.getByRole('textbox', { name: 'Variant 1 SKU', exact: true }).inputValue()).toBe(
      PRODUCT.variant.sku,
    );
    expect(await adminPage.getByRole('spinbutton', { name: 'Variant 1 stock', exact: true }).inputValue()).toBe(
      String(PRODUCT.variant.stock),
    );
    expect(adminWatched.csp).toEqual([]);
    expect(adminWatched.errors).toEqual([]);
  });

  it('at once it is on its subcategory page and in search, and its page offers the variant and both pictures', async () => {
    // The same pages as before the product existed: the write cleared the catalogue cache.
    const path = `/category/${subcategory.categoryId}/subcategory/${subcategory.id}`;
    await customerPage.goto(`${baseUrl}${path}`);
    await hydrated(customerPage);
    const card = customerPage
      .locator('main article')
      .filter({ has: customerPage.getByRole('link', { name: PRODUCT.name }) });
    expect(await card.count()).toBe(1);
    const full = await fullProduct(productId);
    expect(await card.locator('img').first().getAttribute('src')).toBe(full.images[0]!.imageUrl);

    await customerPage.goto(`${baseUrl}/search?term=${encodeURIComponent(PRODUCT.name)}`);
    await hydrated(customerPage);
    await expect
      .poll(() => customerPage.locator('main').getByRole('link', { name: PRODUCT.name }).count(), AT_ONCE)
      .toBeGreaterThan(0);

    await customerPage.locator('main').getByRole('link', { name: PRODUCT.name }).first().click();
    await customerPage.waitForURL((url) => url.pathname.endsWith(`/product/${productId}`), SETTLE);
    await hydrated(customerPage);
    // The address changes as the navigation commits; React may paint the new page a moment later.
    await expect.poll(() => customerPage.getByRole('heading', { level: 1 }).textContent(), SETTLE).toBe(PRODUCT.name);

    // The options: the product itself ('Standard', chosen) and the variant, each with its price, SKU and stock.
    const options = customerPage.getByRole('group', { name: 'Option' });
    const standard = options.getByRole('radio', { name: 'Standard' });
    const kit = options.getByRole('radio', { name: PRODUCT.variant.name });
    expect(await options.getByRole('radio').count()).toBe(2);
    expect(await standard.isChecked()).toBe(true);
    const buyBox = buyBoxOf(customerPage);
    expect(await buyBox.getByRole('heading', { level: 1 }).count()).toBe(1);
    // GST-inclusive headline, the entered (ex-GST) price beside it (issue 22).
    expect(
      await buyBox.getByText(money(displayPrice(dollarsToCents(PRODUCT.price)).incGstCents), { exact: true }).count(),
    ).toBeGreaterThan(0);
    expect(await buyBox.getByText(`${money(PRODUCT.price * 100)} ex GST`, { exact: true }).count()).toBeGreaterThan(0);
    expect(await customerPage.getByTestId('product-stock').textContent()).toBe(`In stock: ${PRODUCT.stock} available`);
    await options.locator('label').filter({ hasText: PRODUCT.variant.name }).click();
    await expect.poll(() => kit.isChecked(), SETTLE).toBe(true);
    expect(await standard.isChecked()).toBe(false);
    expect(await customerPage.getByTestId('product-stock').textContent()).toBe(
      `Only ${PRODUCT.variant.stock} left in stock`,
    );
    expect(await customerPage.getByText(`SKU: ${PRODUCT.variant.sku}`, { exact: true }).count()).toBe(1);
    // GST-inclusive headline, the entered (ex-GST) price beside it (issue 22).
    expect(
      await buyBox
        .getByText(money(displayPrice(dollarsToCents(PRODUCT.variant.price)).incGstCents), { exact: true })
        .count(),
    ).toBeGreaterThan(0);
    expect(
      await buyBox.getByText(`${money(PRODUCT.variant.price * 100)} ex GST`, { exact: true }).count(),
    ).toBeGreaterThan(0);

    // The gallery: the main picture first, a thumbnail for each, and the second one on a click.
    const main = customerPage.getByTestId('gallery-main-image');
    expect(await main.getAttribute('src')).toBe(full.images[0]!.imageUrl);
    expect(await main.getAttribute('srcset')).toBe(full.images[0]!.srcset);
    await expect
      .poll(() => main.evaluate((image) => (image as HTMLImageElement).naturalWidth), SETTLE)
      .toBeGreaterThan(0);
    const thumbnails = customerPage.getByRole('toolbar', { name: 'Product pictures' }).getByRole('button');
    expect(await thumbnails.count()).toBe(2);
    await customerPage.getByRole('button', { name: 'Show picture 2 of 2' }).click();
    await expect.poll(() => main.getAttribute('src'), SETTLE).toBe(full.images[1]!.imageUrl);
    expect(await thumbnails.nth(1).getAttribute('aria-pressed')).toBe('true');
    await expect
      .poll(() => main.evaluate((image) => (image as HTMLImageElement).naturalWidth), SETTLE)
      .toBeGreaterThan(0);

    // The specifications in the order the owner typed them.
    const specRows = await customerPage
      .getByRole('table', { name: `Technical specifications of ${PRODUCT.name}` })
      .getByRole('rowheader')
      .allTextContents();
    const typed = PRODUCT.specifications.map(([key]) => key);
    expect(specRows.filter((label) => typed.includes(label))).toEqual(typed);
    expect(customerWatched.csp).toEqual([]);
    expect(customerWatched.errors).toEqual([]);
  });

  it('the customer buys two of the variant: the variant’s stock drops by two, the product’s stays', async () => {
    // Still on the product page with the variant chosen.
    for (const expected of ['1', '2']) {
      await buyBoxOf(customerPage).getByRole('button', { name: 'Add to Cart', exact: true }).click();
      await expect.poll(() => headerCartCount(customerPage), SETTLE).toBe(expected);
    }
    await customerPage.goto(`${baseUrl}/cart`);
    await hydrated(customerPage);
    const line = cartRow(customerPage, PRODUCT.name);
    await expect.poll(() => line.count(), SETTLE).toBe(1);
    expect(await line.textContent()).toContain(PRODUCT.variant.name);
    expect(await line.textContent()).toContain(money(PRODUCT.variant.price * 2 * 100));

    await customerPage.getByRole('link', { name: 'Proceed to Checkout' }).click();
    await waitForPath(customerPage, '/checkout');
    await hydrated(customerPage);
    await waitForStep(customerPage, 'Shipping');
    await customerPage.getByRole('button', { name: 'Continue to Payment' }).click();
    await waitForStep(customerPage, 'Payment');
    await fillCard(customerPage, { number: '4242 4242 4242 4242', name: 'Bettong Brushtail' });
    await customerPage.getByRole('button', { name: 'Review Order' }).click();
    await waitForStep(customerPage, 'Confirmation');
    expect(await customerPage.getByRole('region', { name: 'Confirmation' }).textContent()).toContain(
      PRODUCT.variant.name,
    );
    await customerPage.getByRole('button', { name: 'Place Order' }).click();
    await waitForStep(customerPage, 'Complete');
    const orderNumber = await customerPage.getByTestId('order-number').textContent();

    const orders = await ordersOf(customerPage);
    expect(orders).toHaveLength(1);
    order = orders[0]!;
    expect(order.orderNumber).toBe(orderNumber);
    expect(order.status).toBe('Processing');
    expect(order.items).toHaveLength(1);
    expect(order.items[0]).toMatchObject({
      productId,
      productName: PRODUCT.name,
      variantId,
      variantName: PRODUCT.variant.name,
      sku: PRODUCT.variant.sku,
      quantity: 2,
      unitPrice: PRODUCT.variant.price,
    });
    await expect
      .poll(() => stocks(productId), AT_ONCE)
      .toEqual({ product: PRODUCT.stock, variant: PRODUCT.variant.stock - 2 });

    // The admin's copy of the order: the line with its variant, and one history line.
    await adminPage.goto(`${baseUrl}/admin/orders`);
    await hydrated(adminPage);
    await adminPage.getByLabel('Order number or e-mail').fill(order.orderNumber);
    await adminPage.getByRole('button', { name: 'Find orders' }).click();
    await waitForPath(adminPage, `/admin/orders?q=${order.orderNumber}&status=`);
    await adminPage.getByRole('link', { name: order.orderNumber, exact: true }).click();
    await waitForPath(adminPage, `/admin/orders/${order.id}`);
    await hydrated(adminPage);
    await expect
      .poll(() => adminPage.getByRole('heading', { level: 1 }).textContent(), SETTLE)
      .toBe(`Order ${order.orderNumber}`);
    const lines = adminPage.getByRole('table', { name: 'Lines' }).getByRole('row');
    const lineCells = await lines.nth(1).getByRole('cell').allTextContents();
    expect(lineCells).toEqual([
      `${PRODUCT.name}${PRODUCT.variant.name}`,
      PRODUCT.variant.sku,
      money(PRODUCT.variant.price * 100),
      '2',
      money(PRODUCT.variant.price * 2 * 100),
    ]);
    expect(await adminPage.getByText(customer.user.email, { exact: true }).count()).toBe(1);
    expect(await historyOf(adminPage)).toEqual(['Processing by customer · Paid by card']);
  });

  it('the admin ships the order with a carrier and tracking number: Succeeded, the shipment in the history, the customer e-mailed, stock unchanged', async () => {
    const mailsBefore = mailsTo(customer.user.email).length;
    expect(await adminPage.getByRole('button', { name: 'Cancel order' }).count()).toBe(1);
    // Issue 22: fulfilling a delivery is shipping it, with the carrier and its tracking number.
    await adminPage.locator('#ship-carrier').selectOption('australia-post');
    await adminPage.locator('#ship-trackingNumber').fill('AP000111222');
    await adminPage.getByRole('button', { name: 'Mark shipped' }).click();
    await expect
      .poll(() => adminPage.getByRole('status').filter({ hasText: 'Marked shipped' }).textContent(), SETTLE)
      .toBe('Marked shipped. The customer has been e-mailed the tracking details.');
    await expect
      .poll(() => adminPage.getByText('No further moves for a Succeeded order.', { exact: true }).count(), SETTLE)
      .toBe(1);
    expect(await adminPage.getByRole('button', { name: 'Cancel order' }).count()).toBe(0);
    expect(await historyOf(adminPage)).toEqual([
      'Processing by customer · Paid by card',
      `Shipped by admin ${admin.email.toLowerCase()} · Australia Post AP000111222`,
      `Succeeded by admin ${admin.email.toLowerCase()}`,
    ]);
    await expect
      .poll(() => mailsTo(customer.user.email).slice(mailsBefore).join('\n'), SETTLE)
      .toContain(`order ${order.orderNumber} is on its way`);
    expect(await stocks(productId)).toEqual({ product: PRODUCT.stock, variant: PRODUCT.variant.stock - 2 });
    expect((await ordersOf(customerPage))[0]?.status).toBe('Succeeded');
    expect(adminWatched.csp).toEqual([]);
    expect(adminWatched.errors).toEqual([]);
  });

  it('the customer asks to return one of the two: ‘Return requested’, stock unchanged until the shop decides', async () => {
    await customerPage.goto(`${baseUrl}/orders/${order.id}`);
    await hydrated(customerPage);
    expect(await customerPage.getByTestId('order-status').textContent()).toBe('Succeeded');
    await customerPage.getByText('Initiate Return', { exact: true }).click();
    const quantity = customerPage.getByLabel(`Quantity of ${PRODUCT.name} (${PRODUCT.variant.name}) to return`, {
      exact: true,
    });
    expect(await quantity.inputValue()).toBe('2');
    await quantity.selectOption('1');
    await customerPage.getByLabel('Reason for the return', { exact: true }).fill('Only needed the one kit');
    await customerPage.getByRole('button', { name: 'Request Return' }).click();
    await expect.poll(() => customerPage.getByTestId('return-status').textContent(), SETTLE).toBe('Return requested');
    expect(
      await customerPage.getByText('Return requested. We will e-mail you once we have looked at it.').count(),
    ).toBe(1);
    expect(await customerPage.getByText('Initiate Return', { exact: true }).count()).toBe(0);
    expect(await stocks(productId)).toEqual({ product: PRODUCT.stock, variant: PRODUCT.variant.stock - 2 });

    await adminPage.reload();
    await hydrated(adminPage);
    expect(await historyOf(adminPage)).toEqual([
      'Processing by customer · Paid by card',
      `Shipped by admin ${admin.email.toLowerCase()} · Australia Post AP000111222`,
      `Succeeded by admin ${admin.email.toLowerCase()}`,
      'Return requested by customer · Only needed the one kit',
    ]);
  });

  it('the admin approves it from the returns queue: one unit back on the variant, its price refunded, the order ‘Returned’', async () => {
    const mailsBefore = mailsTo(customer.user.email).length;
    await adminPage.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Returns' }).click();
    await waitForPath(adminPage, '/admin/returns');
    await hydrated(adminPage);
    const entry = adminPage
      .getByRole('listitem')
      .filter({ has: adminPage.getByRole('link', { name: order.orderNumber, exact: true }) });
    await expect.poll(() => entry.count(), SETTLE).toBe(1);
    const text = (await entry.textContent()) ?? '';
    expect(text).toContain('Requested');
    expect(text).toContain(customer.user.email);
    expect(text).toContain('“Only needed the one kit”');
    expect(text).toContain(`1 × ${PRODUCT.name}`);
    expect(await entry.getByLabel('Reason to reject').count()).toBe(1);

    await entry.getByRole('button', { name: 'Approve return' }).click();
    await expect
      .poll(() => adminPage.getByRole('status').filter({ hasText: 'Return approved' }).textContent(), SETTLE)
      .toBe('Return approved: stock is back and the refund is on its way. The customer has been e-mailed.');
    // One kit and its GST, not the shipping and not the kit kept.
    const refund = money(Math.round(PRODUCT.variant.price * 1.1 * 100));
    await expect.poll(() => entry.textContent(), SETTLE).toContain(`Refunded ${refund}`);
    expect(await entry.textContent()).toContain('Approved');
    expect(await entry.getByRole('button', { name: 'Approve return' }).count()).toBe(0);
    await expect
      .poll(() => stocks(productId), AT_ONCE)
      .toEqual({ product: PRODUCT.stock, variant: PRODUCT.variant.stock - 1 });
    await expect
      .poll(() => mailsTo(customer.user.email).slice(mailsBefore).join('\n'), SETTLE)
      .toContain(`return for Harbour Tools order ${order.orderNumber} is approved`);

    await adminPage.goto(`${baseUrl}/admin/orders/${order.id}`);
    await hydrated(adminPage);
    const history = await historyOf(adminPage);
    expect(history.slice(0, 4)).toEqual([
      'Processing by customer · Paid by card',
      `Shipped by admin ${admin.email.toLowerCase()} · Australia Post AP000111222`,
      `Succeeded by admin ${admin.email.toLowerCase()}`,
      'Return requested by customer · Only needed the one kit',
    ]);
    expect(history).toHaveLength(5);
    expect(history[4]).toMatch(
      new RegExp(
        `^Returned by admin ${admin.email.toLowerCase().replaceAll('.', '\\.')} · Refunded ${refund.replace('$', '\\$')} \\(\\S+\\)$`,
      ),
    );

    // The customer's order page says so; the payment is Partially refunded (one kit of two was returned).
    await customerPage.reload();
    await hydrated(customerPage);
    expect(await customerPage.getByTestId('return-status').textContent()).toBe('Returned');
    const [returned] = await ordersOf(customerPage);
    expect(returned?.status).toBe('Succeeded');
    expect(returned?.paymentStatus).toBe('Partially refunded');
    expect(returned?.returnStatus).toBe('Approved');

    // The product page offers the returned kit again.
    await customerPage.goto(`${baseUrl}/product/${productId}`);
    await hydrated(customerPage);
    await customerPage
      .getByRole('group', { name: 'Option' })
      .locator('label')
      .filter({ hasText: PRODUCT.variant.name })
      .click();
    await expect
      .poll(() => customerPage.getByTestId('product-stock').textContent(), SETTLE)
      .toBe(`Only ${PRODUCT.variant.stock - 1} left in stock`);
    expect(adminWatched.csp).toEqual([]);
    expect(adminWatched.errors).toEqual([]);
    expect(customerWatched.csp).toEqual([]);
    expect(customerWatched.errors).toEqual([]);
  });
});
