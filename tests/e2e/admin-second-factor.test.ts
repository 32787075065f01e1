import { mkdirSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SECOND_FACTOR_MESSAGES } from '../../contracts/second-factor.ts';
import {
  baseUrl,
  expectCleanPage,
  hydrated,
  SETTLE,
  submitLogin,
  waitForPath,
  watchedPage,
} from './account-helpers.ts';
import { launchBrowser } from './browser.ts';

/*
 * Issue 21, as the owner does it: turn on two-step sign-in from the back office with an
 * authenticator app, keep the recovery codes, and from then on sign in with the password and
 * a code. The shop's one staff account is shared by the browser files, so the file turns it
 * off again at the end, whatever happened.
 */
const admin = { email: inject('adminEmail'), password: inject('adminPassword') };

const codeAt = (secret: string, offsetSeconds = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + offsetSeconds * 1000,
  });

/** Turns two-step sign-in off through the API with two recovery codes (one signs in, one turns it off). */
async function turnOff(recoveryCodes: string[]): Promise<void> {
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  const started = (await login.json()) as { challenge?: string; token?: string };
  let token = started.token;
  if (started.challenge) {
    const answered = await fetch(`${baseUrl}/api/auth/second-factor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ challenge: started.challenge, code: recoveryCodes.at(-1) }),
    });
    token = ((await answered.json()) as { token: string }).token;
  }
  await fetch(`${baseUrl}/api/users/second-factor`, {
    method: 'DELETE',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ code: recoveryCodes.at(-2) }),
  });
}

describe('two-step sign-in for the shop’s staff', () => {
  let browser: Browser;
  let ownerContext: BrowserContext;
  let secret = '';
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    mkdirSync('/tmp/admin-shots', { recursive: true });
    browser = await launchBrowser();
    ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    if (recoveryCodes.length >= 2) await turnOff(recoveryCodes);
    await browser?.close();
  });

  it('the owner turns it on from Sign-in security with an authenticator app and sees the recovery codes once', async () => {
    const watched = await watchedPage(ownerContext);
    const { page } = watched;
    await page.goto(`${baseUrl}/login?redirectTo=${encodeURIComponent('/admin/security')}`);
    await submitLogin(page, admin.email, admin.password);
    await waitForPath(page, '/admin/security');
    await hydrated(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign-in security');
    await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor(SETTLE);
    secret = ((await page.locator('code').first().textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectCleanPage(watched, 'the set-up with its QR code');

    // A wrong code keeps the same QR code and key on the page, with the message at the field.
    const right = codeAt(secret);
    await page.getByLabel('Code from your app').fill(right === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent(), SETTLE).toContain('That code is not right');
    expect(((await page.locator('code').first().textContent()) ?? '').trim()).toBe(secret);
    // The refused code's 400 is the one thing Chromium reports; nothing else went wrong.
    expect(watched.errors.filter((error) => !/status of 400 \(/.test(error))).toEqual([]);
    watched.errors.length = 0;

    await page.getByLabel('Code from your app').fill(codeAt(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('region', { name: 'Your recovery codes' }).getByRole('listitem');
    await expect.poll(() => codes.count(), SETTLE).toBe(10);
    recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());
    await expect
      .poll(() => page.getByRole('region', { name: 'Two-step sign-in' }).textContent(), SETTLE)
      .toContain('Every sign-in to this account asks for a code');
    await page.screenshot({ path: '/tmp/admin-shots/security-on-1280.png', fullPage: true });
    await expectCleanPage(watched, 'the recovery codes');
  });

  it('from then on the password alone is not enough: the sign-in asks for the code, refuses a wrong one and lets the right one in', async () => {
    expect(recoveryCodes).toHaveLength(10);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const watched = await watchedPage(context);
    const { page } = watched;
    await page.goto(`${baseUrl}/login?redirectTo=${encodeURIComponent('/admin')}`);
    await submitLogin(page, admin.email, admin.password);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), SETTLE).toBe('Two-step sign-in');
    // No session yet: the back office still sends this browser to sign in.
    const cookies = await context.cookies();
    expect(cookies.some((cookie) => cookie.name.endsWith('harbour_session'))).toBe(false);
    await page.screenshot({ path: '/tmp/admin-shots/login-code-390.png', fullPage: true });
    await expectCleanPage(watched, 'the code step at 390 px');

    const next = codeAt(secret, 30);
    await page.getByLabel('Code').fill(next === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.locator('#login-code-code-error').textContent(), SETTLE)
      .toBe(SECOND_FACTOR_MESSAGES.wrongCode);
    expect(watched.errors.filter((error) => !/status of 400 \(/.test(error))).toEqual([]);
    watched.errors.length = 0;
    await page.getByLabel('Code').fill(next);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForPath(page, '/admin');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), SETTLE).toBe('Dashboard');
    expect(watched.errors).toEqual([]);
    await context.close();
  });
});
