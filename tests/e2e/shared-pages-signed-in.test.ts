import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountButton,
  baseUrl,
  expectCleanPage,
  hydrated,
  newPage,
  newUser,
  registerViaApi,
  SETTLE,
  signIn,
  signOutFromHeader,
  toggleSavedHeart,
  watchedPage,
} from './account-helpers.ts';
import { launchBrowser } from './browser.ts';

/*
 * Issue 13: catalogue pages are the same bytes for everyone, signed-in shoppers included (the
 * server keeps one copy). A signed-in shopper's page then asks for its account part
 * (GET /api/users/summary) and the header, points and hearts fill in; a signed-out visitor's
 * page asks for nothing.
 */

interface CardProduct {
  id: number;
  name: string;
}

/** Asks for `path` with this browser's user agent until the page cache holds it. */
async function cachedPath(page: Page, path: string): Promise<void> {
  const userAgent = await page.evaluate(() => navigator.userAgent);
  await expect
    .poll(async () => {
      const answer = await fetch(`${baseUrl}${path}`, { headers: { 'user-agent': userAgent } });
      await answer.arrayBuffer();
      return answer.headers.get('x-page-cache');
    }, SETTLE)
    .toBe('HIT');
}

/**
 * A product whose page is in the page cache for this browser's user agent (headless Chromium
 * counts as a crawler, which has copies of its own), asked for until the server says HIT.
 */
async function cachedProduct(page: Page, offset: number): Promise<CardProduct> {
  const answer = await fetch(`${baseUrl}/api/products?limit=1&page=${offset}&inStock=true`);
  const [product] = ((await answer.json()) as { items: CardProduct[] }).items;
  if (!product) throw new Error('no product to show');
  await cachedPath(page, `/product/${product.id}`);
  return product;
}

/** Holds this page's account summary requests until the returned function is called. */
async function holdSummary(page: Page): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/users/summary', async (route) => {
    await held;
    await route.continue();
  });
  return () => release();
}

function summaryRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/users/summary') seen.push(request);
  });
  return seen;
}

/** The header's Login link (desktop), found whether or not it is hidden (a hidden one has no role to find it by). */
function headerLogin(page: Page) {
  return page.locator('header a[data-signed-out-only]').first();
}

