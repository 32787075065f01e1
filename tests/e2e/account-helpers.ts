import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { seriousAxeViolations } from './axe.ts';
import { watchPageErrors } from './browser.ts';

/*
 * Shared bits of the account journeys (account-*.test.ts). Every test file shares one
 * server with the rest of the e2e suite, and the server caps registrations (30) and
 * sign-in attempts (100) per client address per 15 minutes: files register a handful of
 * shoppers through the API and sign in through the form only where the journey needs it.
 */

export const baseUrl = inject('baseUrl');
export const outboxDir = inject('outboxDir');

/** How long to wait for a page to catch up after a click (a form post, a redirect, a revalidation). */
export const SETTLE = { timeout: 20_000 };

/** Long enough, not on the common-password list. */
export const PASSWORD = 'Quoll-Ladder-73';

export interface TestUser {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  phoneNumber: string;
  address: {
    addressLine1: string;
    addressLine2: string;
    city: string;
    state: string;
    postalCode: string;
    country: string;
  };
}

/** A new shopper with a unique e-mail (lower case, as the shop stores it). */
export function newUser(tag: string, firstName = 'Matilda', lastName = 'Quokka'): TestUser {
  const id = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  return {
    firstName,
    lastName,
    email: `${tag}.${id}@example.com`,
    password: PASSWORD,
    phoneNumber: '0412 345 678',
    address: {
      addressLine1: '12 Wattle Street',
      addressLine2: '',
      city: 'Parramatta',
      state: 'NSW',
      postalCode: '2150',
      country: 'Australia',
    },
  };
}

/** Creates the account through `POST /api/auth/register` (counts against the registration cap). */
export async function registerViaApi(user: TestUser): Promise<void> {
  const response = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...user, address: { ...user.address, addressLine2: undefined } }),
  });
  if (response.status !== 201) {
    throw new Error(`Registering ${user.email} answered ${response.status}: ${await response.text()}`);
  }
}

/** Resolves once React has taken over the page (root layout effect). */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForSelector('html[data-hydrated="true"]', { state: 'attached', timeout: 30_000 });
}

/** The path and query of the page's URL. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/**
 * Waits until the page is at `path` (path and query, exactly). React draws the new page a
 * moment after the URL changes: the first check of its content must poll.
 */
export async function waitForPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => `${url.pathname}${url.search}` === path, SETTLE);
}

/** The Login form's submit button (the header's 'Login' is a link, the search form has its own button). */
export function loginButton(page: Page) {
  return page.getByRole('button', { name: 'Login', exact: true });
}

/** Fills and submits the sign-in form of the page (already on /login), without waiting for the outcome. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await hydrated(page);
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(password);
  await loginButton(page).click();
}

/** Signs in through /login (`redirectTo` optional) and waits until the shop has sent the browser on to `landing`. */
export async function signIn(
  page: Page,
  user: Pick<TestUser, 'email' | 'password'>,
  options: { redirectTo?: string; landing?: string } = {},
): Promise<void> {
  const query = options.redirectTo === undefined ? '' : `?redirectTo=${encodeURIComponent(options.redirectTo)}`;
  await page.goto(`${baseUrl}/login${query}`);
  await submitLogin(page, user.email, user.password);
  await waitForPath(page, options.landing ?? options.redirectTo ?? '/profile');
  // The URL changes a moment before React draws the new page: wait for the signed-in header.
  await accountButton(page).waitFor({ state: 'attached', ...SETTLE });
}

/** The header's account button (desktop): the shopper's first name. */
export function accountButton(page: Page) {
  return page.getByTestId('account-menu-button');
}

/** Signs out with the header menu's Logout (a POST) and waits for the home page. */
export async function signOutFromHeader(page: Page): Promise<void> {
  await accountButton(page).click();
  await page.getByRole('button', { name: 'Logout', exact: true }).click();
  await waitForPath(page, '/');
  await expect.poll(() => page.locator('header').getByRole('link', { name: 'Login' }).count(), SETTLE).toBe(1);
}

