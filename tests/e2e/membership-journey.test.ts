import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FullProduct, Product } from '../../contracts/catalog.ts';
import { MEMBERSHIP_PLANS } from '../../contracts/membership.ts';
import type { Order } from '../../contracts/orders.ts';
import { priceOrder, type ShippingPlan } from '../../contracts/pricing.ts';
import {
  accountButton,
  baseUrl,
  hydrated,
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
  CARD_EXPIRY,
  checkoutTotals,
  DECLINE_CARD,
  DECLINE_TEXT,
  fillCard,
  headerCartCount,
  money,
  ordersOf,
  registerShopper,
  type Shopper,
  shippingText,
  stockOf,
  unitCents,
  waitForStep,
} from './shop-helpers.ts';

/*
 * Issue 11's journey: a shopper joins Basic (a wrong password and a declined card first:
 * each says so and records nothing) → /welcome → buys something → no points until the shop
 * marks the order fulfilled, then 1 per dollar, pending for the 30-day return window (issue 21)
 * → staff grant as many, available at once (how support mends a balance, and how this journey
 * spends without waiting 30 days) → redeems a product with them (balance and stock down) → cancels that order (points and stock back) → switches to Premium → checkout
 * ships free, and the fulfilled order earns 2 per dollar. One shopper, one admin; each step
 * starts where the one before ended. Points are read three ways: the API, /points and the
 * header's account menu.
 */

const admin = { email: inject('adminEmail'), password: inject('adminPassword') };
const BASIC = MEMBERSHIP_PLANS.find((plan) => plan.id === 'basic')!;
const PREMIUM = MEMBERSHIP_PLANS.find((plan) => plan.id === 'premium')!;

interface Ledger {
  balance: number;
  available: number;
  pending: number;
  entries: { kind: string; points: number; orderId: number | null; note: string; balanceAfter: number }[];
}

/** The shopper's points as the API reports them (through the page's own session cookie). */
async function pointsOf(page: Page): Promise<Ledger> {
  const response = await page.request.get(`${baseUrl}/api/points`);
  expect(response.status()).toBe(200);
  return (await response.json()) as Ledger;
}

/** `GET /api/membership`: the shopper's membership, or null. */
async function membershipOf(page: Page): Promise<{ plan: string; status: string } | null> {
  const response = await page.request.get(`${baseUrl}/api/membership`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { membership: { plan: string; status: string } | null }).membership;
}

/** What the header's account menu says about points, read with the menu open (as a shopper sees it). */
async function menuPoints(page: Page): Promise<string | null> {
  await accountButton(page).click();
  const points = page.getByTestId('menu-points');
  await points.waitFor({ state: 'visible', ...SETTLE });
  const text = await points.textContent();
  await accountButton(page).click();
  await points.waitFor({ state: 'hidden', ...SETTLE });
  return text;
}

/** /points' balance line and the ledger table's rows (newest first), each as its four cells. */
async function pointsPage(page: Page): Promise<{ balance: string | null; rows: string[][] }> {
  await page.goto(`${baseUrl}/points`);
  await hydrated(page);
  const balance = await page.getByTestId('points-balance').textContent();
  const table = page.getByRole('table', { name: 'Points ledger' });
  if ((await table.count()) === 0) return { balance, rows: [] };
  const rows = await table.locator('tbody tr').all();
  const cells = await Promise.all(rows.map((row) => row.getByRole('cell').allTextContents()));
  return { balance, rows: cells.map((row) => row.map((cell) => cell.trim())) };
}

/** What staff write when they grant the journey's points. */
const GRANT_REASON = 'Journey: spend before the return window ends';

/** An order's earned row as /points shows it while pending: its "available from" date under the note. */
const pendingEarnRow = (orderNumber: string, points: number, balanceAfter: number) => [
  expect.stringMatching(new RegExp(`^Earned: Order ${orderNumber} Pending: available from \\d{1,2} \\w{3,4} \\d{4}$`)),
  `+${points}`,
  String(balanceAfter),
];

