import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND_FACTOR_MESSAGES } from '../../contracts/second-factor.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/*
 * Issue 21: a member of staff can turn on two-step sign-in (an authenticator app, with
 * recovery codes); the routes are staff-only (signed out 401, shoppers 403), a code is good
 * once, a recovery code is good once.
 */
const ADMIN = { email: 'owner@harbour.example', password: 'Second-Factor-Pass-2026' };

const codeAt = (secret: string, offsetSeconds = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + offsetSeconds * 1000,
  });

describe('staff second factor: set up, turn on, turn off', () => {
  let shop: TestShop;
  let address = 0;
  const nextIp = () => `127.0.9.${++address}`;
  let adminToken = '';
  let shopperToken = '';

  beforeAll(async () => {
    shop = await createTestShop('pglite', {
      products: 10,
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    });
    const login = await shop.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: nextIp(),
      payload: ADMIN,
    });
    adminToken = login.json<{ token: string }>().token;
    const register = await shop.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: nextIp(),
      payload: {
        email: 'shopper@example.com',
        password: 'Shopper-Second-Pass-2026',
        firstName: 'Sam',
        lastName: 'Shopper',
        phoneNumber: '0400000000',
        address: {
          addressLine1: '1 Test Street',
          city: 'Sydney',
          state: 'NSW',
          postalCode: '2000',
          country: 'Australia',
        },
      },
    });
    shopperToken = register.json<{ token: string }>().token;
  });
  afterAll(() => shop.close());

  const call = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    token: string | null,
    payload?: Record<string, unknown>,
  ) =>
    shop.app.inject({
      method,
      url,
      remoteAddress: nextIp(),
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload }),
    });

  it('is for staff only: signed out 401, shoppers A and B 403, the admin its own answer (route × role)', async () => {
    const registerB = await shop.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: nextIp(),
      payload: {
        email: 'shopper-b@example.com',
        password: 'Shopper-Second-Pass-2026',
        firstName: 'Bo',
        lastName: 'Buyer',
        phoneNumber: '0400000001',
        address: {
          addressLine1: '2 Test Street',
          city: 'Sydney',
          state: 'NSW',
          postalCode: '2000',
          country: 'Australia',
        },
      },
    });
    const shopperBToken = registerB.json<{ token: string }>().token;
    // The admin's column, before two-step sign-in is on: reads and set-up work, code routes
    // judge the code (wrong: 400) or the state (not on: 409).
    const routes = [
      ['GET', '/api/users/second-factor', undefined, 200],
      ['POST', '/api/users/second-factor/setup', undefined, 200],
      ['POST', '/api/users/second-factor', { code: '12345x' }, 400],
      ['POST', '/api/users/second-factor/recovery-codes', { code: '123456' }, 409],
      ['DELETE', '/api/users/second-factor', { code: '123456' }, 409],
    ] as const;
    for (const [method, url, payload, adminStatus] of routes) {
      const label = `${method} ${url}`;
      expect((await call(method, url, null, payload)).statusCode, `signed out: ${label}`).toBe(401);
      expect((await call(method, url, shopperToken, payload)).statusCode, `customer A: ${label}`).toBe(403);
      expect((await call(method, url, shopperBToken, payload)).statusCode, `customer B: ${label}`).toBe(403);
      expect((await call(method, url, adminToken, payload)).statusCode, `admin: ${label}`).toBe(adminStatus);
    }
    // Every route the OpenAPI document tags "Staff security" is in the table above.
    const document = (await call('GET', '/api/docs/json', null)).json<{
      paths: Record<string, Record<string, { tags?: string[] }>>;
    }>();
    const tagged = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.tags?.includes('Staff security'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    // The sign-in's second step is a door like sign-in itself (no session; second-factor-sign-in.test.ts).
    const doors = ['POST /api/auth/second-factor'];
    expect(tagged.sort()).toEqual([...routes.map(([method, url]) => `${method} ${url}`), ...doors].sort());
  });

  it('turns on with a code from the scanned secret, answers 10 recovery codes once, and refuses a replayed code', async () => {
    expect((await call('GET', '/api/users/second-factor', adminToken)).json()).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    const setup = await call('POST', '/api/users/second-factor/setup', adminToken);
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl, qrSvg } = setup.json<{ secret: string; otpauthUrl: string; qrSvg: string }>();
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    expect(qrSvg).toMatch(/^<svg/);

    const wrong = await call('POST', '/api/users/second-factor', adminToken, {
      code: '000000' === codeAt(secret) ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(SECOND_FACTOR_MESSAGES.wrongCode);

    const code = codeAt(secret);
    const on = await call('POST', '/api/users/second-factor', adminToken, { code });
    expect(on.statusCode).toBe(201);
    const { recoveryCodes } = on.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await call('GET', '/api/users/second-factor', adminToken)).json()).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
    });
    // Setting up again while on is refused; the secret in force stays.
    expect((await call('POST', '/api/users/second-factor/setup', adminToken)).statusCode).toBe(409);

    // The code that turned it on cannot be used again (a replay), a later one can.
    expect((await call('POST', '/api/users/second-factor/recovery-codes', adminToken, { code })).statusCode).toBe(400);
    const renewed = await call('POST', '/api/users/second-factor/recovery-codes', adminToken, {
      code: codeAt(secret, 30),
    });
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json<{ recoveryCodes: string[] }>().recoveryCodes;
    expect(fresh.some((entry) => recoveryCodes.includes(entry))).toBe(false);

    // An old recovery code no longer works; a new one turns it off, once.
    expect((await call('DELETE', '/api/users/second-factor', adminToken, { code: recoveryCodes[0] })).statusCode).toBe(
      400,
    );
    const off = await call('DELETE', '/api/users/second-factor', adminToken, { code: fresh[0]!.toUpperCase() });
    expect(off.statusCode).toBe(200);
    expect((await call('GET', '/api/users/second-factor', adminToken)).json()).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
  });

  it('refuses malformed codes with 400, never 500', async () => {
    for (const code of ['', '12', 'x'.repeat(50), '12345\u0000', { nested: true }]) {
      const response = await call('POST', '/api/users/second-factor', adminToken, { code });
      expect(response.statusCode, JSON.stringify(code)).toBe(400);
    }
  });
});
