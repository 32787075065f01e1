import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseUrl,
  hydrated,
  newPage,
  newUser,
  registerViaApi,
  SETTLE,
  signIn,
  submitLogin,
  toggleSavedHeart,
  waitForPath,
} from './account-helpers.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

const WISHLIST_KEY = 'harbour-tools.wishlist.v1';

/** The names of the first `count` products of the /products grid, as a shopper sees them. */
async function gridProductNames(page: Page, count: number): Promise<string[]> {
  const names = await page.locator('main article h3').allTextContents();
  expect(names.length).toBeGreaterThanOrEqual(count);
  return names.slice(0, count).map((name) => name.trim());
}

function heart(scope: Page | Locator, productName: string): Locator {
  return scope.getByRole('button', { name: `Save ${productName} to wishlist`, exact: true });
}

/** The product names listed on /wishlist. */
async function wishlistNames(page: Page): Promise<string[]> {
  const names = await page.locator('main article h3').allTextContents();
  return names.map((name) => name.trim()).toSorted();
}

describe('preferences and wishlist', () => {
  let browser: Browser;
  const user = newUser('wishes', 'Percival', 'Pademelon');

  beforeAll(async () => {
    browser = await launchBrowser();
    await registerViaApi(user);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('saves the e-mail and contact preferences, which are still there after a reload', async () => {
    const { context, page } = await newPage(browser);
    const errors = watchPageErrors(page);
    await signIn(page, user, { redirectTo: '/preferences' });
    const orders = page.getByRole('checkbox', { name: /Order updates/ });
    const marketing = page.getByRole('checkbox', { name: /Deals and new arrivals/ });
    const sms = page.getByRole('radio', { name: 'Text message (SMS)' });
    const email = page.getByRole('radio', { name: 'E-mail' });
    // Flip every choice from what a new account starts with.
    const startedWith = { orders: await orders.isChecked(), marketing: await marketing.isChecked() };
    expect(await sms.isChecked()).toBe(false);
    await orders.setChecked(!startedWith.orders);
    await marketing.setChecked(!startedWith.marketing);
    await sms.check();
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect
      .poll(() => page.locator('main').getByRole('status').first().textContent(), SETTLE)
      .toBe('Preferences saved');

    await page.reload();
    await hydrated(page);
    expect(await orders.isChecked()).toBe(!startedWith.orders);
    expect(await marketing.isChecked()).toBe(!startedWith.marketing);
    expect(await sms.isChecked()).toBe(true);
    expect(await email.isChecked()).toBe(false);

    // And back again: both directions are stored.
    await orders.setChecked(startedWith.orders);
    await email.check();
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect
      .poll(() => page.locator('main').getByRole('status').first().textContent(), SETTLE)
      .toBe('Preferences saved');
    await page.reload();
    await hydrated(page);
    expect(await orders.isChecked()).toBe(startedWith.orders);
    expect(await marketing.isChecked()).toBe(!startedWith.marketing);
    expect(await email.isChecked()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  describe('wishlist', () => {
    let first: string;
    let second: string;
    let here: { context: BrowserContext; page: Page };

    it('merges a heart made while signed out into the account at sign-in', async () => {
      here = await newPage(browser);
      const { page } = here;
      const errors = watchPageErrors(page);
      await page.goto(`${baseUrl}/products`);
      await hydrated(page);
      [first, second] = (await gridProductNames(page, 2)) as [string, string];
      const button = heart(page, first).first();
      expect(await button.getAttribute('aria-pressed')).toBe('false');
      await button.click();
      await expect.poll(() => button.getAttribute('aria-pressed'), SETTLE).toBe('true');
      expect(await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]').length, WISHLIST_KEY)).toBe(1);
      // Kept in this browser across a reload while signed out.
      await page.reload();
      await hydrated(page);
      await expect.poll(() => heart(page, first).first().getAttribute('aria-pressed'), SETTLE).toBe('true');

      // The header's Login returns here after sign-in; then /wishlist has the heart.
      await page.locator('header').getByRole('link', { name: 'Login' }).click();
      await waitForPath(page, `/login?redirectTo=${encodeURIComponent('/products')}`);
      const merged = page.waitForResponse(
        (response) => new URL(response.url()).pathname === '/wishlist.data' && response.request().method() === 'POST',
        SETTLE,
      );
      await submitLogin(page, user.email, user.password);
      await waitForPath(page, '/products');
      expect((await merged).status()).toBe(200);
      await page.goto(`${baseUrl}/wishlist`);
      await hydrated(page);
      await expect.poll(() => wishlistNames(page), SETTLE).toEqual([first]);
      // The browser's signed-out copy was emptied once merged.
      expect(await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]').length, WISHLIST_KEY)).toBe(0);
      await page.reload();
      await hydrated(page);
      expect(await wishlistNames(page)).toEqual([first]);
      expect(errors).toEqual([]);
    });

    it('keeps a heart made while signed in across a reload and in another browser', async () => {
      const { page } = here;
      await page.goto(`${baseUrl}/products`);
      await hydrated(page);
      // The server already draws the merged heart filled.
      expect(await heart(page, first).first().getAttribute('aria-pressed')).toBe('true');
      await toggleSavedHeart(page, heart(page, second).first());
      await expect.poll(() => heart(page, second).first().getAttribute('aria-pressed'), SETTLE).toBe('true');
      // Saved to the account, not to this browser.
      expect(await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]').length, WISHLIST_KEY)).toBe(0);
      await page.reload();
      await hydrated(page);
      expect(await heart(page, second).first().getAttribute('aria-pressed')).toBe('true');
      await page.goto(`${baseUrl}/wishlist`);
      await hydrated(page);
      expect(await wishlistNames(page)).toEqual([first, second].toSorted());

      const other = await newPage(browser);
      await signIn(other.page, user, { redirectTo: '/wishlist' });
      await expect.poll(() => wishlistNames(other.page), SETTLE).toEqual([first, second].toSorted());
      await other.context.close();
    });

    it('takes a product off with its heart on /wishlist', async () => {
      const { page } = here;
      await page.goto(`${baseUrl}/wishlist`);
      await hydrated(page);
      const button = heart(page.locator('main'), first);
      expect(await button.getAttribute('aria-pressed')).toBe('true');
      await toggleSavedHeart(page, button);
      await page.reload();
      await hydrated(page);
      expect(await wishlistNames(page)).toEqual([second]);

      await toggleSavedHeart(page, heart(page.locator('main'), second));
      await page.reload();
      await hydrated(page);
      expect(await wishlistNames(page)).toEqual([]);
      expect(await page.getByText('Your wishlist is empty').isVisible()).toBe(true);
      await here.context.close();
    });
  });
});
