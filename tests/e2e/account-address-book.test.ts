import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseUrl,
  hydrated,
  newPage,
  newUser,
  pathOf,
  registerViaApi,
  SETTLE,
  signIn,
  waitForPath,
} from './account-helpers.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

function cards(page: Page): Locator {
  return page.getByTestId('record-card');
}

function card(page: Page, text: string): Locator {
  return cards(page).filter({ hasText: text });
}

/** The card's Default badge (exact text, not 'Set as Default'). */
function defaultBadge(scope: Locator): Locator {
  return scope.getByText('Default', { exact: true });
}

/** Which cards (by a text each has) carry the Default badge, and which offer 'Set as Default'. */
async function defaults(page: Page, texts: string[]): Promise<{ badge: string[]; setAsDefault: string[] }> {
  const badge: string[] = [];
  const setAsDefault: string[] = [];
  for (const text of texts) {
    const one = card(page, text);
    if ((await defaultBadge(one).count()) > 0) badge.push(text);
    if ((await one.getByRole('button', { name: 'Set as Default' }).count()) > 0) setAsDefault.push(text);
  }
  return { badge, setAsDefault };
}

/** Clicks a Delete button, answers the confirmation and returns its text. */
async function deleteWith(page: Page, button: Locator, answer: 'accept' | 'dismiss'): Promise<string> {
  const message = new Promise<string>((resolve) => {
    page.once('dialog', (dialog) => {
      resolve(dialog.message());
      void (answer === 'accept' ? dialog.accept() : dialog.dismiss());
    });
  });
  await button.click();
  return message;
}

const notice = (page: Page) => page.locator('main').getByRole('status').first();
const alert = (page: Page) => page.locator('main').getByRole('alert').first();

