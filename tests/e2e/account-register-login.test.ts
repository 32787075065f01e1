import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountButton,
  baseUrl,
  hydrated,
  isSignedIn,
  newPage,
  newUser,
  pathOf,
  SETTLE,
  sessionCookie,
  signOutFromHeader,
  submitLogin,
  waitForPath,
} from './account-helpers.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

/** Fills every field of /register for `user` (the page is open and hydrated). */
async function fillRegistration(page: Page, user: ReturnType<typeof newUser>, email = user.email): Promise<void> {
  await page.locator('#register-firstName').fill(user.firstName);
  await page.locator('#register-lastName').fill(user.lastName);
  await page.locator('#register-email').fill(email);
  await page.locator('#register-phoneNumber').fill(user.phoneNumber);
  await page.locator('#register-password').fill(user.password);
  await page.locator('#register-confirmPassword').fill(user.password);
  await page.locator('#register-addressLine1').fill(user.address.addressLine1);
  await page.locator('#register-city').fill(user.address.city);
  // An Australian address's State is a select of the states and territories (issue 22).
  await page.locator('#register-state').selectOption(user.address.state);
  await page.locator('#register-postalCode').fill(user.address.postalCode);
  await page.locator('#register-country').selectOption(user.address.country);
  await page.locator('#register-acceptTerms').check();
}

const createAccount = (page: Page) => page.getByRole('button', { name: 'Create Account' });

