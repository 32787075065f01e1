import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseUrl,
  expectCleanPage,
  hydrated,
  newUser,
  registerViaApi,
  SETTLE,
  signIn,
  submitLogin,
  watchedPage,
} from './account-helpers.ts';
import { launchBrowser } from './browser.ts';

/** Pages a signed-out visitor sees. */
const SIGNED_OUT_PAGES = ['/login', '/register', '/forgot-password', '/reset-password?token=x', '/reset-password'];

/** Guarded pages, in the states that draw different markup. */
const SIGNED_IN_PAGES = [
  '/profile',
  '/account-settings?tab=profile',
  '/account-settings?tab=password',
  '/account-settings?tab=danger',
  '/addresses',
  '/addresses?edit=new',
  '/payment-methods',
  '/payment-methods?edit=new',
  '/preferences',
  '/wishlist',
  '/membership',
  '/welcome',
];

const SHOTS_DIR = '/tmp/account-shots';

describe('account pages: CSP, page errors and accessibility', () => {
  let browser: Browser;
  let signedOut: BrowserContext;
  let signedIn: BrowserContext;
  const user = newUser('quality', 'Evangeline', 'Cassowary');

  beforeAll(async () => {
    browser = await launchBrowser();
    await registerViaApi(user);
    signedOut = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    signedIn = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signedIn.newPage();
    await signIn(page, user);
    // A saved card, so /payment-methods draws a card and not only its empty state.
    await page.goto(`${baseUrl}/payment-methods?edit=new`);
    await hydrated(page);
    await page.locator('#payment-last4Digits').fill('4242');
    await page.locator('#payment-expiryMonth').selectOption('04');
    await page.locator('#payment-expiryYear').selectOption(String(new Date().getFullYear() + 1));
    await page.getByRole('button', { name: 'Save Payment Method' }).click();
    await page.waitForURL(`${baseUrl}/payment-methods?notice=saved`, SETTLE);
    await page.close();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(SIGNED_OUT_PAGES)(
    '%s (signed out) has no CSP violation, no page error, no serious axe finding',
    async (path) => {
      const watched = await watchedPage(signedOut);
      const response = await watched.page.goto(`${baseUrl}${path}`);
      expect(response?.status()).toBe(200);
      await hydrated(watched.page);
      await expectCleanPage(watched, path);
      await watched.page.close();
    },
  );

  it.each(SIGNED_IN_PAGES)(
    '%s (signed in) has no CSP violation, no page error, no serious axe finding',
    async (path) => {
      const watched = await watchedPage(signedIn);
      const response = await watched.page.goto(`${baseUrl}${path}`);
      expect(response?.status()).toBe(200);
      expect(new URL(watched.page.url()).pathname).toBe(path.split('?')[0]);
      await hydrated(watched.page);
      await expectCleanPage(watched, path);
      await watched.page.close();
    },
  );

  it('stays clean with the error states drawn (login failure, registration field errors, the account menu open)', async () => {
    const login = await watchedPage(signedOut);
    await login.page.goto(`${baseUrl}/login`);
    await submitLogin(login.page, user.email, 'not-the-password');
    await expect.poll(() => login.page.locator('main').getByRole('alert').count(), SETTLE).toBe(1);
    // The 401 of the failed sign-in is expected; anything else is not.
    login.errors.splice(0, login.errors.length, ...login.errors.filter((error) => !error.includes('status of 401')));
    await expectCleanPage(login, '/login after a failed sign-in');
    await login.page.close();

    const register = await watchedPage(signedOut);
    await register.page.goto(`${baseUrl}/register`);
    await hydrated(register.page);
    await register.page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => register.page.locator('[aria-invalid="true"]').count(), SETTLE).toBeGreaterThan(5);
    register.errors.splice(
      0,
      register.errors.length,
      ...register.errors.filter((error) => !error.includes('status of 400')),
    );
    await expectCleanPage(register, '/register with field errors');
    await register.page.close();

    const menu = await watchedPage(signedIn);
    await menu.page.goto(`${baseUrl}/profile`);
    await hydrated(menu.page);
    await menu.page.getByTestId('account-menu-button').click();
    await expect
      .poll(() => menu.page.getByRole('link', { name: 'Payment Methods' }).first().isVisible(), SETTLE)
      .toBe(true);
    await expectCleanPage(menu, '/profile with the account menu open');
    await menu.page.close();
  });

  it('takes screenshots of login, register, profile, account settings and addresses at 390 and 1280 px', async () => {
    mkdirSync(SHOTS_DIR, { recursive: true });
    const pages: [name: string, path: string, context: BrowserContext][] = [
      ['login', '/login', signedOut],
      ['register', '/register', signedOut],
      ['profile', '/profile', signedIn],
      ['account-settings', '/account-settings', signedIn],
      ['account-settings-password', '/account-settings?tab=password', signedIn],
      ['addresses', '/addresses', signedIn],
      ['addresses-new', '/addresses?edit=new', signedIn],
    ];
    for (const width of [390, 1280]) {
      for (const [name, path, context] of pages) {
        const page = await context.newPage();
        await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
        await page.goto(`${baseUrl}${path}`);
        await hydrated(page);
        await page.waitForLoadState('networkidle');
        await page.evaluate(() => document.fonts.ready);
        await page.screenshot({ path: `${SHOTS_DIR}/${name}-${width}.png`, fullPage: true });
        // Nothing sticks out sideways on a phone.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} at ${width} px is wider than the screen`).toBeLessThanOrEqual(0);
        await page.close();
      }
    }
  });
});