describe('catalogue pages from the shared cache, signed in', () => {
  let browser: Browser;
  const user = newUser('sharedpages', 'Winifred', 'Wombat');

  beforeAll(async () => {
    browser = await launchBrowser();
    await registerViaApi(user);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('fills in the signed-in header, points and wishlist hearts on a kept page', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, user);
    await cachedPath(page, '/products');

    const watched = await watchedPage(context);
    const asked = summaryRequests(watched.page);
    const document = await watched.page.goto(`${baseUrl}/products`);
    expect(document?.headers()['x-page-cache']).toBe('HIT');
    expect(await document?.text()).not.toContain(user.firstName);
    await hydrated(watched.page);
    expect(asked).toHaveLength(1);
    await expect.poll(() => accountButton(watched.page).textContent(), SETTLE).toContain(user.firstName);
    expect(await headerLogin(watched.page).count()).toBe(0);

    // Save the first card's product, then load the kept page again: its heart is filled in.
    const name = (await watched.page.locator('main article h3').first().textContent())?.trim() ?? '';
    const heart = () => watched.page.getByRole('button', { name: `Save ${name} to wishlist`, exact: true }).first();
    expect(await heart().getAttribute('aria-pressed')).toBe('false');
    await toggleSavedHeart(watched.page, heart());
    const again = await watched.page.reload();
    expect(again?.headers()['x-page-cache']).toBe('HIT');
    await hydrated(watched.page);
    expect(asked).toHaveLength(2);
    await expect.poll(() => heart().getAttribute('aria-pressed'), SETTLE).toBe('true');
    await accountButton(watched.page).click();
    await expect.poll(() => watched.page.getByTestId('menu-points').textContent(), SETTLE).toMatch(/^[\d,]+ points$/);
    await expectCleanPage(watched, 'a kept listing page, signed in');
    await context.close();
  });

  it('does not offer Login to a signed-in shopper while the account part is on its way', async () => {
    const { context, page } = await newPage(browser);
    const product = await cachedProduct(page, 4);
    await signIn(page, user);
    const release = await holdSummary(page);
    await page.goto(`${baseUrl}/product/${product.id}`);
    await page.waitForFunction(() => document.documentElement.dataset.account === 'pending');
    // The link is in the kept page, hidden until the shopper's account part arrives.
    expect(await headerLogin(page).count()).toBe(1);
    expect(await headerLogin(page).isVisible()).toBe(false);
    release();
    await hydrated(page);
    await expect.poll(() => accountButton(page).textContent(), SETTLE).toContain(user.firstName);
    expect(await page.evaluate(() => document.documentElement.dataset.account)).toBeUndefined();
    await context.close();
  });

  it("leaves a signed-in shopper's cart alone on a kept page: no emptying, no merge", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, user);
    await cachedPath(page, '/products');
    const owner = () => page.evaluate(() => window.localStorage.getItem('harbour-tools.cart.owner'));
    await expect.poll(owner, SETTLE).not.toBeNull();
    const before = await owner();
    const cartWrites: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      // A quote is a read that happens to be a POST; merging and saving change the account's cart.
      if (path.startsWith('/api/cart') && path !== '/api/cart/quote' && request.method() !== 'GET') {
        cartWrites.push(`${request.method()} ${path}`);
      }
    });
    const document = await page.goto(`${baseUrl}/products`);
    expect(document?.headers()['x-page-cache']).toBe('HIT');
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    expect(cartWrites).toEqual([]);
    expect(await owner()).toBe(before);
    await context.close();
  });

  it('still fills in the account when the shopper navigates before it arrived', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, user);
    await cachedPath(page, '/products');
    await cachedPath(page, '/deals');
    const release = await holdSummary(page);
    await page.goto(`${baseUrl}/products`);
    await page.waitForFunction(() => document.documentElement.dataset.account === 'pending');
    // Follow a link once React has hydrated it (its props are on the element), while the summary
    // is held. The router's context alone is no sign: the document writes it before any module
    // runs, and a click before hydration went to the server as a new document (1 run in 3 under load).
    const deals = page.locator('header').getByRole('link', { name: 'Deals', exact: true });
    await expect
      .poll(() => deals.evaluate((link) => Object.keys(link).some((key) => key.startsWith('__reactProps'))), SETTLE)
      .toBe(true);
    await deals.click();
    await expect.poll(() => new URL(page.url()).pathname, SETTLE).toBe('/deals');
    await hydrated(page);
    await expect.poll(() => accountButton(page).textContent(), SETTLE).toContain(user.firstName);
    expect(await page.evaluate(() => document.documentElement.dataset.account)).toBeUndefined();
    release();
    await context.close();
  });

  it('asks for nothing when signed out, and forgets a hint whose session has ended', async () => {
    const { context, page } = await newPage(browser);
    const product = await cachedProduct(page, 5);
    const asked = summaryRequests(page);
    await page.goto(`${baseUrl}/product/${product.id}`);
    await hydrated(page);
    expect(await headerLogin(page).isVisible()).toBe(true);
    expect(asked).toHaveLength(0);

    // Signed in, then out: the hint goes with the session cookie.
    await signIn(page, user);
    expect((await context.cookies(baseUrl)).map((cookie) => cookie.name)).toContain('harbour_signed_in');
    await signOutFromHeader(page);
    expect((await context.cookies(baseUrl)).map((cookie) => cookie.name)).not.toContain('harbour_signed_in');
    await page.goto(`${baseUrl}/product/${product.id}`);
    await hydrated(page);
    expect(asked).toHaveLength(0);

    // A hint left behind by a session that ended elsewhere: one question, then it is gone.
    await signIn(page, user);
    await context.clearCookies({ name: 'harbour_session' });
    await page.goto(`${baseUrl}/product/${product.id}`);
    await hydrated(page);
    expect(asked).toHaveLength(1);
    expect(await headerLogin(page).isVisible()).toBe(true);
    expect((await context.cookies(baseUrl)).map((cookie) => cookie.name)).not.toContain('harbour_signed_in');
    await context.close();
  });
});