describe('registering, signing in and out', () => {
  let browser: Browser;
  const user = newUser('signup', 'Henrietta', 'Bandicoot');
  /** Signed in by the registration, used by the tests after it. */
  let registered: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('refuses an incomplete registration with the field messages of spec §5, keeping what was typed', async () => {
    const { context, page } = await newPage(browser);
    const errors = watchPageErrors(page);
    await page.goto(`${baseUrl}/register`);
    await hydrated(page);
    await page.locator('#register-firstName').fill('Henrietta');
    await page.locator('#register-email').fill('not-an-email');
    await page.locator('#register-password').fill('abc');
    await page.locator('#register-confirmPassword').fill('abd');
    await createAccount(page).click();
    await expect
      .poll(() => page.locator('main').getByRole('alert').first().textContent(), SETTLE)
      .toContain('Please check the highlighted fields.');
    const messageOf = (name: string) => page.locator(`#register-${name}-error`).textContent();
    expect(await messageOf('lastName')).toBe('Last name is required');
    expect(await messageOf('email')).toBe('Email is invalid');
    expect(await messageOf('password')).toBe('Password must be at least 6 characters');
    expect(await messageOf('confirmPassword')).toBe('Passwords do not match');
    expect(await messageOf('phoneNumber')).toBe('Phone number is required');
    expect(await messageOf('addressLine1')).toBe('Address is required');
    expect(await messageOf('city')).toBe('City is required');
    expect(await messageOf('postalCode')).toBe('Postal code is required');
    expect(await messageOf('acceptTerms')).toBe('You must accept the terms and conditions');
    expect(await page.locator('#register-city').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#register-city').getAttribute('aria-describedby')).toContain('register-city-error');
    // What was typed stays.
    expect(await page.locator('#register-firstName').inputValue()).toBe('Henrietta');
    expect(await page.locator('#register-email').inputValue()).toBe('not-an-email');
    expect(pathOf(page)).toBe('/register');
    expect(await sessionCookie(context)).toBeUndefined();
    expect(errors.filter((error) => !error.includes('status of 400'))).toEqual([]);
    await context.close();
  });

  it('registers: signed in at once, the first name in the header, the details and default address on /profile', async () => {
    registered = await newPage(browser);
    const { page } = registered;
    const errors = watchPageErrors(page);
    await page.goto(`${baseUrl}/`);
    await hydrated(page);
    // The header's Login leads to the form, and the form links to registration.
    await page.locator('header').getByRole('link', { name: 'Login' }).click();
    await waitForPath(page, '/login');
    await page.getByRole('link', { name: 'Register' }).click();
    await waitForPath(page, '/register');
    await hydrated(page);
    // The shop's own country is preselected.
    expect(await page.locator('#register-country').inputValue()).toBe('Australia');
    await fillRegistration(page, user);
    await createAccount(page).click();
    await waitForPath(page, '/profile');

    await expect.poll(() => accountButton(page).textContent(), SETTLE).toContain(user.firstName);
    expect(await accountButton(page).textContent()).not.toContain(user.lastName);
    expect(await page.locator('header').getByRole('link', { name: 'Login' }).count()).toBe(0);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('User Profile');
    expect(await page.getByTestId('profile-name').textContent()).toBe(`${user.firstName} ${user.lastName}`);
    const details = page.getByRole('region', { name: 'Your details' });
    expect(await details.textContent()).toContain(user.email);
    expect(await details.textContent()).toContain(user.phoneNumber);
    expect(await details.textContent()).toContain(String(new Date().getFullYear()));
    const address = page.getByRole('region', { name: 'Default address' });
    expect(await address.textContent()).toContain(user.address.addressLine1);
    expect(await address.textContent()).toContain(
      `${user.address.city} ${user.address.state} ${user.address.postalCode}`,
    );

    // The header menu lists the account's pages.
    await accountButton(page).click();
    expect(await accountButton(page).getAttribute('aria-expanded')).toBe('true');
    for (const name of ['User Profile', 'My Orders', 'Wishlist', 'Addresses', 'Payment Methods', 'Account Settings']) {
      expect(await page.locator('header').getByRole('link', { name, exact: true }).isVisible()).toBe(true);
    }
    await page.keyboard.press('Escape');
    expect(await accountButton(page).getAttribute('aria-expanded')).toBe('false');

    // The session survives a full reload: the server renders the page already knowing the shopper.
    const html = await (await page.request.get(`${baseUrl}/profile`, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain(user.email);
    expect(errors).toEqual([]);
  });

  it('refuses a second account for the same e-mail, whatever its case', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/register`);
    await hydrated(page);
    await fillRegistration(page, user, user.email.toUpperCase());
    await createAccount(page).click();
    await expect
      .poll(() => page.locator('main').getByRole('alert').first().textContent(), SETTLE)
      .toBe('An account with this email already exists. Try signing in instead.');
    expect(pathOf(page)).toBe('/register');
    expect(await sessionCookie(context)).toBeUndefined();
    await context.close();
  });

  it('does not sign out on a GET of /logout, only with the header’s Logout (a POST), then goes home', async () => {
    const { context, page } = registered;
    // A link or an image pointing at /logout must not end the session.
    await page.goto(`${baseUrl}/logout`);
    await waitForPath(page, '/');
    await hydrated(page);
    expect(await accountButton(page).textContent()).toContain(user.firstName);
    const before = await sessionCookie(context);
    expect(before).toBeDefined();

    await signOutFromHeader(page);
    expect(await accountButton(page).count()).toBe(0);
    expect(await sessionCookie(context)).toBeUndefined();
    // The old token is dead on the server too, not only forgotten by the browser.
    const reused = await fetch(`${baseUrl}/api/users/profile`, {
      headers: { cookie: `harbour_session=${before!.value}` },
    });
    expect(reused.status).toBe(401);

    await page.goto(`${baseUrl}/profile`);
    await waitForPath(page, '/login?redirectTo=%2Fprofile');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Login');
  });

  it('says "Invalid email or password" for a wrong password and for an unknown e-mail alike', async () => {
    const { context, page } = await newPage(browser);
    const texts: string[] = [];
    for (const [email, password] of [
      [user.email, `${user.password}-wrong`],
      [`nobody.${Date.now()}@example.com`, user.password],
    ] as const) {
      await page.goto(`${baseUrl}/login`);
      await submitLogin(page, email, password);
      const alert = page.locator('main').getByRole('alert').first();
      await expect.poll(() => alert.textContent(), SETTLE).toBe('Invalid email or password');
      texts.push((await page.locator('main').textContent()) ?? '');
      expect(pathOf(page)).toBe('/login');
      // The e-mail stays in the field.
      expect(await page.locator('#login-email').inputValue()).toBe(email);
      expect(await sessionCookie(context)).toBeUndefined();
    }
    // The whole page reads the same either way: nothing tells which e-mails have an account.
    expect(texts[1]!.replace(/\s+/g, ' ')).toBe(texts[0]!.replace(/\s+/g, ' '));
    await context.close();
  });

  it('signs in with the right password (e-mail in any case) and lands on /profile', async () => {
    const { context, page } = registered;
    await page.goto(`${baseUrl}/login`);
    await submitLogin(page, user.email.toUpperCase(), user.password);
    await waitForPath(page, '/profile');
    await expect.poll(() => accountButton(page).textContent(), SETTLE).toContain(user.firstName);
    expect(await sessionCookie(context)).toBeDefined();
    // A signed-in shopper who opens /login or /register is sent on.
    await page.goto(`${baseUrl}/login`);
    await waitForPath(page, '/profile');
    await page.goto(`${baseUrl}/register?redirectTo=%2Faddresses`);
    await waitForPath(page, '/addresses');
  });

  it('gives a phone the account links and Logout in the menu drawer', async () => {
    const { context } = registered;
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseUrl}/`);
    await hydrated(page);
    const menuButton = page.locator('header').getByRole('button', { name: 'Menu', exact: true });
    await menuButton.click();
    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await expect.poll(() => dialog.isVisible(), SETTLE).toBe(true);
    expect(await dialog.textContent()).toContain(`Signed in as ${user.firstName} ${user.lastName}`);
    await dialog.getByRole('link', { name: 'User Profile' }).click();
    await waitForPath(page, '/profile');
    await expect.poll(() => dialog.isVisible(), SETTLE).toBe(false);

    await menuButton.click();
    await expect.poll(() => dialog.isVisible(), SETTLE).toBe(true);
    await dialog.getByRole('button', { name: 'Logout' }).click();
    await waitForPath(page, '/');
    // The drawer shows 'Login' now. (It currently stays open after Logout, unlike after
    // its links: mobile-menu.tsx does not close it on that form's submit. Reported.)
    if (!(await dialog.isVisible())) await menuButton.click();
    await expect.poll(() => dialog.getByRole('link', { name: 'Login' }).isVisible(), SETTLE).toBe(true);
    expect(await isSignedIn(page)).toBe(false);
    await context.close();
  });
});
