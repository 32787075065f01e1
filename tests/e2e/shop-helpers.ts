import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Product } from '../../contracts/catalog.ts';
import { centsToDollars, dollarsToCents, formatDollars } from '../../contracts/money.ts';
import type { Order } from '../../contracts/orders.ts';
import { baseUrl, hydrated, newUser, SETTLE, type TestUser } from './account-helpers.ts';
import { seriousAxeViolations } from './axe.ts';

/*
 * Shared bits of the cart, checkout and order journeys (checkout-*.test.ts, order-*.test.ts).
 * Products are picked from the live catalogue by what a journey needs (stock, activity), never
 * by a fixed id, and every stock figure is read before it is compared: the e2e files share one
 * server when the whole suite runs.
 */

/** The payment simulator's test numbers (spec-decisions "Payments"): always approved, always declined. */
export const APPROVE_CARD = '4242 4242 4242 4242';
export const DECLINE_CARD = '4000 0000 0000 0002';
/** December, three years from now: always a valid MM/YY. */
export const CARD_EXPIRY = `12/${String((new Date().getFullYear() + 3) % 100).padStart(2, '0')}`;
export const DECLINE_TEXT = 'Payment failed. Please try again or use a different card.';

/** Where the browser keeps the cart (app/lib/cart.ts). */
export const CART_KEY = 'harbour-tools.cart.v1';

export const SHOTS_DIR = '/tmp/order-shots';

/* ---------------- Money, as the pages show it ---------------- */

/** What the shopper pays for one unit today (the discount price when there is one). */
export function unitCents(product: Pick<Product, 'price' | 'discountPrice'>): number {
  return dollarsToCents(product.discountPrice ?? product.price);
}

/** Cents → "$1,234.50", the pages' and the invoice's format. */
export function money(cents: number): string {
  return formatDollars(centsToDollars(cents));
}

/* ---------------- The API, as a test's back door ---------------- */