/** Clicks a signed-in heart and waits until the shop has saved the change. */
export async function toggleSavedHeart(page: Page, button: Locator): Promise<void> {
  const saved = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/wishlist.data' && response.request().method() === 'POST',
  );
  await button.click();
  expect((await saved).status()).toBe(200);
}

/** The session cookie of a context, if it has one. */
export async function sessionCookie(context: BrowserContext) {
  return (await context.cookies(baseUrl)).find((cookie) => cookie.name === 'harbour_session');
}

/** Whether a guarded page still lets this context in (false: it was sent to sign in). */
export async function isSignedIn(page: Page): Promise<boolean> {
  await page.goto(`${baseUrl}/profile`);
  return pathOf(page) === '/profile';
}

/** A page whose uncaught errors, console errors and Content-Security-Policy violations are collected. */
export interface WatchedPage {
  page: Page;
  errors: string[];
  csp: string[];
}

/**
 * Opens a page that records CSP violations two ways: Chromium's console report and the
 * `securitypolicyviolation` event (through an exposed function, so it survives navigations).
 */
export async function watchedPage(context: BrowserContext): Promise<WatchedPage> {
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  const csp: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) csp.push(`console: ${message.text()}`);
  });
  await page.exposeFunction('__reportCspViolation', (report: string) => {
    csp.push(`event: ${report}`);
  });
  await page.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const report = (window as unknown as { __reportCspViolation?: (text: string) => void }).__reportCspViolation;
        report?.(
          `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
        );
      },
      true,
    );
  });
  return { page, errors, csp };
}

/** No CSP violation, no page or console error, and no serious or critical axe finding on the page as it is now. */
export async function expectCleanPage({ page, errors, csp }: WatchedPage, what: string): Promise<void> {
  // Let late scripts, styles and pictures load, so a violation they cause is counted.
  await page.waitForLoadState('networkidle');
  expect(csp, `CSP violations on ${what}`).toEqual([]);
  expect(errors, `page errors on ${what}`).toEqual([]);
  expect(await seriousAxeViolations(page), `axe on ${what}`).toEqual([]);
}

/** A new context (own cookies and localStorage) with one page. */
export async function newPage(browser: Browser, width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 } });
  return { context, page: await context.newPage() };
}

/** Decodes a quoted-printable body (soft line breaks, `=XX` bytes). */
function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let index = 0; index < joined.length; index++) {
    const hex = joined[index] === '=' ? joined.slice(index + 1, index + 3) : '';
    if (/^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(joined[index]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The mail id in an outbox file name (`<ISO time>-<id>-<random>.eml`), for ordering. */
function mailOrder(file: string): number {
  return Number(/Z-(\d+)-[0-9a-f]+\.eml$/.exec(file)?.[1] ?? 0);
}

/** Every password-reset link e-mailed to `email` so far, oldest first. */
export function resetLinks(email: string): string[] {
  if (!existsSync(outboxDir)) return [];
  const links: string[] = [];
  const files = readdirSync(outboxDir)
    .filter((file) => file.endsWith('.eml'))
    .toSorted((a, b) => mailOrder(a) - mailOrder(b) || a.localeCompare(b));
  for (const file of files) {
    const message = decodeQuotedPrintable(readFileSync(join(outboxDir, file), 'utf8'));
    const to = /^To:\s*(.+)$/im.exec(message)?.[1] ?? '';
    if (!to.toLowerCase().includes(email.toLowerCase())) continue;
    const link = /https?:\/\/[^\s"'<>]+\/reset-password\?token=[^\s"'<>]+/.exec(message)?.[0];
    if (link) links.push(link);
  }
  return links;
}

/** Waits for the reset e-mail after the `before` ones already in the outbox, and returns its link. */
export async function nextResetLink(email: string, before: number): Promise<string> {
  await expect.poll(() => resetLinks(email).length, { timeout: 15_000 }).toBeGreaterThan(before);
  return resetLinks(email).at(-1)!;
}
