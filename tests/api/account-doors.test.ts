import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerBodySchema } from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES } from '../../contracts/account-fields.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/*
 * Issue 21, the account doors: per-address limits kept where the action runs (the accounts
 * service), so no spelling of a page path and no mix of page forms and API routes escapes them.
 */

const PASSWORD = 'Harbour-Doors-Pass-42';
const REGISTRATION = {
  firstName: 'Door',
  lastName: 'Tester',
  phoneNumber: '0412 345 678',
  address: { addressLine1: '1 Door Street', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'Australia' },
};

let sequence = 0;
const uniqueEmail = (tag: string) => {
  sequence += 1;
  return `${tag}.${sequence}@example.com`;
};

/** A form post as a browser without JavaScript sends it. */
function formPost(shop: TestShop, url: string, fields: Record<string, string>, address: string) {
  return shop.app.inject({
    method: 'POST',
    url,
    remoteAddress: address,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Mozilla/5.0 Chrome/130.0' },
    payload: new URLSearchParams(fields).toString(),
  });
}

function apiPost(shop: TestShop, url: string, body: Record<string, unknown>, address: string) {
  return shop.app.inject({ method: 'POST', url, remoteAddress: address, payload: body });
}

const built = existsSync(resolve('build/server/index.js'));

describe.skipIf(!built)('per-address limits through every spelling of the page forms (needs `npm run build`)', () => {
  let shop: TestShop;
  let taken: string;
  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 1, storefront: true });
    taken = uniqueEmail('taken');
    const made = await apiPost(
      shop,
      '/api/auth/register',
      { ...REGISTRATION, email: taken, password: PASSWORD },
      '127.0.9.1',
    );
    expect(made.statusCode).toBe(201);
  });
  afterAll(async () => {
    await shop?.app.services.mailer.idle();
    await shop?.close();
  });

  /** Sends `total` tries round-robin through `senders` and returns the statuses in order. */
  async function statusesOf(total: number, senders: ((attempt: number) => Promise<{ statusCode: number }>)[]) {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < total; attempt += 1) {
      const sender = senders[attempt % senders.length]!;
      statuses.push((await sender(attempt)).statusCode);
    }
    return statuses;
  }

  it('120 sign-ins from one address as POST /Login, /LOGIN, /login/ and the API: 429 from the 101st', async () => {
    const address = '127.0.1.1';
    // Each try names another (unknown) e-mail, so the per-account slow-down plays no part.
    const page = (url: string) => () =>
      formPost(
        shop,
        url,
        { email: uniqueEmail('nobody'), password: 'Wrong-Pass-123', redirectTo: '/profile' },
        address,
      );
    const api = () =>
      apiPost(shop, '/api/auth/login', { email: uniqueEmail('nobody'), password: 'Wrong-Pass-123' }, address);
    const statuses = await statusesOf(120, [page('/Login'), page('/LOGIN'), page('/login/'), api]);
    expect(
      statuses.slice(0, 100).every((status) => status === 401),
      statuses.join(','),
    ).toBe(true);
    expect(statuses.slice(100)).toEqual(Array(20).fill(429));
    const api429 = await apiPost(shop, '/api/auth/login', { email: uniqueEmail('nobody'), password: 'x' }, address);
    expect(api429.statusCode).toBe(429);
    expect(Number(api429.headers['retry-after'])).toBeGreaterThan(0);
    expect(api429.json()).toEqual({ message: ACCOUNT_MESSAGES.tooManyRequests });
    const page429 = await page('/Login')();
    expect(page429.statusCode).toBe(429);
    expect(page429.body).toContain(ACCOUNT_MESSAGES.tooManyRequests);
  });

  it('registrations from one address as POST /Register, /REGISTER, /register/ and the API: 429 at the 31st', async () => {
    const address = '127.0.1.2';
    // The e-mail is taken: every try is a 409 until the cap, without hashing a password.
    const fields = {
      firstName: 'Door',
      lastName: 'Tester',
      email: taken,
      phoneNumber: '0412 345 678',
      password: PASSWORD,
      confirmPassword: PASSWORD,
      addressLine1: '1 Door Street',
      city: 'Sydney',
      state: 'NSW',
      postalCode: '2000',
      country: 'Australia',
      acceptTerms: 'on',
      redirectTo: '/profile',
    };
    const page = (url: string) => () => formPost(shop, url, fields, address);
    const api = () =>
      apiPost(shop, '/api/auth/register', { ...REGISTRATION, email: taken, password: PASSWORD }, address);
    const statuses = await statusesOf(32, [page('/Register'), page('/REGISTER'), page('/register/'), api]);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(409));
    expect(statuses.slice(30)).toEqual([429, 429]);
  });

  it('forgot-password from one address as POST /Forgot-Password, /FORGOT-PASSWORD, /forgot-password/ and the API: 429 at the 11th', async () => {
    const address = '127.0.1.3';
    const page = (url: string) => () => formPost(shop, url, { email: uniqueEmail('who') }, address);
    const api = () => apiPost(shop, '/api/auth/forgot-password', { email: uniqueEmail('who') }, address);
    const statuses = await statusesOf(12, [
      page('/Forgot-Password'),
      page('/FORGOT-PASSWORD'),
      page('/forgot-password/'),
      api,
    ]);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(202));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('reset attempts from one address as POST /Reset-Password, /RESET-PASSWORD, /reset-password/ and the API: 429 at the 11th', async () => {
    const address = '127.0.1.4';
    const token = 'x'.repeat(43);
    const page = (url: string) => () =>
      formPost(shop, url, { token, newPassword: 'Fresh-Doors-Pass-9', confirmPassword: 'Fresh-Doors-Pass-9' }, address);
    const api = () => apiPost(shop, '/api/auth/reset-password', { token, newPassword: 'Fresh-Doors-Pass-9' }, address);
    const statuses = await statusesOf(12, [
      page('/Reset-Password'),
      page('/RESET-PASSWORD'),
      page('/reset-password/'),
      api,
    ]);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

describe('per-address limits kept in the accounts service', () => {
  let shop: TestShop;
  let taken: string;
  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 1 });
    taken = uniqueEmail('taken');
    const made = await apiPost(
      shop,
      '/api/auth/register',
      { ...REGISTRATION, email: taken, password: PASSWORD },
      '127.0.9.2',
    );
    expect(made.statusCode).toBe(201);
  });
  afterAll(async () => {
    await shop?.app.services.mailer.idle();
    await shop?.close();
  });

  /** The status a service call ends with: 200 when it resolves, else the domain error's. */
  const statusOf = (call: Promise<unknown>) =>
    call.then(
      () => 200,
      (error: { statusCode?: number }) => error.statusCode ?? 500,
    );

  it('120 sign-ins from one address, half through the service as a page action calls it, half through the API: 429 from the 101st', async () => {
    const address = '127.0.2.1';
    const { accounts } = shop.app.services;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 120; attempt += 1) {
      const input = { email: uniqueEmail('nobody'), password: 'Wrong-Pass-123' };
      statuses.push(
        attempt % 2 === 0
          ? await statusOf(accounts.login(input, { address }))
          : (await apiPost(shop, '/api/auth/login', input, address)).statusCode,
      );
    }
    expect(
      statuses.slice(0, 100).every((status) => status === 401),
      statuses.join(','),
    ).toBe(true);
    expect(statuses.slice(100)).toEqual(Array(20).fill(429));
  });

  it('registrations: the 31st from one address answers 429 with Retry-After', async () => {
    const address = '127.0.2.2';
    const { accounts } = shop.app.services;
    const input = registerBodySchema.parse({ ...REGISTRATION, email: taken, password: PASSWORD });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 30; attempt += 1) {
      statuses.push(
        attempt % 2 === 0
          ? await statusOf(accounts.register(input, { address }))
          : (await apiPost(shop, '/api/auth/register', input, address)).statusCode,
      );
    }
    expect(statuses).toEqual(Array(30).fill(409));
    const over = await apiPost(shop, '/api/auth/register', input, address);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.json()).toEqual({ message: ACCOUNT_MESSAGES.tooManyRequests });
  });

  it('forgot-password: the 11th from one address answers 429', async () => {
    const address = '127.0.2.3';
    const { accounts } = shop.app.services;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      statuses.push(
        attempt % 2 === 0
          ? await statusOf(accounts.requestPasswordReset(uniqueEmail('who'), { address }))
          : (await apiPost(shop, '/api/auth/forgot-password', { email: uniqueEmail('who') }, address)).statusCode,
      );
    }
    expect(statuses.map((status) => (status === 202 ? 200 : status))).toEqual(Array(10).fill(200));
    expect(await statusOf(accounts.requestPasswordReset(uniqueEmail('who'), { address }))).toBe(429);
  });

  it('reset attempts: the 11th from one address answers 429', async () => {
    const address = '127.0.2.4';
    const { accounts } = shop.app.services;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      statuses.push(
        attempt % 2 === 0
          ? await statusOf(accounts.resetPassword('y'.repeat(43), 'Fresh-Doors-Pass-9', { address }))
          : (
              await apiPost(
                shop,
                '/api/auth/reset-password',
                { token: 'y'.repeat(43), newPassword: 'Fresh-Doors-Pass-9' },
                address,
              )
            ).statusCode,
      );
    }
    expect(statuses).toEqual(Array(10).fill(400));
    expect(await statusOf(accounts.resetPassword('y'.repeat(43), 'Fresh-Doors-Pass-9', { address }))).toBe(429);
  });
});
