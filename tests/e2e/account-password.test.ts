import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountButton,
  baseUrl,
  hydrated,
  isSignedIn,
  newPage,
  newUser,
  nextResetLink,
  pathOf,
  registerViaApi,
  resetLinks,
  SETTLE,
  signIn,
  submitLogin,
  waitForPath,
} from './account-helpers.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

const INVALID_CREDENTIALS = 'Invalid email or password';

/** Tries to sign in on a fresh /login and returns the page's alert text ('' when it signed in). */
async function attemptSignIn(page: Page, email: string, password: string): Promise<string> {
  await page.goto(`${baseUrl}/login`);
  await submitLogin(page, email, password);
  const alert = page.locator('main').getByRole('alert').first();
  await expect.poll(async () => pathOf(page) === '/profile' || (await alert.count()) > 0, SETTLE).toBe(true);
  return pathOf(page) === '/profile' ? '' : ((await alert.textContent()) ?? '');
}

describe('passwords: forgotten and changed', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('resets a forgotten password by the e-mailed link, ending every session, once only', async () => {
    const user = newUser('reset', 'Ophelia', 'Possum');
    await registerViaApi(user);
    // A device signed in before the reset.
    const before = await newPage(browser);
    await signIn(before.page, user);

    const { context, page } = await newPage(browser);
    const errors = watchPageErrors(page);
    await page.goto(`${baseUrl}/login`);
    await hydrated(page);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await waitForPath(page, '/forgot-password');
    await hydrated(page);
    const mailsBefore = resetLinks(user.email).length;
    // Typed in another case: the account is still found.
    await page.locator('#forgot-email').fill(user.email.toUpperCase());
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect
      .poll(() => page.locator('main').getByRole('status').first().textContent(), SETTLE)
      .toContain('If an account exists for that email, we have sent a link to reset its password.');

    const link = await nextResetLink(user.email, mailsBefore);
    expect(link.startsWith(`${baseUrl}/reset-password?token=`), link).toBe(true);
    await page.goto(link);
    await hydrated(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Reset Password');
    const newPassword = 'Echidna-Compass-58';

    // The two entries must match.
    await page.locator('#reset-newPassword').fill(newPassword);
    await page.locator('#reset-confirmPassword').fill(`${newPassword}x`);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect
      .poll(() => page.locator('#reset-confirmPassword-error').textContent(), SETTLE)
      .toBe('Passwords do not match');

    await page.locator('#reset-newPassword').fill(newPassword);
    await page.locator('#reset-confirmPassword').fill(newPassword);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await waitForPath(page, '/login?notice=reset');
    await expect
      .poll(() => page.locator('main').getByRole('status').first().textContent(), SETTLE)
      .toBe('Your password has been reset. Please sign in with your new password.');
    expect(errors.filter((error) => !error.includes('status of 400'))).toEqual([]);

    // The device signed in before is signed out now.
    await before.page.goto(`${baseUrl}/profile`);
    await waitForPath(before.page, '/login?redirectTo=%2Fprofile');
    await hydrated(before.page);
    expect(await accountButton(before.page).count()).toBe(0);

    // The old password no longer works; the new one does.
    expect(await attemptSignIn(page, user.email, user.password)).toBe(INVALID_CREDENTIALS);
    expect(await attemptSignIn(page, user.email, newPassword)).toBe('');
    await expect.poll(() => accountButton(page).textContent(), SETTLE).toContain(user.firstName);

    // The link works once.
    const { context: later, page: again } = await newPage(browser);
    await again.goto(link);
    await hydrated(again);
    await again.locator('#reset-newPassword').fill('Another-Wallaby-91');
    await again.locator('#reset-confirmPassword').fill('Another-Wallaby-91');
    await again.getByRole('button', { name: 'Reset Password' }).click();
    await expect
      .poll(() => again.locator('main').getByRole('alert').first().textContent(), SETTLE)
      .toBe('This reset link is invalid or has expired. Please request a new one.');
    expect(await again.getByRole('link', { name: 'Request a new link' }).isVisible()).toBe(true);
    expect(await attemptSignIn(again, user.email, 'Another-Wallaby-91')).toBe(INVALID_CREDENTIALS);

    await Promise.all([context.close(), later.close(), before.context.close()]);
  });

  it('answers an unknown e-mail the same way, and sends nothing', async () => {
    const { context, page } = await newPage(browser);
    const email = `nobody.${Date.now()}@example.com`;
    await page.goto(`${baseUrl}/forgot-password`);
    await hydrated(page);
    await page.locator('#forgot-email').fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect
      .poll(() => page.locator('main').getByRole('status').first().textContent(), SETTLE)
      .toContain('If an account exists for that email, we have sent a link to reset its password.');
    // Give a mail that should not exist time to be written, then check it was not.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(resetLinks(email)).toEqual([]);
    await context.close();
  });

  it('says a link without a token is invalid', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/reset-password`);
    await hydrated(page);
    expect(await page.locator('main').getByRole('alert').first().textContent()).toBe(
      'This reset link is invalid or has expired. Please request a new one.',
    );
    await page.getByRole('link', { name: 'Request a new link' }).click();
    await waitForPath(page, '/forgot-password');
    await context.close();
  });

  it('changes the password: mismatch refused, then changed, other devices signed out, this one not', async () => {
    const user = newUser('change', 'Cornelius', 'Numbat');
    await registerViaApi(user);
    const here = await newPage(browser);
    const elsewhere = await newPage(browser);
    await signIn(here.page, user, { redirectTo: '/account-settings?tab=password' });
    await signIn(elsewhere.page, user);
    const { page } = here;
    const errors = watchPageErrors(page);

    expect(await page.locator('main').getByRole('heading', { level: 2 }).textContent()).toBe('Change Password');
    expect(await page.getByRole('link', { name: 'Change Password' }).getAttribute('aria-current')).toBe('page');
    const newPassword = 'Platypus-Lantern-42';
    const fill = async (current: string, next: string, confirm: string) => {
      await page.locator('#settings-currentPassword').fill(current);
      await page.locator('#settings-newPassword').fill(next);
      await page.locator('#settings-confirmNewPassword').fill(confirm);
      await page.getByRole('button', { name: 'Change Password' }).click();
    };

    await fill(user.password, newPassword, 'Platypus-Lantern-43');
    await expect
      .poll(() => page.locator('main').getByRole('alert').first().textContent(), SETTLE)
      .toBe('New passwords do not match');
    expect(await page.locator('#settings-confirmNewPassword-error').textContent()).toBe('New passwords do not match');

    await fill(`${user.password}-not`, newPassword, newPassword);
    await expect
      .poll(() => page.locator('main').getByRole('alert').first().textContent(), SETTLE)
      .toBe('Current password is incorrect');

    await fill(user.password, newPassword, newPassword);
    await expect
      .poll(() => page.locator('main').getByRole('status').first().textContent(), SETTLE)
      .toBe('Password changed successfully');
    // The form is emptied after the change.
    expect(await page.locator('#settings-currentPassword').inputValue()).toBe('');
    expect(errors.filter((error) => !/status of 4\d\d/.test(error))).toEqual([]);

    // This device stays signed in; the other one is signed out.
    expect(await isSignedIn(page)).toBe(true);
    expect(await isSignedIn(elsewhere.page)).toBe(false);
    expect(pathOf(elsewhere.page)).toBe('/login?redirectTo=%2Fprofile');

    // There, the old password fails and the new one works.
    expect(await attemptSignIn(elsewhere.page, user.email, user.password)).toBe(INVALID_CREDENTIALS);
    expect(await attemptSignIn(elsewhere.page, user.email, newPassword)).toBe('');
    await Promise.all([here.context.close(), elsewhere.context.close()]);
  });
});
