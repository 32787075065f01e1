import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountButton,
  baseUrl,
  hydrated,
  isSignedIn,
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
import { launchBrowser, watchPageErrors } from './browser.ts';

describe('account settings: profile and deleting the account', () => {
  let browser: Browser;
  /** Edits the profile, then walks the tabs. */
  const user = newUser('profile', 'Archibald', 'Dingo');

  beforeAll(async () => {
    browser = await launchBrowser();
    await registerViaApi(user);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('edits the profile: e-mail read-only, a blank name refused, the new name in the header and on /profile', async () => {
    const { context, page } = await newPage(browser);
    const errors = watchPageErrors(page);
    await signIn(page, user);
    await page.getByRole('navigation', { name: 'My account' }).getByRole('link', { name: 'Account Settings' }).click();
    await waitForPath(page, '/account-settings');
    const main = page.locator('main');
    await expect
      .poll(() => main.getByRole('link', { name: 'Profile Information' }).getAttribute('aria-current'), SETTLE)
      .toBe('page');

    // The e-mail is shown, read-only, with the spec's note.
    const email = page.locator('#settings-email');
    expect(await email.inputValue()).toBe(user.email);
    expect(await email.getAttribute('readonly')).not.toBeNull();
    expect(await page.locator('#settings-email-hint').textContent()).toBe('Email cannot be changed');
    expect(await page.locator('#settings-firstName').inputValue()).toBe(user.firstName);
    expect(await page.locator('#settings-phoneNumber').inputValue()).toBe(user.phoneNumber);

    await page.locator('#settings-firstName').fill('   ');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => main.getByRole('alert').first().textContent(), SETTLE).toBe('Failed to update profile');
    expect(await page.locator('#settings-firstName-error').textContent()).toBe('First name is required');
    await expect.poll(() => accountButton(page).textContent(), SETTLE).toContain(user.firstName);

    await page.locator('#settings-firstName').fill('Bartholomew');
    await page.locator('#settings-lastName').fill('Quoll');
    await page.locator('#settings-phoneNumber').fill('02 9000 1234');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect
      .poll(() => main.getByRole('status').first().textContent(), SETTLE)
      .toBe('Profile updated successfully');
    // The header follows at once, without a reload.
    await expect.poll(() => accountButton(page).textContent(), SETTLE).toContain('Bartholomew');
    // The form shows what was saved (saving it again must not bring the old name back).
    await expect.poll(() => page.locator('#settings-firstName').inputValue(), SETTLE).toBe('Bartholomew');
    await page.waitForLoadState('networkidle');
    expect(await page.locator('#settings-firstName').inputValue()).toBe('Bartholomew');
    expect(await page.locator('#settings-lastName').inputValue()).toBe('Quoll');

    await page.reload();
    await hydrated(page);
    expect(await page.locator('#settings-lastName').inputValue()).toBe('Quoll');
    await page.goto(`${baseUrl}/profile`);
    await hydrated(page);
    expect(await page.getByTestId('profile-name').textContent()).toBe('Bartholomew Quoll');
    expect(await page.getByRole('region', { name: 'Your details' }).textContent()).toContain('02 9000 1234');
    expect(await accountButton(page).textContent()).toContain('Bartholomew');
    // The e-mail did not change, even though the form carried the field.
    expect(await page.getByRole('region', { name: 'Your details' }).textContent()).toContain(user.email);
    expect(errors.filter((error) => !error.includes('status of 400'))).toEqual([]);
    await context.close();
  });

  it('switches tabs through the URL, so each tab has its own address', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, user, { redirectTo: '/account-settings' });
    const main = page.locator('main');
    for (const [label, tab, heading] of [
      ['Change Password', 'password', 'Change Password'],
      ['Danger Zone', 'danger', 'Danger Zone'],
      ['Profile Information', 'profile', 'Profile Information'],
    ] as const) {
      await main.getByRole('link', { name: label }).click();
      await waitForPath(page, `/account-settings?tab=${tab}`);
      await expect.poll(() => main.getByRole('heading', { level: 2 }).textContent(), SETTLE).toBe(heading);
      expect(await main.getByRole('link', { name: label }).getAttribute('aria-current')).toBe('page');
    }
    await context.close();
  });

  it('deletes the account after the spec’s confirmation: signed out everywhere, and it cannot sign in again', async () => {
    const user = newUser('delete', 'Desmond', 'Quokka');
    await registerViaApi(user);
    const elsewhere = await newPage(browser);
    await signIn(elsewhere.page, user);
    const { context, page } = await newPage(browser);
    await signIn(page, user, { redirectTo: '/account-settings?tab=danger' });
    const main = page.locator('main');
    expect(await main.getByRole('heading', { level: 2 }).textContent()).toBe('Danger Zone');
    const deleteButton = page.getByRole('button', { name: 'Delete My Account' });
    // Deleting confirms with the current password (issue 21).
    await main.getByLabel('Current password').fill(user.password);

    // Cancelling the confirmation keeps everything.
    const dismissed = new Promise<string>((resolve) => {
      page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.dismiss();
      });
    });
    await deleteButton.click();
    expect(await dismissed).toBe('Are you sure you want to delete your account? This action cannot be undone.');
    expect(pathOf(page)).toBe('/account-settings?tab=danger');
    expect(await isSignedIn(page)).toBe(true);

    await page.goto(`${baseUrl}/account-settings?tab=danger`);
    await hydrated(page);
    await main.getByLabel('Current password').fill(user.password);
    const accepted = new Promise<string>((resolve) => {
      page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.accept();
      });
    });
    await deleteButton.click();
    expect(await accepted).toBe('Are you sure you want to delete your account? This action cannot be undone.');
    await waitForPath(page, '/login?notice=deleted');
    await expect
      .poll(() => main.getByRole('status').first().textContent(), SETTLE)
      .toBe('Your account has been deleted.');
    expect(await accountButton(page).count()).toBe(0);
    expect(await sessionCookie(context)).toBeUndefined();

    // The other device is signed out too.
    expect(await isSignedIn(elsewhere.page)).toBe(false);

    // The account is gone: signing in fails with the usual message.
    await page.goto(`${baseUrl}/login`);
    await submitLogin(page, user.email, user.password);
    await expect.poll(() => main.getByRole('alert').first().textContent(), SETTLE).toBe('Invalid email or password');
    expect(pathOf(page)).toBe('/login');
    await Promise.all([context.close(), elsewhere.context.close()]);
  });
});
