import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountButton,
  baseUrl,
  hydrated,
  newPage,
  newUser,
  pathOf,
  registerViaApi,
  SETTLE,
  sessionCookie,
  signIn,
  submitLogin,
  waitForPath,
} from './account-helpers.ts';
import { launchBrowser } from './browser.ts';

/** The guarded pages of this issue (spec-decisions "Accounts and access"), with the heading each shows. */
const GUARDED: [path: string, heading: string][] = [
  ['/profile', 'User Profile'],
  ['/account-settings', 'Account Settings'],
  ['/addresses', 'Addresses'],
  ['/payment-methods', 'Payment Methods'],
  ['/preferences', 'Preferences'],
  ['/membership', 'Become a Member'],
  ['/welcome', 'Welcome'],
  ['/wishlist', 'Wishlist'],
  // The query string comes back too.
  ['/account-settings?tab=password', 'Account Settings'],
];

describe('account guard and security', () => {
  let browser: Browser;
  const user = newUser('guard', 'Ignatius', 'Wombat');

  beforeAll(async () => {
    browser = await launchBrowser();
    await registerViaApi(user);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(GUARDED)('sends a signed-out visitor of %s to sign in, then back there', async (path, heading) => {
    const { context, page } = await newPage(browser);
    const response = await page.goto(`${baseUrl}${path}`);
    expect(response?.status()).toBe(200);
    await waitForPath(page, `/login?redirectTo=${encodeURIComponent(path)}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Login');
    expect(await page.locator('input[name="redirectTo"]').inputValue()).toBe(path);
    await submitLogin(page, user.email, user.password);
    await waitForPath(page, path);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), SETTLE).toBe(heading);
    expect(await accountButton(page).textContent()).toContain(user.firstName);
    await context.close();
  });

  it('does not render a guarded page to a signed-out visitor, even without JavaScript', async () => {
    for (const [path] of GUARDED) {
      const response = await fetch(`${baseUrl}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location'), path).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
  });

  it.each(['//evil.example', 'https://evil.example/profile', '/\\evil.example'])(
    'ignores a return target off the site (%s) and lands on /profile',
    async (target) => {
      const { context, page } = await newPage(browser);
      await page.goto(`${baseUrl}/login?redirectTo=${encodeURIComponent(target)}`);
      await hydrated(page);
      expect(await page.locator('input[name="redirectTo"]').inputValue()).toBe('/profile');
      await submitLogin(page, user.email, user.password);
      await waitForPath(page, '/profile');
      expect(new URL(page.url()).origin).toBe(baseUrl);
      // A signed-in visitor sent to /login with such a target is not sent off the site either.
      await page.goto(`${baseUrl}/login?redirectTo=${encodeURIComponent(target)}`);
      await waitForPath(page, '/profile');
      expect(new URL(page.url()).origin).toBe(baseUrl);
      await context.close();
    },
  );

  it('checks the posted return target on the server too (a tampered hidden field)', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/login?redirectTo=%2Fwishlist`);
    await hydrated(page);
    // Tampered at the moment of submitting: React puts a controlled field back on any re-render,
    // so an edit made earlier could be undone before the form is read.
    await page.locator('input[name="redirectTo"]').evaluate((input) => {
      const field = input as HTMLInputElement;
      field.form!.addEventListener(
        'submit',
        () => {
          field.value = '//evil.example/steal';
        },
        { capture: true },
      );
    });
    await submitLogin(page, user.email, user.password);
    await waitForPath(page, '/profile');
    expect(new URL(page.url()).origin).toBe(baseUrl);
    await context.close();
  });

  it('sends pages with a nonce-based Content-Security-Policy, nosniff and the referrer policy', async () => {
    const { context, page } = await newPage(browser);
    const response = await page.goto(`${baseUrl}/login`);
    const headers = response!.headers();
    const csp = headers['content-security-policy'] ?? '';
    const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    const nonce = /'nonce-([^']+)'/.exec(scriptSrc)?.[1];
    expect(nonce, csp).toBeTruthy();
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    // The page's inline scripts carry this response's nonce (the browser hides the attribute's value from the DOM).
    const html = await response!.text();
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((match) => match[1]!);
    expect(inline.length).toBeGreaterThan(0);
    for (const attributes of inline) expect(attributes).toContain(`nonce="${nonce}"`);
    // Each response has its own nonce.
    const again = await fetch(`${baseUrl}/login`);
    expect(again.headers.get('content-security-policy')).not.toContain(`'nonce-${nonce}'`);
    await context.close();
  });

  it('keeps the session in an httpOnly, SameSite=Lax cookie that scripts cannot read or find in storage', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, user);
    const cookie = await sessionCookie(context);
    expect(cookie).toBeDefined();
    expect(cookie!.httpOnly).toBe(true);
    expect(cookie!.sameSite).toBe('Lax');
    expect(cookie!.path).toBe('/');
    // Plain http in this test: not Secure (it is Secure and __Host- prefixed behind https).
    expect(cookie!.secure).toBe(false);
    // A month, not a browser session.
    expect(cookie!.expires * 1000).toBeGreaterThan(Date.now() + 25 * 24 * 3600 * 1000);
    expect(await page.evaluate(() => document.cookie)).not.toContain(cookie!.value);
    const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }]));
    expect(stored).not.toContain(cookie!.value);
    expect(await page.content()).not.toContain(cookie!.value);
    // A guarded page is never served from a cache without asking the shop first.
    const response = await page.goto(`${baseUrl}/profile`);
    const cacheControl = response?.headers()['cache-control'] ?? '';
    expect(cacheControl).toMatch(/no-cache|no-store/);
    expect(cacheControl).not.toMatch(/public|max-age=[1-9]/);
    await context.close();
  });

  it('refuses a sign-in form posted from another site', async () => {
    const response = await fetch(`${baseUrl}/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      body: new URLSearchParams({ email: user.email, password: user.password }),
      redirect: 'manual',
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('shows the header Login link with a return target on any page a signed-out visitor is on', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/products?sort=price`);
    await hydrated(page);
    await page.locator('header').getByRole('link', { name: 'Login' }).click();
    await waitForPath(page, `/login?redirectTo=${encodeURIComponent('/products?sort=price')}`);
    expect(pathOf(page)).toContain('/login');
    await expect.poll(() => page.locator('input[name="redirectTo"]').inputValue(), SETTLE).toBe('/products?sort=price');
    await context.close();
  });
});