export async function apiJson<T>(
  path: string,
  options: { token?: string; method?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** A registered shopper and the bearer token of their first session. */
export interface Shopper {
  user: TestUser;
  token: string;
}

/**
 * Registers a shopper through `POST /api/auth/register` (counts against the registration cap).
 * With `context`, the request goes through that browser context, which is then signed in
 * (the session cookie lands in its jar) without using a sign-in attempt.
 */
export async function registerShopper(
  tag: string,
  context?: BrowserContext,
  firstName?: string,
  lastName?: string,
): Promise<Shopper> {
  const user = newUser(tag, firstName, lastName);
  const data = { ...user, address: { ...user.address, addressLine2: undefined } };
  if (context) {
    const response = await context.request.post(`${baseUrl}/api/auth/register`, { data });
    if (response.status() !== 201) {
      throw new Error(`Registering ${user.email} answered ${response.status()}: ${await response.text()}`);
    }
    return { user, token: ((await response.json()) as { token: string }).token };
  }
  const { status, body } = await apiJson<{ token: string }>('/api/auth/register', { method: 'POST', body: data });
  if (status !== 201) throw new Error(`Registering ${user.email} answered ${status}: ${JSON.stringify(body)}`);
  return { user, token: body.token };
}

export async function productById(id: number): Promise<Product> {
  const { status, body } = await apiJson<Product>(`/api/products/${id}`);
  if (status !== 200) throw new Error(`GET /api/products/${id} answered ${status}`);
  return body;
}

/** The stock the shop reports for a product now. */
export async function stockOf(id: number): Promise<number> {
  return (await productById(id)).stockQuantity;
}

/** Every active product of the catalogue (the listing holds only active ones), cheapest first. */
export async function activeProducts(): Promise<Product[]> {
  const { status, body } = await apiJson<{ items: Product[] }>('/api/products?limit=1000&sort=price_asc');
  if (status !== 200) throw new Error(`GET /api/products answered ${status}`);
  return body.items;
}

/**
 * Picks a product that satisfies `accept`, leaving out those already `taken` (and adding the
 * pick to it, so one journey never picks a product twice).
 */
export function pick(products: Product[], accept: (product: Product) => boolean, taken: Set<number>): Product {
  const picked = products.find((product) => !taken.has(product.id) && accept(product));
  if (!picked) throw new Error('The catalogue has no product this journey needs');
  taken.add(picked.id);
  return picked;
}

/** The first product that has been taken off sale (`isActive` false); the listing never shows these, so ids are read one by one. */
export async function findInactiveProduct(): Promise<Product | null> {
  for (let start = 1; start <= 2000; start += 25) {
    const batch = await Promise.all(
      Array.from({ length: 25 }, (_, index) => apiJson<Product>(`/api/products/${start + index}`)),
    );
    const inactive = batch.find((response) => response.status === 200 && !response.body.isActive);
    if (inactive) return inactive.body;
    if (batch.every((response) => response.status === 404)) return null;
  }
  return null;
}

/** A shipping address the order API accepts. */
export function shippingOf(user: TestUser) {
  return {
    fullName: `${user.firstName} ${user.lastName}`,
    addressLine1: user.address.addressLine1,
    city: user.address.city,
    state: user.address.state,
    postalCode: user.address.postalCode,
    country: user.address.country,
  };
}

let sessionCounter = 0;

/** Places an order through `POST /api/orders` with the always-approved card. */
export async function placeOrderViaApi(
  shopper: Shopper,
  lines: { productId: number; quantity: number }[],
): Promise<Order> {
  sessionCounter += 1;
  const { status, body } = await apiJson<{ status: string; order: Order }>('/api/orders', {
    method: 'POST',
    token: shopper.token,
    body: {
      sessionId: `session_${Date.now()}_${sessionCounter}`,
      userEmail: shopper.user.email,
      orderItems: lines,
      paymentMethod: 'credit_card',
      cardData: {
        Number: APPROVE_CARD,
        Name: `${shopper.user.firstName} ${shopper.user.lastName}`,
        Expiry: CARD_EXPIRY,
        Cvc: '123',
      },
      shippingAddress: shippingOf(shopper.user),
    },
  });
  if (status !== 201 || body.status !== 'succeeded') {
    throw new Error(`POST /api/orders answered ${status}: ${JSON.stringify(body)}`);
  }
  return body.order;
}

/** The signed-in shopper's orders (`GET /api/orders/user`) through the page's own cookie. */
export async function ordersOf(page: Page): Promise<Order[]> {
  const response = await page.request.get(`${baseUrl}/api/orders/user`);
  expect(response.status()).toBe(200);
  return (await response.json()) as Order[];
}

/* ---------------- The browser's cart ---------------- */

export interface StoredCartItem {
  id: number;
  name: string;
  price: number;
  originalPrice: number;
  image: string | null;
  sku: string;
  quantity: number;
  maxQuantity: number;
}

/** The cart line a product becomes in localStorage; `price` is the price the shopper saw when adding it. */
export function storedItem(
  product: Product,
  quantity: number,
  overrides: Partial<StoredCartItem> = {},
): StoredCartItem {
  return {
    id: product.id,
    name: product.name,
    price: centsToDollars(unitCents(product)),
    originalPrice: product.price,
    image: product.imageUrl,
    sku: product.sku,
    quantity,
    maxQuantity: product.stockQuantity,
    ...overrides,
  };
}

/** Replaces the browser's cart (the page must be on the shop's origin); reload or navigate to see it. */
export async function writeBrowserCart(page: Page, items: StoredCartItem[]): Promise<void> {
  await page.evaluate(([key, value]) => window.localStorage.setItem(key, value), [
    CART_KEY,
    JSON.stringify({ items }),
  ] as const);
}

/** The browser's cart as stored: product id → quantity. */
export async function browserCartQuantities(page: Page): Promise<Record<number, number>> {
  const stored = await page.evaluate((key) => window.localStorage.getItem(key), CART_KEY);
  const items = stored ? ((JSON.parse(stored) as { items?: StoredCartItem[] }).items ?? []) : [];
  return Object.fromEntries(items.map((item) => [item.id, item.quantity]));
}

/** The number on the header's cart link. */
export function headerCartCount(page: Page) {
  return page.getByTestId('cart-count').textContent();
}

/** Adds a product `times` times with the product page's Add to Cart (one unit per click), waiting for each. */
export async function addFromProductPage(page: Page, product: Product, times = 1): Promise<void> {
  await page.goto(`${baseUrl}/product/${product.id}`);
  await hydrated(page);
  for (let click = 0; click < times; click++) {
    const before = Number(await headerCartCount(page));
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await expect.poll(async () => Number(await headerCartCount(page)), SETTLE).toBe(before + 1);
  }
}

/** The cart page's row of a product. */
export function cartRow(page: Page, name: string) {
  return page
    .getByRole('region', { name: 'Cart items' })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

/** The quantity the cart page's stepper shows for a product. */
export function cartQuantity(page: Page, name: string) {
  return page.getByRole('status', { name: `Quantity of ${name}`, exact: true }).textContent();
}

/** The notice under a cart line ('Price changed from $X to $Y', 'Only N left', 'No longer available'), or null. */
export async function lineNotice(page: Page, name: string): Promise<string | null> {
  // The name block is rendered twice (phone and desktop layouts); one is hidden.
  const notice = cartRow(page, name).getByTestId('cart-line-problem').filter({ visible: true });
  return (await notice.count()) === 0 ? null : notice.textContent();
}

/** The cart page's Order Summary figures. */
export async function cartSummary(page: Page) {
  return {
    subtotal: await page.getByTestId('cart-subtotal').textContent(),
    gst: await page.getByTestId('cart-gst').textContent(),
    total: await page.getByTestId('cart-total').textContent(),
  };
}

/** Waits until the cart page shows these totals (it re-quotes after every change). */
export async function expectCartTotals(
  page: Page,
  totals: { subtotalCents: number; gstCents: number; totalCents: number },
) {
  await expect
    .poll(() => cartSummary(page), SETTLE)
    .toEqual({ subtotal: money(totals.subtotalCents), gst: money(totals.gstCents), total: money(totals.totalCents) });
}

/* ---------------- Checkout ---------------- */

export const SHIPPING_FIELDS = ['fullName', 'email', 'address', 'city', 'state', 'postalCode'] as const;

/** Types into a checkout shipping field; an Australian address's State is a select (issue 22). */
export async function setShippingField(page: Page, field: (typeof SHIPPING_FIELDS)[number], value: string) {
  const control = page.locator(`#checkout-${field}`);
  if (field === 'state' && (await control.evaluate((element) => element.tagName)) === 'SELECT') {
    await control.selectOption(value);
  } else {
    await control.fill(value);
  }
}

export function checkoutStepHeading(page: Page) {
  return page.locator('#checkout-step').textContent();
}

/**
 * Waits for checkout to show `step`. When it does not, the failure says what the page shows
 * instead — the step, its field errors and alerts, and what the fields hold — so a rare CI
 * failure can be read from the log alone.
 */
export async function waitForStep(page: Page, step: 'Shipping' | 'Payment' | 'Confirmation' | 'Complete') {
  try {
    await expect.poll(() => checkoutStepHeading(page), SETTLE).toBe(step);
  } catch (error) {
    const shown = await page
      .evaluate(() => ({
        url: location.href,
        step: document.querySelector('#checkout-step')?.textContent,
        focused: document.activeElement?.id || document.activeElement?.tagName,
        errors: [...document.querySelectorAll('[id^="checkout-"][id$="-error"]')].map((node) => node.textContent),
        alerts: [...document.querySelectorAll('[role="alert"]')].map((node) => node.textContent),
        fields: Object.fromEntries(
          [...document.querySelectorAll<HTMLInputElement>('input[id^="checkout-"]')]
            .filter((input) => input.id !== 'checkout-cvv')
            .map((input) => [input.id, input.type === 'radio' ? input.checked : input.value]),
        ),
      }))
      .catch((reason: unknown) => ({ unreadable: String(reason) }));
    throw new Error(`Checkout did not reach ${step}; the page shows ${JSON.stringify(shown)}`, { cause: error });
  }
}

/** The error text under a checkout field, or null. */
export async function fieldError(page: Page, field: string): Promise<string | null> {
  const error = page.locator(`#checkout-${field}-error`);
  return (await error.count()) === 0 ? null : error.textContent();
}

export async function fillCard(
  page: Page,
  card: { number: string; name: string; expiry?: string; cvv?: string },
): Promise<void> {
  await page.locator('#checkout-cardNumber').fill(card.number);
  await page.locator('#checkout-cardName').fill(card.name);
  await page.locator('#checkout-expiryDate').fill(card.expiry ?? CARD_EXPIRY);
  await page.locator('#checkout-cvv').fill(card.cvv ?? '123');
}

/** Checkout's totals (the first set: the step's own at Confirmation, the summary's before). */
export async function checkoutTotals(page: Page) {
  const text = (id: string) => page.getByTestId(id).first().textContent();
  return {
    subtotal: await text('checkout-subtotal'),
    gst: await text('checkout-gst'),
    shipping: await text('checkout-shipping'),
    total: await text('checkout-total'),
  };
}

/** Shipping as the pages show it: 'Free' or "$10.00". */
export function shippingText(cents: number): string {
  return cents === 0 ? 'Free' : money(cents);
}

/* ---------------- Accessibility ---------------- */

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');

/**
 * axe's serious and critical findings on the page as it is now. The shop's CSP allows no inline
 * script, so axe is evaluated through the DevTools protocol (which the page's CSP does not see)
 * rather than added as a script tag; tests/e2e/axe.ts then finds it already there.
 */
export async function axeFindings(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return seriousAxeViolations(page);
}

/**
 * At a phone's 390 px and a desktop's 1280 px: axe's serious and critical findings (each
 * prefixed with the width) and a full-page screenshot into /tmp/order-shots/<name>-<width>.png.
 * Ends at 1280 px.
 */
export async function auditBothWidths(page: Page, name: string): Promise<string[]> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const findings: string[] = [];
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    // Let the layout settle after the resize (sticky summaries, responsive tables).
    await page.waitForTimeout(200);
    for (const finding of await axeFindings(page)) findings.push(`${width}px ${finding}`);
    await page.screenshot({ path: join(SHOTS_DIR, `${name}-${width}.png`), fullPage: true });
  }
  return findings;
}