describe('address book and payment methods', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const user = newUser('records', 'Winifred', 'Kookaburra');

  beforeAll(async () => {
    browser = await launchBrowser();
    await registerViaApi(user);
    ({ context, page } = await newPage(browser));
    errors = watchPageErrors(page);
    await signIn(page, user);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('lists the registration address as the default, with Edit and Delete but no Set as Default', async () => {
    await page.getByRole('navigation', { name: 'My account' }).getByRole('link', { name: 'Addresses' }).click();
    await waitForPath(page, '/addresses');
    await hydrated(page);
    await expect.poll(() => cards(page).count(), SETTLE).toBe(1);
    const home = card(page, user.address.addressLine1);
    expect(await home.textContent()).toContain(`${user.address.city} ${user.address.state} ${user.address.postalCode}`);
    expect(await home.textContent()).toContain(`${user.firstName} ${user.lastName}`);
    expect(await defaultBadge(home).isVisible()).toBe(true);
    expect(await home.getByRole('button', { name: 'Set as Default' }).count()).toBe(0);
    expect(await home.getByRole('link', { name: /^Edit / }).isVisible()).toBe(true);
    expect(await home.getByRole('button', { name: /^Delete / }).isVisible()).toBe(true);
  });

  it('refuses an incomplete address with the field messages, then adds it', async () => {
    await page.getByRole('link', { name: 'Add New Address' }).first().click();
    await waitForPath(page, '/addresses?edit=new');
    await expect.poll(() => page.getByRole('heading', { name: 'Add New Address' }).isVisible(), SETTLE).toBe(true);
    // The name is filled in from the account; the shop's country is preselected.
    expect(await page.locator('#address-fullName').inputValue()).toBe(`${user.firstName} ${user.lastName}`);
    expect(await page.locator('#address-country').inputValue()).toBe('Australia');

    await page.locator('#address-addressType').selectOption('Work');
    await page.locator('#address-addressLine1').fill('3 Banksia Lane');
    await page.locator('#address-phoneNumber').fill('call me');
    await page.getByRole('button', { name: 'Save Address' }).click();
    await expect.poll(() => alert(page).textContent(), SETTLE).toBe('Failed to save address');
    expect(await page.locator('#address-city-error').textContent()).toBe('City is required');
    expect(await page.locator('#address-state-error').textContent()).toBe('State is required');
    expect(await page.locator('#address-postalCode-error').textContent()).toBe('Postal code is required');
    expect(await page.locator('#address-phoneNumber-error').textContent()).toBe(
      'Please enter a valid phone number, e.g. 0412 345 678',
    );
    // What was typed stays, and nothing was saved.
    expect(await page.locator('#address-addressLine1').inputValue()).toBe('3 Banksia Lane');
    expect(await page.locator('#address-addressType').inputValue()).toBe('Work');
    expect(await cards(page).count()).toBe(1);

    await page.locator('#address-city').fill('Newtown');
    await page.locator('#address-state').selectOption('NSW');
    await page.locator('#address-postalCode').fill('2042');
    await page.locator('#address-phoneNumber').fill('02 9000 5555');
    await page.getByRole('button', { name: 'Save Address' }).click();
    await waitForPath(page, '/addresses?notice=saved');
    await expect.poll(() => notice(page).textContent(), SETTLE).toBe('Address saved.');
    expect(await cards(page).count()).toBe(2);
    const work = card(page, '3 Banksia Lane');
    expect(await work.textContent()).toContain('Work');
    expect(await work.textContent()).toContain('Newtown NSW 2042');
    expect(await work.textContent()).toContain('02 9000 5555');
    // The first address stays the default; only the other card offers Set as Default.
    expect(await defaults(page, [user.address.addressLine1, '3 Banksia Lane'])).toEqual({
      badge: [user.address.addressLine1],
      setAsDefault: ['3 Banksia Lane'],
    });
  });

  it('moves the Default badge with Set as Default, and survives a reload', async () => {
    await card(page, '3 Banksia Lane').getByRole('button', { name: 'Set as Default' }).click();
    await waitForPath(page, '/addresses?notice=default');
    await expect.poll(() => notice(page).textContent(), SETTLE).toBe('Default address updated.');
    const expected = { badge: ['3 Banksia Lane'], setAsDefault: [user.address.addressLine1] };
    expect(await defaults(page, [user.address.addressLine1, '3 Banksia Lane'])).toEqual(expected);
    await page.reload();
    await hydrated(page);
    expect(await defaults(page, [user.address.addressLine1, '3 Banksia Lane'])).toEqual(expected);
    // /profile shows the new default.
    await page.goto(`${baseUrl}/profile`);
    expect(await page.getByRole('region', { name: 'Default address' }).textContent()).toContain('3 Banksia Lane');
    await page.goto(`${baseUrl}/addresses`);
    await hydrated(page);
  });

  it('edits an address in place', async () => {
    await card(page, user.address.addressLine1)
      .getByRole('link', { name: /^Edit / })
      .click();
    await page.waitForURL((url) => /^\?edit=\d+$/.test(url.search), SETTLE);
    expect(pathOf(page)).toMatch(/^\/addresses\?edit=\d+$/);
    await expect.poll(() => page.getByRole('heading', { name: 'Edit Address' }).isVisible(), SETTLE).toBe(true);
    expect(await page.locator('#address-addressLine1').inputValue()).toBe(user.address.addressLine1);
    await page.locator('#address-city').fill('Westmead');
    await page.locator('#address-postalCode').fill('2145');
    await page.getByRole('button', { name: 'Save Address' }).click();
    await waitForPath(page, '/addresses?notice=saved');
    await expect.poll(() => card(page, user.address.addressLine1).textContent(), SETTLE).toContain('Westmead NSW 2145');
    expect(await cards(page).count()).toBe(2);
  });

  it('deletes after the spec’s confirmation; deleting the default makes the other one default; then empty', async () => {
    const work = card(page, '3 Banksia Lane');
    // Cancelling keeps it.
    expect(await deleteWith(page, work.getByRole('button', { name: /^Delete / }), 'dismiss')).toBe(
      'Are you sure you want to delete this address?',
    );
    expect(await cards(page).count()).toBe(2);

    expect(await deleteWith(page, work.getByRole('button', { name: /^Delete / }), 'accept')).toBe(
      'Are you sure you want to delete this address?',
    );
    await waitForPath(page, '/addresses?notice=deleted');
    await expect.poll(() => notice(page).textContent(), SETTLE).toBe('Address deleted.');
    await expect.poll(() => cards(page).count(), SETTLE).toBe(1);
    const home = card(page, user.address.addressLine1);
    expect(await defaultBadge(home).isVisible()).toBe(true);
    expect(await home.getByRole('button', { name: 'Set as Default' }).count()).toBe(0);

    await deleteWith(page, home.getByRole('button', { name: /^Delete / }), 'accept');
    await expect.poll(() => cards(page).count(), SETTLE).toBe(0);
    expect(await page.getByText('No addresses saved', { exact: true }).isVisible()).toBe(true);
    await page.reload();
    await hydrated(page);
    expect(await page.getByText('No addresses saved', { exact: true }).isVisible()).toBe(true);
    expect(errors.filter((error) => !error.includes('status of 400'))).toEqual([]);
  });

  const year = new Date().getFullYear() + 2;

  it('starts with no payment methods, refuses bad last digits, then saves a card', async () => {
    await page.goto(`${baseUrl}/payment-methods`);
    await hydrated(page);
    expect(await page.getByText('No payment methods saved', { exact: true }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Add Payment Method' }).first().click();
    await waitForPath(page, '/payment-methods?edit=new');
    await expect.poll(() => page.getByRole('heading', { name: 'Add Payment Method' }).isVisible(), SETTLE).toBe(true);

    await page.locator('#payment-last4Digits').fill('12a4');
    await page.locator('#payment-expiryMonth').selectOption('04');
    await page.locator('#payment-expiryYear').selectOption(String(year));
    await page.getByRole('button', { name: 'Save Payment Method' }).click();
    await expect.poll(() => alert(page).textContent(), SETTLE).toBe('Failed to save payment method');
    expect(await page.locator('#payment-last4Digits-error').textContent()).toBe(
      'Last 4 digits must be exactly 4 digits',
    );
    expect(await page.getByText('No payment methods saved', { exact: true }).isVisible()).toBe(true);

    await page.locator('#payment-last4Digits').fill('4242');
    await page.getByRole('button', { name: 'Save Payment Method' }).click();
    await waitForPath(page, '/payment-methods?notice=saved');
    await expect.poll(() => notice(page).textContent(), SETTLE).toBe('Payment method saved.');
    const visa = card(page, '4242');
    expect(await visa.textContent()).toContain('Visa');
    expect(await visa.textContent()).toContain(`Expires 04/${year}`);
    expect(await visa.textContent()).toContain('Credit Card');
    // The first one is the default.
    expect(await defaultBadge(visa).isVisible()).toBe(true);
    expect(await visa.getByRole('button', { name: 'Set as Default' }).count()).toBe(0);
  });

  it('adds a second card, moves the default to it, and deletes down to the empty state', async () => {
    await page.getByRole('link', { name: 'Add Payment Method' }).first().click();
    await waitForPath(page, '/payment-methods?edit=new');
    await expect.poll(() => page.locator('#payment-provider').isVisible(), SETTLE).toBe(true);
    await page.locator('#payment-paymentType').selectOption('Debit Card');
    await page.locator('#payment-provider').selectOption('MasterCard');
    await page.locator('#payment-last4Digits').fill('5100');
    await page.locator('#payment-expiryMonth').selectOption('11');
    await page.locator('#payment-expiryYear').selectOption(String(year + 1));
    await page.getByRole('button', { name: 'Save Payment Method' }).click();
    await waitForPath(page, '/payment-methods?notice=saved');
    await expect.poll(() => cards(page).count(), SETTLE).toBe(2);
    expect(await card(page, '5100').textContent()).toContain(`Expires 11/${year + 1}`);
    expect(await defaults(page, ['4242', '5100'])).toEqual({ badge: ['4242'], setAsDefault: ['5100'] });

    await card(page, '5100').getByRole('button', { name: 'Set as Default' }).click();
    await waitForPath(page, '/payment-methods?notice=default');
    await expect.poll(() => notice(page).textContent(), SETTLE).toBe('Default payment method updated.');
    expect(await defaults(page, ['4242', '5100'])).toEqual({ badge: ['5100'], setAsDefault: ['4242'] });

    expect(await deleteWith(page, card(page, '4242').getByRole('button', { name: /^Delete / }), 'accept')).toBe(
      'Are you sure you want to delete this payment method?',
    );
    await waitForPath(page, '/payment-methods?notice=deleted');
    await expect.poll(() => cards(page).count(), SETTLE).toBe(1);
    expect(await defaultBadge(card(page, '5100')).isVisible()).toBe(true);

    await deleteWith(page, card(page, '5100').getByRole('button', { name: /^Delete / }), 'accept');
    await expect.poll(() => cards(page).count(), SETTLE).toBe(0);
    expect(await page.getByText('No payment methods saved', { exact: true }).isVisible()).toBe(true);
    expect(errors.filter((error) => !error.includes('status of 400'))).toEqual([]);
  });
});
