import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseUrl,
  expectCleanPage,
  hydrated,
  newUser,
  registerViaApi,
  SETTLE,
  signIn,
  type TestUser,
  watchedPage,
} from './account-helpers.ts';
import { launchBrowser } from './browser.ts';

/** Joins a plan through the API with the approve card, signed in by the registration's token. */
async function joinViaApi(user: TestUser, plan: 'basic' | 'premium'): Promise<void> {
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  const { token } = (await login.json()) as { token: string };
  const joined = await fetch(`${baseUrl}/api/membership`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      plan,
      password: user.password,
      cardData: { Number: '4242 4242 4242 4242', Expiry: '12/39', Cvc: '123', Name: 'Test Member' },
    }),
  });
  if (joined.status !== 201) throw new Error(`Joining answered ${joined.status}: ${await joined.text()}`);
}

describe('membership in the account area', () => {
  let browser: Browser;
  const user = newUser('member-account');

  beforeAll(async () => {
    browser = await launchBrowser();
    await registerViaApi(user);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the plan and the points on the profile, and switches or cancels from account settings', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const watched = await watchedPage(context);
    const { page } = watched;
    await signIn(page, user);
    await expect.poll(() => page.locator('main').textContent(), SETTLE).toContain('Not a member');
    expect(await page.getByTestId('profile-points').textContent()).toContain('0');

    await joinViaApi(user, 'basic');
    await page.goto(`${baseUrl}/profile`);
    await hydrated(page);
    expect(await page.locator('main').textContent()).toContain('Basic');

    await page.goto(`${baseUrl}/account-settings?tab=membership`);
    await hydrated(page);
    expect(await page.getByTestId('settings-membership').textContent()).toMatch(
      /^Basic plan, \$9\.99\/month\. Renews on /,
    );
    await expectCleanPage(watched, 'the membership tab');
    await page.getByRole('button', { name: 'Switch to Premium' }).click();
    await expect.poll(() => page.locator('main').textContent(), SETTLE).toContain('You are now on the Premium plan.');

    await page.goto(`${baseUrl}/account-settings?tab=membership`);
    await hydrated(page);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Cancel membership' }).click();
    await expect.poll(() => page.locator('main').textContent(), SETTLE).toContain('Your membership ends on');
    await page.goto(`${baseUrl}/account-settings?tab=membership`);
    await hydrated(page);
    expect(await page.getByTestId('settings-membership').textContent()).toMatch(
      /^Premium plan, \$19\.99\/month\. Ends on /,
    );
    await context.close();
  });
});