/** A ledger row as /points shows it, without its date (the first cell). */
const rowOf = (what: string, points: number, balanceAfter: number) => [
  what,
  points > 0 ? `+${points}` : String(points),
  String(balanceAfter),
];

async function hasNoVariants(product: Product): Promise<boolean> {
  const { status, body } = await apiJson<FullProduct>(`/api/products/full/${product.id}`);
  return status === 200 && body.variants.length === 0;
}

/** The first product of `candidates` that has no variants (Add to Cart works without choosing one). */
async function firstPlain(candidates: Product[], what: string): Promise<Product> {
  for (const candidate of candidates) if (await hasNoVariants(candidate)) return candidate;
  throw new Error(`The catalogue has no ${what}`);
}

describe('a member joins, earns, redeems, cancels and goes Premium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let watched: WatchedPage;
  let page: Page;
  let adminContext: BrowserContext;
  let adminPage: Page;
  let shopper: Shopper;
  /** The cheapest redemption product with stock to spare. */
  let reward: Product;
  /** Bought as a Basic member: worth at least the reward's points. */
  let earner: Product;
  /** Bought as a Premium member: $100 or less, so shipping would cost without the plan. */
  let shipper: Product;
  let basicOrder: Order;
  let earned: number;
  let redemption: { id: number; orderNumber: string };
  let rewardStock: number;
  let adminSignedIn = false;

  const fillJoinForm = async (fields: { password: string; confirmPassword: string; card: string }) => {
    await page.locator('#membership-password').fill(fields.password);
    await page.locator('#membership-confirmPassword').fill(fields.confirmPassword);
    await page.locator('#membership-cardNumber').fill(fields.card);
    await page.locator('#membership-cardName').fill('Matilda Quokka');
    await page.locator('#membership-expiryDate').fill(CARD_EXPIRY);
    await page.locator('#membership-cvv').fill('123');
  };
  const joinAlert = () => page.getByRole('region', { name: 'Join now' }).getByRole('alert');
  const becomeMember = () => page.getByRole('button', { name: 'Become a Member', exact: true });

  /** The cart as it is now through checkout with the approved card; returns the new order. */
  const checkout = async (lines: [Product, number][], plan: ShippingPlan): Promise<Order> => {
    const before = (await ordersOf(page)).length;
    await page.goto(`${baseUrl}/checkout`);
    await hydrated(page);
    await waitForStep(page, 'Shipping');
    const expected = priceOrder(
      lines.map(([product, quantity]) => ({ unitPriceCents: unitCents(product), quantity })),
      plan,
    );
    const figures = {
      subtotal: money(expected.subtotalCents),
      gst: money(expected.gstCents),
      shipping: shippingText(expected.shippingCents),
      total: money(expected.totalCents),
    };
    // The summary beside the shipping step already prices shipping by the member's plan.
    await expect.poll(() => checkoutTotals(page), SETTLE).toEqual(figures);
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await waitForStep(page, 'Payment');
    // Joining saved the member's card (it pays the renewals): checkout offers it first.
    const savedCard = page.getByRole('radio', { name: /Visa ending 4242/ });
    await expect.poll(() => savedCard.isChecked(), SETTLE).toBe(true);
    await page.getByRole('radio', { name: 'A new card' }).check();
    await fillCard(page, { number: APPROVE_CARD, name: 'Matilda Quokka' });
    await page.getByRole('button', { name: 'Review Order' }).click();
    await waitForStep(page, 'Confirmation');
    await expect.poll(() => checkoutTotals(page), SETTLE).toEqual(figures);
    expect(await page.getByTestId('checkout-shipping').allTextContents()).toEqual([figures.shipping, figures.shipping]);
    const placeOrder = page.getByRole('button', { name: 'Place Order' });
    await expect.poll(() => placeOrder.isEnabled(), SETTLE).toBe(true);
    await placeOrder.click();
    await waitForStep(page, 'Complete');
    const orderNumber = await page.getByTestId('order-number').textContent();
    const orders = await ordersOf(page);
    expect(orders).toHaveLength(before + 1);
    const order = orders.find((candidate) => candidate.orderNumber === orderNumber)!;
    expect(order.status).toBe('Processing');
    expect(money(Math.round(order.shippingCost * 100))).toBe(money(expected.shippingCents));
    expect(money(Math.round(order.total * 100))).toBe(figures.total);
    await expect.poll(() => headerCartCount(page), SETTLE).toBe('0');
    return order;
  };

  /** The shop ships the order on /admin/orders/:id (a second browser context, the admin's). */
  const fulfil = async (order: Order) => {
    if (adminSignedIn) {
      await adminPage.goto(`${baseUrl}/admin/orders/${order.id}`);
    } else {
      await signIn(adminPage, admin, { redirectTo: `/admin/orders/${order.id}` });
      adminSignedIn = true;
    }
    await hydrated(adminPage);
    await expect
      .poll(() => adminPage.getByRole('heading', { level: 1 }).textContent(), SETTLE)
      .toBe(`Order ${order.orderNumber}`);
    // Issue 22: fulfilling a delivery is shipping it, with a carrier and its tracking number.
    await adminPage.locator('#ship-carrier').selectOption('australia-post');
    await adminPage.locator('#ship-trackingNumber').fill(`AP${order.id}000111`);
    await adminPage.getByRole('button', { name: 'Mark shipped' }).click();
    await expect
      .poll(() => adminPage.getByRole('status').filter({ hasText: 'Marked shipped' }).textContent(), SETTLE)
      .toBe('Marked shipped. The customer has been e-mailed the tracking details.');
  };

  /** Staff grant the shopper points through the admin API (available at once). */
  const grant = async (points: number) => {
    const me = await page.request.get(`${baseUrl}/api/users/summary`);
    expect(me.status()).toBe(200);
    const { id } = (await me.json()) as { id: number };
    const signedIn = await apiJson<{ token: string }>('/api/auth/login', { method: 'POST', body: admin });
    expect(signedIn.status).toBe(200);
    const granted = await apiJson(`/api/admin/users/${id}/points`, {
      method: 'POST',
      token: signedIn.body.token,
      body: { points, reason: GRANT_REASON },
    });
    expect(granted.status).toBe(201);
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    watched = await watchedPage(context);
    page = watched.page;
    // Registered through the context: it is signed in without using a sign-in attempt.
    shopper = await registerShopper('member', context, 'Matilda', 'Quokka');
    adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    adminPage = await adminContext.newPage();

    const listed = await page.request.get(`${baseUrl}/api/products/redemption?limit=100`);
    expect(listed.status()).toBe(200);
    const rewards = ((await listed.json()) as { items: Product[] }).items
      .filter((product) => product.pointsCost !== null && product.stockQuantity >= 3)
      .toSorted((a, b) => a.pointsCost! - b.pointsCost! || a.id - b.id);
    reward = await firstPlain(rewards, 'redemption product with stock');
    const catalogue = (await activeProducts()).filter((product) => product.id !== reward.id);
    earner = await firstPlain(
      catalogue.filter(
        (product) => product.stockQuantity >= 5 && Math.floor(unitCents(product) / 100) >= reward.pointsCost!,
      ),
      'product worth the reward’s points',
    );
    shipper = await firstPlain(
      catalogue.filter(
        (product) =>
          product.id !== earner.id &&
          product.stockQuantity >= 5 &&
          unitCents(product) >= 15_00 &&
          unitCents(product) <= 100_00,
      ),
      'product between $15 and $100',
    );
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('/membership offers both plans with the account’s name and e-mail filled in, and nothing is recorded yet', async () => {
    await page.goto(`${baseUrl}/membership`);
    await hydrated(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Become a Member');
    expect(await page.getByRole('radio', { name: 'Basic · $9.99/month' }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: 'Premium · $19.99/month' }).isChecked()).toBe(false);
    expect(await page.locator('#membership-name').inputValue()).toBe('Matilda Quokka');
    expect(await page.locator('#membership-email').inputValue()).toBe(shopper.user.email);
    expect(await page.locator('#membership-email').getAttribute('readonly')).not.toBeNull();
    expect(await membershipOf(page)).toBeNull();
    expect(await pointsOf(page)).toMatchObject({ balance: 0, entries: [] });
    expect(await menuPoints(page)).toBe('0 points');
  });

  it('a wrong password and then a declined card each say so and record nothing', async () => {
    await page.getByRole('radio', { name: 'Basic · $9.99/month' }).check();
    await fillJoinForm({ password: 'Not-My-Password-91', confirmPassword: 'Not-My-Password-91', card: APPROVE_CARD });
    await becomeMember().click();
    await expect
      .poll(() => page.locator('#membership-password-error').textContent(), SETTLE)
      .toBe('Your password is incorrect');
    expect(await joinAlert().textContent()).toBe('Your password is incorrect');
    expect(await membershipOf(page)).toBeNull();

    await fillJoinForm({ password: shopper.user.password, confirmPassword: shopper.user.password, card: DECLINE_CARD });
    await becomeMember().click();
    await expect.poll(() => joinAlert().textContent(), SETTLE).toBe(DECLINE_TEXT);
    expect(await page.locator('#membership-password-error').count()).toBe(0);
    expect(page.url()).toBe(`${baseUrl}/membership`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Become a Member');
    expect(await membershipOf(page)).toBeNull();
    expect(await pointsOf(page)).toMatchObject({ balance: 0, entries: [] });
    // /welcome, asked for directly, knows the shopper is not a member.
    await page.goto(`${baseUrl}/welcome`);
    await hydrated(page);
    expect(await page.getByText('You are not a member yet', { exact: true }).count()).toBe(1);
  });

  it('the approved card makes a Basic member and lands on /welcome with the plan’s benefits', async () => {
    await page.goto(`${baseUrl}/membership`);
    await hydrated(page);
    await page.getByRole('radio', { name: 'Basic · $9.99/month' }).check();
    await fillJoinForm({ password: shopper.user.password, confirmPassword: shopper.user.password, card: APPROVE_CARD });
    await becomeMember().click();
    await waitForPath(page, '/welcome');
    await hydrated(page);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), SETTLE).toBe('Welcome to Basic');
    expect(await page.getByText('Thanks for joining, Matilda.', { exact: true }).count()).toBe(1);
    const benefits = page
      .getByText('Your Basic benefits', { exact: true })
      .locator('xpath=following-sibling::ul[1]')
      .getByRole('listitem');
    expect((await benefits.allTextContents()).map((text) => text.replace('✓', '').trim())).toEqual([...BASIC.benefits]);
    expect(await page.getByText(/^Your membership renews on \d{1,2} \w+ \d{4}\.$/).count()).toBe(1);
    expect(await membershipOf(page)).toMatchObject({ plan: 'basic', status: 'active' });
    expect(await pointsOf(page)).toMatchObject({ balance: 0, entries: [] });

    // With no points yet, the reward cannot be redeemed.
    await page.goto(`${baseUrl}/product/${reward.id}`);
    await hydrated(page);
    const redeem = page.getByRole('button', {
      name: `Redeem for ${reward.pointsCost!.toLocaleString('en-AU')} points`,
    });
    expect(await redeem.isDisabled()).toBe(true);
    expect(await page.getByText('You have 0 points. Not enough points yet.', { exact: true }).count()).toBe(1);
  });

  it('an order placed as a Basic member earns nothing until it succeeds, then 1 point per dollar', async () => {
    await addFromProductPage(page, earner, 1);
    basicOrder = await checkout([[earner, 1]], 'basic');
    earned = Math.floor(Math.round(basicOrder.subtotal * 100) / 100) * BASIC.pointsPerDollar;
    expect(earned).toBe(Math.floor(unitCents(earner) / 100));
    expect(earned).toBeGreaterThanOrEqual(reward.pointsCost!);

    // Paid, not yet fulfilled: no points.
    expect(await pointsPage(page)).toEqual({ balance: 'Balance: 0 points', rows: [] });
    expect(await page.getByText('No points yet', { exact: true }).count()).toBe(1);

    await fulfil(basicOrder);
    // Pending for the 30-day return window (issue 21): shown, not spendable.
    await expect.poll(async () => (await pointsOf(page)).pending, SETTLE).toBe(earned);
    expect((await pointsOf(page)).balance).toBe(0);
    const pending = await pointsPage(page);
    expect(pending.balance).toBe('Balance: 0 points');
    expect(await page.getByTestId('points-pending').textContent()).toMatch(
      new RegExp(`^Pending: ${earned.toLocaleString('en-AU')} points — available from \\d{1,2} \\w{3,4} \\d{4}$`),
    );
    expect(pending.rows.map((row) => row.slice(1))).toEqual([pendingEarnRow(basicOrder.orderNumber, earned, earned)]);
    expect(
      await page.getByRole('link', { name: `Order ${basicOrder.orderNumber}`, exact: true }).getAttribute('href'),
    ).toBe(`/orders/${basicOrder.id}`);
    expect(await menuPoints(page)).toBe('0 points');

    // Staff grant as many, available at once.
    await grant(earned);
    await expect.poll(async () => (await pointsOf(page)).balance, SETTLE).toBe(earned);
    const shown = await pointsPage(page);
    expect(shown.balance).toBe(`Balance: ${earned.toLocaleString('en-AU')} points`);
    expect(shown.rows.map((row) => row.slice(1))).toEqual([
      rowOf(`Adjusted: ${GRANT_REASON}`, earned, 2 * earned),
      pendingEarnRow(basicOrder.orderNumber, earned, earned),
    ]);
    expect(await menuPoints(page)).toBe(`${earned.toLocaleString('en-AU')} points`);
  });

  it('redeeming the reward takes its points and one unit of stock, and opens the new order', async () => {
    const cost = reward.pointsCost!;
    rewardStock = await stockOf(reward.id);
    await page.goto(`${baseUrl}/product/${reward.id}`);
    await hydrated(page);
    expect(await page.getByText(`You have ${earned.toLocaleString('en-AU')} points.`, { exact: true }).count()).toBe(1);
    const redeem = page.getByRole('button', { name: `Redeem for ${cost.toLocaleString('en-AU')} points` });
    expect(await redeem.isEnabled()).toBe(true);
    await redeem.click();
    await page.waitForURL((url) => /^\/orders\/\d+$/.test(url.pathname), SETTLE);
    await hydrated(page);
    const id = Number(new URL(page.url()).pathname.split('/').at(-1));
    const order = (await ordersOf(page)).find((candidate) => candidate.id === id)!;
    redemption = { id, orderNumber: order.orderNumber };
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), SETTLE)
      .toBe(`Order ${order.orderNumber}`);
    expect(await page.getByTestId('order-status').textContent()).toBe('Processing');
    expect(order.items.map((item) => [item.productId, item.quantity])).toEqual([[reward.id, 1]]);
    expect(order.total).toBe(0);
    expect(order.shippingAddress?.addressLine1).toBe(shopper.user.address.addressLine1);

    await expect.poll(() => stockOf(reward.id), SETTLE).toBe(rewardStock - 1);
    expect((await pointsOf(page)).balance).toBe(earned - cost);
    expect(await menuPoints(page)).toBe(`${(earned - cost).toLocaleString('en-AU')} points`);
    const shown = await pointsPage(page);
    expect(shown.balance).toBe(`Balance: ${(earned - cost).toLocaleString('en-AU')} points`);
    expect(shown.rows.map((row) => row.slice(1))).toEqual([
      rowOf(`Redeemed 1 × ${reward.name}`, -cost, 2 * earned - cost),
      rowOf(`Adjusted: ${GRANT_REASON}`, earned, 2 * earned),
      pendingEarnRow(basicOrder.orderNumber, earned, earned),
    ]);
  });

  it('cancelling the redemption order gives the points and the stock back', async () => {
    const cost = reward.pointsCost!;
    await page.goto(`${baseUrl}/orders/${redemption.id}`);
    await hydrated(page);
    const confirmation = new Promise<string>((resolve) => {
      page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.accept();
      });
    });
    await page.getByRole('button', { name: 'Cancel Order', exact: true }).click();
    expect(await confirmation).toBe('Cancel this order? Your points will be returned.');
    await expect.poll(() => page.getByTestId('order-status').textContent(), SETTLE).toBe('Cancelled');
    // The payment, in points, is refunded: the points come back (below).
    expect(await page.locator('main').getByRole('status').filter({ hasText: 'Order cancelled' }).textContent()).toBe(
      'Order cancelled. Your points have been returned.',
    );
    const cancelled = (await ordersOf(page)).find((candidate) => candidate.id === redemption.id)!;
    expect({ status: cancelled.status, paymentStatus: cancelled.paymentStatus }).toEqual({
      status: 'Cancelled',
      paymentStatus: 'Refunded',
    });

    await expect.poll(() => stockOf(reward.id), SETTLE).toBe(rewardStock);
    expect((await pointsOf(page)).balance).toBe(earned);
    expect(await menuPoints(page)).toBe(`${earned.toLocaleString('en-AU')} points`);
    const shown = await pointsPage(page);
    expect(shown.balance).toBe(`Balance: ${earned.toLocaleString('en-AU')} points`);
    expect(shown.rows.map((row) => row.slice(1))).toEqual([
      rowOf(`Reversed: Order ${redemption.orderNumber} cancelled: points returned`, cost, 2 * earned),
      rowOf(`Redeemed 1 × ${reward.name}`, -cost, 2 * earned - cost),
      rowOf(`Adjusted: ${GRANT_REASON}`, earned, 2 * earned),
      pendingEarnRow(basicOrder.orderNumber, earned, earned),
    ]);
  });

  it('switching to Premium on /membership makes checkout ship free, and the order earns 2 points per dollar', async () => {
    await page.goto(`${baseUrl}/membership`);
    await hydrated(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Membership');
    expect(await page.getByText('You are a Basic member.', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Cancel membership' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Switch to Premium', exact: true }).click();
    await expect
      .poll(() => page.locator('main').getByRole('status').first().textContent(), SETTLE)
      .toBe('You are now on the Premium plan.');
    await expect.poll(() => page.getByText('You are a Premium member.', { exact: true }).count(), SETTLE).toBe(1);
    expect(await page.getByRole('button', { name: 'Switch to Basic', exact: true }).count()).toBe(1);
    expect(await membershipOf(page)).toMatchObject({ plan: 'premium', status: 'active' });

    // Without Premium this cart would pay for shipping: the 'Free' below is the plan's doing.
    const lines: [Product, number][] = [[shipper, 1]];
    const priced = lines.map(([product, quantity]) => ({ unitPriceCents: unitCents(product), quantity }));
    expect(priceOrder(priced, 'basic').shippingCents).toBeGreaterThan(0);
    expect(priceOrder(priced, 'premium').shippingCents).toBe(0);
    await addFromProductPage(page, shipper, 1);
    const order = await checkout(lines, 'premium');
    expect(order.shippingCost).toBe(0);

    await fulfil(order);
    const more = Math.floor(Math.round(order.subtotal * 100) / 100) * PREMIUM.pointsPerDollar;
    // Pending with the Basic order's points; the granted points stay spendable.
    await expect.poll(async () => (await pointsOf(page)).pending, SETTLE).toBe(earned + more);
    expect((await pointsOf(page)).balance).toBe(earned);
    const shown = await pointsPage(page);
    expect(shown.rows[0]?.slice(1)).toEqual(pendingEarnRow(order.orderNumber, more, 2 * earned + more));
  });

  it('the whole journey ran without CSP violations or page errors', () => {
    expect(watched.csp).toEqual([]);
    // The refused join attempts answer 400 (wrong password) and 402 (declined); Chromium logs both.
    const unexpected = watched.errors.filter(
      (error) => !/status of 40[02] \(/.test(error) || !error.startsWith('Failed to load resource'),
    );
    expect(unexpected).toEqual([]);
  });
});
