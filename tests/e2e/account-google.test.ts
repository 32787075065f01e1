import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { accountButton, baseUrl, hydrated, newPage, SETTLE, sessionCookie, waitForPath } from './account-helpers.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

const googleUser = inject('googleUser');
const googleIssuer = inject('googleIssuer');

describe('Continue with Google (against a local OpenID Connect provider)', () => {
  let browser: Browser;
  /** The id of the account the first Google sign-in created. */
  let accountId: number;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs in through the provider with PKCE, state and nonce, as the Google user, and returns to redirectTo', async () => {
    const { context, page } = await newPage(browser);
    const errors = watchPageErrors(page);
    const authorizeRequests: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === new URL(googleIssuer).origin && url.pathname.includes('authorize'))
        authorizeRequests.push(url);
    });

    await page.goto(`${baseUrl}/login?redirectTo=${encodeURIComponent('/wishlist')}`);
    await hydrated(page);
    const google = page.getByRole('link', { name: 'Continue with Google' });
    expect(await google.isVisible()).toBe(true);
    await google.click();
    await waitForPath(page, '/wishlist');
    await accountButton(page).waitFor({ state: 'attached', ...SETTLE });
    expect(await accountButton(page).textContent()).toContain(googleUser.givenName);

    // The browser really went through the provider, with the protections of a code flow.
    expect(authorizeRequests).toHaveLength(1);
    const authorize = authorizeRequests[0]!.searchParams;
    expect(authorize.get('response_type')).toBe('code');
    expect(authorize.get('client_id')).toBe('harbour-e2e-client');
    expect(authorize.get('redirect_uri')).toBe(`${baseUrl}/auth/google/callback`);
    expect(authorize.get('code_challenge_method')).toBe('S256');
    expect(authorize.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorize.get('state')).toBeTruthy();
    expect(authorize.get('nonce')).toBeTruthy();
    expect(authorize.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));

    // Signed in with an httpOnly session cookie; the short-lived sign-in cookie is gone.
    const cookie = await sessionCookie(context);
    expect(cookie?.httpOnly).toBe(true);
    expect((await context.cookies(baseUrl)).map((entry) => entry.name)).not.toContain('harbour_oauth');

    await page.goto(`${baseUrl}/profile`);
    await hydrated(page);
    expect(await page.getByTestId('profile-name').textContent()).toBe(
      `${googleUser.givenName} ${googleUser.familyName}`,
    );
    expect(await page.getByRole('region', { name: 'Your details' }).textContent()).toContain(googleUser.email);
    const profile = await fetch(`${baseUrl}/api/users/profile`, {
      headers: { authorization: `Bearer ${cookie!.value}` },
    });
    accountId = ((await profile.json()) as { id: number }).id;
    expect(accountId).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('signs the same Google user into the same account the next time', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/login`);
    await hydrated(page);
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await waitForPath(page, '/profile');
    await expect
      .poll(() => page.getByTestId('profile-name').textContent(), SETTLE)
      .toBe(`${googleUser.givenName} ${googleUser.familyName}`);
    expect(await page.getByRole('region', { name: 'Your details' }).textContent()).toContain(googleUser.email);
    // The account the first sign-in created, found again by Google's subject.
    const session = await sessionCookie(context);
    const profile = await fetch(`${baseUrl}/api/users/profile`, {
      headers: { authorization: `Bearer ${session!.value}` },
    });
    expect(profile.status).toBe(200);
    expect(await profile.json()).toMatchObject({
      id: accountId,
      email: googleUser.email,
      firstName: googleUser.givenName,
    });
    await context.close();
  });

  it('refuses a callback that was not started here (no state cookie, forged code)', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/auth/google/callback?code=forged&state=forged`);
    await waitForPath(page, '/login?notice=google');
    await hydrated(page);
    expect(await page.locator('main').getByRole('status').first().textContent()).toBe(
      'Google sign-in did not complete. Please try again or sign in with your e-mail.',
    );
    expect(await sessionCookie(context)).toBeUndefined();
    await context.close();
  });

  it('refuses a callback whose state does not match the one this browser started with', async () => {
    const { context, page } = await newPage(browser);
    /** Starts a sign-in in this context (its state cookie is kept) and returns the provider's answer. */
    const providerAnswer = async (): Promise<URL> => {
      const start = await context.request.get(`${baseUrl}/auth/google`, { maxRedirects: 0 });
      expect(start.status()).toBe(302);
      const authorize = await context.request.get(start.headers().location!, { maxRedirects: 0 });
      expect(authorize.status()).toBe(302);
      const callback = new URL(authorize.headers().location!, googleIssuer);
      expect(`${callback.origin}${callback.pathname}`).toBe(`${baseUrl}/auth/google/callback`);
      return callback;
    };

    const tampered = await providerAnswer();
    tampered.searchParams.set('state', 'tampered');
    await page.goto(tampered.href);
    await waitForPath(page, '/login?notice=google');
    expect(await sessionCookie(context)).toBeUndefined();

    // The same steps with the provider's answer untouched do sign in.
    const genuine = await providerAnswer();
    await page.goto(genuine.href);
    await waitForPath(page, '/profile');
    expect(await sessionCookie(context)).toBeDefined();
    await context.close();
  });
});
