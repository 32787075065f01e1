import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES } from '../../contracts/account-fields.ts';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import {
  addresses,
  passwordResetTokens,
  paymentMethods,
  products,
  sessions,
  users,
  wishlistItems,
} from '../../db/schema.ts';
import { seedCatalogue } from '../../db/seed/seed-catalogue.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { ACCOUNT_DOOR_LIMITS, SIGN_IN_FAILURE_CAP } from '../../server/domain/accounts.ts';
import { hashToken } from '../../server/domain/tokens.ts';
import { CROSS_SITE_MESSAGE } from '../../server/plugins/security.ts';
import { readOutbox } from '../helpers/outbox.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

/*
 * The accounts issue's security baseline through inject: headers on API answers and errors,
 * JSON 404/405 under /api, cross-site writes refused, CORS only when configured, the sign-in
 * lock and per-IP caps, no user enumeration, and no secret in any response body or log line.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS' | 'PATCH';

interface Answer {
  status: number;
  text: string;
  headers: Record<string, string | string[] | number | undefined>;
  json: <T = { message: string; errors?: Record<string, string[]> }>() => T;
}

interface CallOptions {
  token?: string;
  cookie?: string;
  cookieName?: string;
  body?: unknown;
  ip?: string;
  headers?: Record<string, string>;
}

const PASSWORD = 'Harbour-Security-Pass-42';
const NEW_PASSWORD = 'Harbour-Security-Next-77';
const THIS_YEAR = new Date().getFullYear();
const ADDRESS = {
  addressType: 'Home',
  fullName: 'Sec Tester',
  addressLine1: '5 Safe Street',
  city: 'Sydney',
  state: 'NSW',
  postalCode: '2000',
  country: 'Australia',
};
const CARD = {
  paymentType: 'Credit Card',
  provider: 'Visa',
  last4Digits: '4242',
  expiryMonth: '07',
  expiryYear: THIS_YEAR + 1,
};

/** Every response this file receives, to be searched for secrets at the end. */
const responses: { label: string; text: string; headers: string; issuedToken?: string }[] = [];
/** Passwords sent, tokens issued or mailed, and what the database keeps of them. */
const secrets = new Set<string>();
const issuedTokens = new Set<string>();

let sequence = 0;
function nextIp(): string {
  sequence += 1;
  return `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
}
function uniqueEmail(tag: string): string {
  sequence += 1;
  return `${tag}.${sequence}@example.com`;
}

function rememberPasswords(body: unknown): void {
  if (body === null || typeof body !== 'object') return;
  for (const [key, value] of Object.entries(body)) {
    if (/password/i.test(key) && typeof value === 'string' && value.length >= 8) secrets.add(value);
  }
}

async function call(app: FastifyInstance, method: Method, url: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = `${options.cookieName ?? 'harbour_session'}=${options.cookie}`;
  rememberPasswords(options.body);
  const response = await app.inject({
    method,
    url,
    headers,
    remoteAddress: options.ip ?? nextIp(),
    ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
  });
  const text = response.body;
  let issuedToken: string | undefined;
  if (method === 'POST' && response.statusCode < 300 && /^\/api\/auth\/(login|register)/.test(url)) {
    issuedToken = (JSON.parse(text) as { token: string }).token;
    issuedTokens.add(issuedToken);
  }
  const { 'set-cookie': _cookie, ...otherHeaders } = response.headers;
  responses.push({
    label: `${method} ${url} → ${response.statusCode}`,
    text,
    headers: JSON.stringify(otherHeaders),
    ...(issuedToken ? { issuedToken } : {}),
  });
  return {
    status: response.statusCode,
    text,
    headers: response.headers,
    json: <T>() => JSON.parse(text) as T,
  };
}

/** What the database holds that must never leave it: password hashes, session and reset token hashes. */
async function rememberStoredSecrets(database: DatabaseHandle): Promise<void> {
  const { db } = database;
  for (const row of await db.select({ hash: users.passwordHash }).from(users)) if (row.hash) secrets.add(row.hash);
  for (const row of await db.select({ id: sessions.id }).from(sessions)) secrets.add(row.id);
  for (const row of await db.select({ id: passwordResetTokens.id }).from(passwordResetTokens)) secrets.add(row.id);
}

/** Runs `action` and returns the reset link of the one password-reset e-mail it caused. */
async function resetLinkDuring(app: FastifyInstance, outbox: string, action: () => Promise<unknown>): Promise<URL> {
  await app.services.mailer.idle();
  const before = new Set((await readOutbox(outbox)).map((mail) => mail.file));
  await action();
  await app.services.mailer.idle();
  const links = (await readOutbox(outbox))
    .filter((mail) => !before.has(mail.file))
    .map((mail) => /(https?:\/\/\S+\/reset-password\?token=\S+)/.exec(mail.text)?.[1])
    .filter((link): link is string => link !== undefined);
  expect(links).toHaveLength(1);
  const link = new URL(links[0] ?? '');
  const token = link.searchParams.get('token') ?? '';
  secrets.add(token);
  secrets.add(hashToken(token));
  return link;
}

function registerBody(email: string, password = PASSWORD) {
  return {
    firstName: 'Sec',
    lastName: 'Tester',
    email,
    password,
    PhoneNumber: '0412 345 678',
    address: { addressLine1: '5 Safe Street', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'Australia' },
  };
}

async function register(app: FastifyInstance, password = PASSWORD) {
  const email = uniqueEmail('secure');
  const answer = await call(app, 'POST', '/api/auth/register', { body: registerBody(email, password) });
  expect(answer.status).toBe(201);
  const { token, user } = answer.json<{ token: string; user: User }>();
  return { token, user, email, password };
}

function expectSecurityHeaders(answer: Answer, https = false): string {
  const csp = String(answer.headers['content-security-policy']);
  const directives = new Map(
    csp.split(';').map((directive) => {
      const [name = '', ...values] = directive.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );
  const scriptSrc = directives.get('script-src') ?? [];
  const nonce = scriptSrc.find((source) => source.startsWith("'nonce-"));
  expect(nonce).toMatch(/^'nonce-[A-Za-z0-9+/]{22}==?'$/);
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  expect(directives.get('default-src')).toEqual(["'self'"]);
  expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
  expect(directives.get('object-src')).toEqual(["'none'"]);
  expect(directives.has('upgrade-insecure-requests')).toBe(https);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(answer.headers['x-frame-options']).toBe('DENY');
  if (https) expect(answer.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  else expect(answer.headers['strict-transport-security']).toBeUndefined();
  return nonce ?? '';
}

const postgresAvailable = await isPostgresReachable();

describe('security baseline (PGlite)', () => {
  let shop: TestShop;
  let outbox: string;
  let productId: number;

  beforeAll(async () => {
    outbox = mkdtempSync(join(tmpdir(), 'harbour-security-outbox-'));
    shop = await createTestShop('pglite', { products: 3, env: { MAIL_OUTBOX_DIR: outbox } });
    const [product] = await shop.database.db.select({ id: products.id }).from(products).limit(1);
    productId = product?.id ?? 0;
  });
  afterAll(async () => {
    await shop?.app.services.mailer.idle();
    if (shop) await rememberStoredSecrets(shop.database);
    await shop?.close();
    if (outbox) rmSync(outbox, { recursive: true, force: true });
  });

  describe('security headers on a page-less app', () => {
    it.each([
      ['an API answer', 'GET', '/api/health', undefined, 200],
      ['a signed-out API answer', 'GET', '/api/users/profile', undefined, 401],
      ['a validation error', 'POST', '/api/auth/login', {}, 400],
      ['an unknown API path', 'GET', '/api/nothing-here', undefined, 404],
      ['a wrong method', 'DELETE', '/api/auth/login', undefined, 405],
      ['a path outside the API', 'GET', '/nothing-here', undefined, 404],
    ] as const)('are on %s', async (_case, method, url, body, status) => {
      const answer = await call(shop.app, method, url, body === undefined ? {} : { body });
      expect(answer.status).toBe(status);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expectSecurityHeaders(answer);
    });

    it('use a fresh script nonce for every response', async () => {
      const first = expectSecurityHeaders(await call(shop.app, 'GET', '/api/health'));
      const second = expectSecurityHeaders(await call(shop.app, 'GET', '/api/health'));
      expect(first).not.toBe(second);
    });
  });

  describe('JSON answers for paths under /api', () => {
    it.each([
      ['GET', '/api/nothing-here'],
      ['POST', '/api/users/nothing'],
      ['GET', '/api/auth'],
      ['DELETE', '/api/addresses/1/nothing'],
    ] as const)('%s %s → 404 { message }', async (method, url) => {
      const answer = await call(shop.app, method, url);
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.json()).toEqual({ message: `No API route for ${method} ${url}` });
    });

    it.each([
      ['POST', '/api/users/profile', 'GET, HEAD, PUT'],
      ['GET', '/api/auth/login', 'POST'],
      ['GET', '/api/auth/login?next=1', 'POST'],
      ['PATCH', '/api/addresses/12', 'PUT, DELETE'],
      ['GET', '/api/paymentmethods/12/set-default', 'POST'],
      ['PUT', '/api/wishlist', 'GET, HEAD, POST'],
    ] as const)('%s %s → 405 with Allow: %s', async (method, url, allow) => {
      const answer = await call(shop.app, method, url);
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe(allow);
      const path = url.split('?')[0];
      expect(answer.json()).toEqual({ message: `${method} is not allowed on ${path}; use ${allow}` });
    });
  });

  describe('cross-site writes', () => {
    const crossSite: [string, Record<string, string>][] = [
      ['Origin: https://evil.example', { origin: 'https://evil.example' }],
      ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
      ['Origin: null', { origin: 'null' }],
      ['a look-alike Origin', { origin: 'http://shop.test.evil.example' }],
    ];

    it.each(crossSite)(
      'refuses cookie-authenticated writes with %s (403) and changes nothing',
      async (_case, extra) => {
        const account = await register(shop.app);
        const headers = { host: 'shop.test', ...extra };
        const writes: [Method, string, unknown][] = [
          ['POST', '/api/addresses', ADDRESS],
          ['POST', '/api/paymentmethods', CARD],
          ['PUT', '/api/users/profile', { firstName: 'Hijacked', lastName: 'Name' }],
          ['POST', '/api/users/change-password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }],
          ['PUT', `/api/wishlist/${productId}`, undefined],
          [
            'PUT',
            '/api/preferences',
            { marketingEmails: true, orderUpdateEmails: false, preferredContactMethod: 'sms' },
          ],
          ['POST', '/api/auth/logout', undefined],
          ['DELETE', '/api/users/account', undefined],
        ];
        for (const [method, url, body] of writes) {
          const answer = await call(shop.app, method, url, { cookie: account.token, headers, body });
          expect(answer.status, `${method} ${url}`).toBe(403);
          expect(answer.json()).toEqual({ message: CROSS_SITE_MESSAGE });
          expectSecurityHeaders(answer);
        }
        const { db } = shop.database;
        const userId = account.user.id;
        const [row] = await db.select().from(users).where(eq(users.id, userId));
        expect(row?.firstName).toBe('Sec');
        expect(await db.$count(addresses, eq(addresses.userId, userId))).toBe(1);
        expect(await db.$count(paymentMethods, eq(paymentMethods.userId, userId))).toBe(0);
        expect(await db.$count(wishlistItems, eq(wishlistItems.userId, userId))).toBe(0);
        expect(await db.$count(sessions, eq(sessions.id, hashToken(account.token)))).toBe(1);
        expect((await call(shop.app, 'GET', '/api/preferences', { cookie: account.token })).json()).toEqual({
          marketingEmails: false,
          orderUpdateEmails: true,
          preferredContactMethod: 'email',
        });
        expect(
          (await call(shop.app, 'POST', '/api/auth/login', { body: { email: account.email, password: PASSWORD } }))
            .status,
        ).toBe(200);
      },
    );

    it('lets the same writes through with a bearer token, whatever the Origin', async () => {
      const account = await register(shop.app);
      const headers = { host: 'shop.test', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
      expect(
        (await call(shop.app, 'POST', '/api/addresses', { token: account.token, headers, body: ADDRESS })).status,
      ).toBe(201);
      expect(
        (
          await call(shop.app, 'PUT', '/api/users/profile', {
            token: account.token,
            headers,
            body: { firstName: 'Api', lastName: 'Client' },
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await call(shop.app, 'DELETE', '/api/users/account', {
            token: account.token,
            headers,
            body: { currentPassword: PASSWORD },
          })
        ).status,
      ).toBe(200);
    });

    it('lets same-site and non-browser cookie writes through', async () => {
      const account = await register(shop.app);
      const sameSite: Record<string, string>[] = [
        { host: 'shop.test', origin: 'http://shop.test' },
        { host: 'shop.test', 'sec-fetch-site': 'same-origin' },
        { host: 'shop.test' },
      ];
      for (const headers of sameSite) {
        const answer = await call(shop.app, 'POST', '/api/addresses', {
          cookie: account.token,
          headers,
          body: ADDRESS,
        });
        expect(answer.status, JSON.stringify(headers)).toBe(201);
      }
    });

    it('does not treat another Authorization scheme as a way around the check', async () => {
      const account = await register(shop.app);
      const answer = await call(shop.app, 'POST', '/api/addresses', {
        cookie: account.token,
        headers: { host: 'shop.test', origin: 'https://evil.example', authorization: 'Basic ZXZpbDpldmls' },
        body: ADDRESS,
      });
      expect(answer.status).toBe(401);
      expect(answer.json()).toEqual({ message: ACCOUNT_MESSAGES.signedOut });
      expect(await shop.database.db.$count(addresses, eq(addresses.userId, account.user.id))).toBe(1);
    });

    it('refuses a cross-site sign-in form post (login CSRF)', async () => {
      const account = await register(shop.app);
      const answer = await call(shop.app, 'POST', '/api/auth/login', {
        headers: { host: 'shop.test', origin: 'https://evil.example' },
        body: { email: account.email, password: PASSWORD },
      });
      expect(answer.status).toBe(403);
      expect(answer.headers['set-cookie']).toBeUndefined();
    });
  });

  describe('CORS', () => {
    it('is off by default: no Access-Control-Allow-Origin on preflights or answers', async () => {
      const preflight = await call(shop.app, 'OPTIONS', '/api/auth/login', {
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
      const read = await call(shop.app, 'GET', '/api/health', { headers: { origin: 'https://app.example' } });
      expect(read.status).toBe(200);
      expect(read.headers['access-control-allow-origin']).toBeUndefined();
    });

    describe('with CORS_ORIGINS=https://app.example', () => {
      let corsShop: TestShop;
      beforeAll(async () => {
        corsShop = await createTestShop('pglite', {
          products: 1,
          env: { CORS_ORIGINS: 'https://app.example', MAIL_OUTBOX_DIR: outbox },
        });
      });
      afterAll(async () => {
        await corsShop?.app.services.mailer.idle();
        if (corsShop) await rememberStoredSecrets(corsShop.database);
        await corsShop?.close();
      });

      it('answers the preflight for that origin only', async () => {
        const allowed = await call(corsShop.app, 'OPTIONS', '/api/auth/login', {
          headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
        });
        expect(allowed.status).toBe(204);
        expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
        expect(allowed.headers['access-control-allow-credentials']).toBe('true');
        expect(String(allowed.headers['access-control-allow-methods'])).toContain('POST');

        const other = await call(corsShop.app, 'OPTIONS', '/api/auth/login', {
          headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
        });
        expect(other.headers['access-control-allow-origin']).toBeUndefined();
        const read = await call(corsShop.app, 'GET', '/api/health', { headers: { origin: 'https://evil.example' } });
        expect(read.headers['access-control-allow-origin']).toBeUndefined();
      });

      it('lets cookie writes from that origin through and still refuses other sites', async () => {
        const account = await register(corsShop.app);
        const fromApp = await call(corsShop.app, 'POST', '/api/addresses', {
          cookie: account.token,
          headers: { host: 'shop.test', origin: 'https://app.example', 'sec-fetch-site': 'cross-site' },
          body: ADDRESS,
        });
        expect(fromApp.status).toBe(201);
        expect(fromApp.headers['access-control-allow-origin']).toBe('https://app.example');
        const fromEvil = await call(corsShop.app, 'POST', '/api/addresses', {
          cookie: account.token,
          headers: { host: 'shop.test', origin: 'https://evil.example' },
          body: ADDRESS,
        });
        expect(fromEvil.status).toBe(403);
      });
    });
  });

  describe('no user enumeration', () => {
    it('takes similar time for an unknown e-mail and a wrong password (medians within 3×)', async () => {
      const account = await register(shop.app);
      const time = async (email: string, password: string) => {
        const started = performance.now();
        const answer = await call(shop.app, 'POST', '/api/auth/login', { body: { email, password } });
        const elapsed = performance.now() - started;
        expect(answer.status).toBe(401);
        return elapsed;
      };
      // Warm both paths (the dummy hash for unknown e-mails is made on first use).
      await time(uniqueEmail('nobody'), 'Wrong-Password-1');
      await time(account.email, 'Wrong-Password-1');
      const unknown: number[] = [];
      const wrong: number[] = [];
      // Each from another address (call's default), so the per-address slow-down plays no part.
      for (let round = 0; round < 7; round += 1) {
        unknown.push(await time(uniqueEmail('nobody'), 'Wrong-Password-1'));
        wrong.push(await time(account.email, 'Wrong-Password-1'));
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
      const ratio = median(unknown) / median(wrong);
      expect(ratio, `unknown ${median(unknown).toFixed(1)} ms, wrong ${median(wrong).toFixed(1)} ms`).toBeGreaterThan(
        1 / 3,
      );
      expect(ratio).toBeLessThan(3);
      // A verification really happens on both paths: neither answers instantly.
      expect(median(unknown)).toBeGreaterThan(5);
    });
  });

  describe('https (PUBLIC_URL=https://shop.example)', () => {
    let httpsShop: TestShop;
    let httpsOutbox: string;
    beforeAll(async () => {
      httpsOutbox = mkdtempSync(join(tmpdir(), 'harbour-https-outbox-'));
      httpsShop = await createTestShop('pglite', {
        products: 1,
        env: { PUBLIC_URL: 'https://shop.example', MAIL_OUTBOX_DIR: httpsOutbox },
      });
    });
    afterAll(async () => {
      await httpsShop?.app.services.mailer.idle();
      if (httpsShop) await rememberStoredSecrets(httpsShop.database);
      await httpsShop?.close();
      if (httpsOutbox) rmSync(httpsOutbox, { recursive: true, force: true });
    });

    it('sends HSTS and upgrade-insecure-requests on answers and errors', async () => {
      expectSecurityHeaders(await call(httpsShop.app, 'GET', '/api/health'), true);
      expectSecurityHeaders(await call(httpsShop.app, 'GET', '/api/users/profile'), true);
      expectSecurityHeaders(await call(httpsShop.app, 'GET', '/api/nothing'), true);
    });

    it('names the cookie __Host-harbour_session, Secure, and reads only that name', async () => {
      const account = await register(httpsShop.app);
      const answer = await call(httpsShop.app, 'POST', '/api/auth/login', {
        body: { email: account.email, password: PASSWORD },
      });
      expect(answer.status).toBe(200);
      const { token } = answer.json<{ token: string }>();
      const cookie = String(answer.headers['set-cookie']);
      const parts = cookie.split(';').map((part) => part.trim());
      expect(parts[0]).toBe(`__Host-harbour_session=${token}`);
      expect(parts).toEqual(expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Lax', 'Path=/']));
      expect(parts.some((part) => part.toLowerCase().startsWith('domain='))).toBe(false);

      const byHostCookie = await call(httpsShop.app, 'GET', '/api/users/profile', {
        cookie: token,
        cookieName: '__Host-harbour_session',
      });
      expect(byHostCookie.status).toBe(200);
      const byPlainCookie = await call(httpsShop.app, 'GET', '/api/users/profile', { cookie: token });
      expect(byPlainCookie.status).toBe(401);

      const logout = await call(httpsShop.app, 'POST', '/api/auth/logout', { token });
      expect(logout.headers['set-cookie']).toEqual([
        '__Host-harbour_session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax',
        '__Host-harbour_signed_in=; Max-Age=0; Path=/; Secure; SameSite=Lax',
      ]);
    });

    it('builds the reset link on PUBLIC_URL, whatever Host header the request forged', async () => {
      const account = await register(httpsShop.app);
      const link = await resetLinkDuring(httpsShop.app, httpsOutbox, () =>
        call(httpsShop.app, 'POST', '/api/auth/forgot-password', {
          headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
          body: { email: account.email },
        }),
      );
      expect(link.origin).toBe('https://shop.example');
      expect(link.pathname).toBe('/reset-password');
    });
  });

  describe('no secret in any response body', () => {
    it('tours every account route, errors included', async () => {
      const app = shop.app;
      const account = await register(app);
      const second = await call(app, 'POST', '/api/auth/login', { body: { email: account.email, password: PASSWORD } });
      const token = second.json<{ token: string }>().token;
      await call(app, 'POST', '/api/auth/login', { body: { email: account.email, password: 'Wrong-Password-1' } });
      await call(app, 'POST', '/api/auth/register', { body: registerBody(account.email) });
      await call(app, 'POST', '/api/auth/register', { body: registerBody(uniqueEmail('common'), 'password1') });
      await call(app, 'GET', '/api/users/profile', { token });
      await call(app, 'GET', '/api/users/profile', { cookie: account.token });
      await call(app, 'PUT', '/api/users/profile', { token, body: { firstName: 'Tour', lastName: 'Guide' } });
      await call(app, 'POST', '/api/users/change-password', {
        token,
        body: { currentPassword: 'Wrong-Password-1', newPassword: NEW_PASSWORD },
      });
      await call(app, 'POST', '/api/users/change-password', {
        token,
        body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
      });
      const address = (await call(app, 'POST', '/api/addresses', { token, body: ADDRESS })).json<{ id: number }>();
      await call(app, 'GET', '/api/addresses', { token });
      await call(app, 'PUT', `/api/addresses/${address.id}`, { token, body: ADDRESS });
      await call(app, 'POST', `/api/addresses/${address.id}/set-default`, { token });
      await call(app, 'DELETE', `/api/addresses/${address.id}`, { token });
      const card = (await call(app, 'POST', '/api/paymentmethods', { token, body: CARD })).json<{ id: number }>();
      await call(app, 'POST', '/api/paymentmethods', {
        token,
        body: { ...CARD, cardNumber: '4242424242424242', cvv: '123' },
      });
      await call(app, 'GET', '/api/paymentmethods', { token });
      await call(app, 'PUT', `/api/paymentmethods/${card.id}`, { token, body: CARD });
      await call(app, 'POST', `/api/paymentmethods/${card.id}/set-default`, { token });
      await call(app, 'DELETE', `/api/paymentmethods/${card.id}`, { token });
      await call(app, 'GET', '/api/preferences', { token });
      await call(app, 'PUT', '/api/preferences', {
        token,
        body: { marketingEmails: true, orderUpdateEmails: true, preferredContactMethod: 'email' },
      });
      await call(app, 'PUT', `/api/wishlist/${productId}`, { token });
      await call(app, 'POST', '/api/wishlist', { token, body: { productIds: [productId] } });
      await call(app, 'GET', '/api/wishlist', { token });
      await call(app, 'DELETE', `/api/wishlist/${productId}`, { token });
      await rememberStoredSecrets(shop.database);

      const link = await resetLinkDuring(app, outbox, () =>
        call(app, 'POST', '/api/auth/forgot-password', { body: { email: account.email } }),
      );
      await rememberStoredSecrets(shop.database);
      const resetToken = link.searchParams.get('token') ?? '';
      await call(app, 'POST', '/api/auth/reset-password', { body: { token: resetToken, newPassword: 'password1' } });
      await call(app, 'POST', '/api/auth/reset-password', { body: { token: resetToken, newPassword: PASSWORD } });
      await call(app, 'POST', '/api/auth/reset-password', { body: { token: resetToken, newPassword: PASSWORD } });
      const third = (
        await call(app, 'POST', '/api/auth/login', { body: { email: account.email, password: PASSWORD } })
      ).json<{ token: string }>().token;
      await rememberStoredSecrets(shop.database);
      await call(app, 'POST', '/api/auth/logout', { token: third });
      const fourth = (
        await call(app, 'POST', '/api/auth/login', { body: { email: account.email, password: PASSWORD } })
      ).json<{ token: string }>().token;
      await rememberStoredSecrets(shop.database);
      await call(app, 'DELETE', '/api/users/account', { token: fourth, body: { currentPassword: PASSWORD } });
      await call(app, 'GET', '/api/users/profile', { token: fourth });
      expect(responses.length).toBeGreaterThan(40);
    });
  });
});

for (const kind of ['pglite', 'postgres'] as const satisfies readonly DatabaseKind[]) {
  describe.skipIf(kind === 'postgres' && !postgresAvailable)(`throttling on ${kind}`, () => {
    let shop: TestShop;
    let outbox: string;
    beforeAll(async () => {
      outbox = mkdtempSync(join(tmpdir(), 'harbour-throttle-outbox-'));
      shop = await createTestShop(kind, { products: 1, env: { MAIL_OUTBOX_DIR: outbox } });
    });
    afterAll(async () => {
      await shop?.app.services.mailer.idle();
      if (shop) await rememberStoredSecrets(shop.database);
      await shop?.close();
      if (outbox) rmSync(outbox, { recursive: true, force: true });
    });

    it('takes at most 50 failed sign-ins an hour for one account from all addresses: the 51st answers 429 even with the right password', async () => {
      const capped = await register(shop.app);
      const other = await register(shop.app);
      for (let attempt = 1; attempt <= SIGN_IN_FAILURE_CAP.limit; attempt += 1) {
        // Upper and lower case count against the same account, each try from another address.
        const email = attempt % 2 === 0 ? capped.email.toUpperCase() : capped.email;
        const answer = await call(shop.app, 'POST', '/api/auth/login', {
          body: { email, password: `Wrong-${attempt}-Pass` },
        });
        expect(answer.status, `attempt ${attempt}`).toBe(401);
        expect(answer.json()).toEqual({ message: ACCOUNT_MESSAGES.invalidCredentials });
      }
      for (const password of [PASSWORD, 'Still-Wrong-Pass']) {
        const answer = await call(shop.app, 'POST', '/api/auth/login', { body: { email: capped.email, password } });
        expect(answer.status).toBe(429);
        expect(answer.json()).toEqual({ message: ACCOUNT_MESSAGES.tooManyAttempts });
        const retryAfter = Number(answer.headers['retry-after']);
        expect(Number.isInteger(retryAfter)).toBe(true);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_FAILURE_CAP.windowMs / 1000);
        expect(answer.headers['set-cookie']).toBeUndefined();
      }

      // The count is kept in the database: a second process sees it too.
      const secondProcess = await buildApp({ config: shop.app.config, database: shop.database, logger: false });
      try {
        await secondProcess.ready();
        const elsewhere = await call(secondProcess, 'POST', '/api/auth/login', {
          body: { email: capped.email, password: PASSWORD },
        });
        expect(elsewhere.status).toBe(429);
      } finally {
        await secondProcess.close();
      }

      // Other accounts are unaffected, and the capped one's sessions still work.
      expect(
        (await call(shop.app, 'POST', '/api/auth/login', { body: { email: other.email, password: PASSWORD } })).status,
      ).toBe(200);
      expect((await call(shop.app, 'GET', '/api/users/profile', { token: capped.token })).status).toBe(200);

      // Password reset still works for the capped account, and lifts the cap.
      const link = await resetLinkDuring(shop.app, outbox, async () => {
        const answer = await call(shop.app, 'POST', '/api/auth/forgot-password', { body: { email: capped.email } });
        expect(answer.status).toBe(202);
        expect(answer.json()).toEqual({ message: ACCOUNT_MESSAGES.forgotPasswordSent });
      });
      const reset = await call(shop.app, 'POST', '/api/auth/reset-password', {
        body: { token: link.searchParams.get('token'), newPassword: NEW_PASSWORD },
      });
      expect(reset.status).toBe(200);
      expect(
        (await call(shop.app, 'POST', '/api/auth/login', { body: { email: capped.email, password: NEW_PASSWORD } }))
          .status,
      ).toBe(200);
    });

    it('caps forgot-password at 10 per 15 minutes per address, and reset-password apart from it', async () => {
      const ip = '192.0.2.10';
      const account = await register(shop.app);
      const max = ACCOUNT_DOOR_LIMITS.forgotPassword.limit;
      expect(max).toBe(10);
      for (let request = 1; request <= max; request += 1) {
        const answer = await call(shop.app, 'POST', '/api/auth/forgot-password', {
          ip,
          body: { email: uniqueEmail('who') },
        });
        expect(answer.status, `request ${request}`).toBe(202);
      }
      const answer = await call(shop.app, 'POST', '/api/auth/forgot-password', { ip, body: { email: account.email } });
      expect(answer.status).toBe(429);
      expect(answer.json()).toEqual({ message: 'Too many requests. Please try again shortly.' });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      // Reset tries have their own 10 (tests/api/account-doors.test.ts).
      const reset = await call(shop.app, 'POST', '/api/auth/reset-password', {
        ip,
        body: { token: 'x'.repeat(43), newPassword: NEW_PASSWORD },
      });
      expect(reset.status).toBe(400);
      const fromElsewhere = await call(shop.app, 'POST', '/api/auth/forgot-password', {
        ip: '192.0.2.11',
        body: { email: account.email },
      });
      expect(fromElsewhere.status).toBe(202);
    });

    it.each([
      ['register', '/api/auth/register', ACCOUNT_DOOR_LIMITS.register.limit, '192.0.2.20', 409],
      ['login', '/api/auth/login', ACCOUNT_DOOR_LIMITS.signIn.limit, '192.0.2.21', 401],
    ] as const)(
      'caps %s per address (%s: %i per 15 minutes), failures included',
      async (name, url, max, ip, failed) => {
        const taken = await register(shop.app);
        // A taken e-mail (409, no hash made) or an unknown one (401): malformed bodies stop at the
        // schema (400, nothing checked) and are not the doors' business.
        const body = () =>
          name === 'register'
            ? registerBody(taken.email)
            : { email: uniqueEmail('nobody'), password: 'Wrong-Password-1' };
        const statuses: number[] = [];
        // In batches of 20 at once, as a busy client would send them.
        for (let sent = 0; sent < max; sent += 20) {
          const batch = Array.from({ length: Math.min(20, max - sent) }, () =>
            call(shop.app, 'POST', url, { ip, body: body() }),
          );
          statuses.push(...(await Promise.all(batch)).map((answer) => answer.status));
        }
        expect(statuses).toHaveLength(max);
        expect(new Set(statuses)).toEqual(new Set([failed]));
        const over = await call(shop.app, 'POST', url, { ip, body: body() });
        expect(over.status).toBe(429);
        expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
        expect((await call(shop.app, 'POST', url, { ip: '192.0.2.99', body: body() })).status).toBe(failed);
      },
    );
  });
}

describe('no secret in a log line', () => {
  let app: FastifyInstance;
  let database: DatabaseHandle;
  let outbox: string;
  const lines: string[] = [];

  beforeAll(async () => {
    outbox = mkdtempSync(join(tmpdir(), 'harbour-log-outbox-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'trace',
      DATA_DIR: '/tmp/harbour-tests-unused',
      MAIL_OUTBOX_DIR: outbox,
    });
    database = await openDatabase({ kind: 'pglite' });
    await database.migrate();
    await seedCatalogue(database.db, { products: 1, mediaDir: null });
    const stream = { write: (line: string) => lines.push(line) };
    app = await buildApp({ config, database, logger: { level: 'trace', stream } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    if (database) await rememberStoredSecrets(database);
    await database?.close();
    if (outbox) rmSync(outbox, { recursive: true, force: true });
  });

  it('logs requests with redacted URLs and no password, token, token hash or password hash', async () => {
    const account = await register(app);
    const signedIn = await call(app, 'POST', '/api/auth/login', { body: { email: account.email, password: PASSWORD } });
    const token = signedIn.json<{ token: string }>().token;
    await rememberStoredSecrets(database);
    await call(app, 'POST', '/api/auth/login', { body: { email: account.email, password: 'Wrong-Password-1' } });
    await call(app, 'GET', '/api/users/profile', { token });
    await call(app, 'GET', '/api/users/profile', { cookie: account.token });
    await call(app, 'GET', `/api/users/profile?token=${token}`);
    await call(app, 'POST', '/api/paymentmethods', {
      token,
      body: { ...CARD, cardNumber: '4242424242424242', cvv: '987' },
    });
    await call(app, 'POST', '/api/users/change-password', {
      token,
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    await rememberStoredSecrets(database);
    const link = await resetLinkDuring(app, outbox, () =>
      call(app, 'POST', '/api/auth/forgot-password', { body: { email: account.email } }),
    );
    await rememberStoredSecrets(database);
    const resetToken = link.searchParams.get('token') ?? '';
    // The page a reset link opens: its URL goes through the request log.
    await call(app, 'GET', `/reset-password?token=${resetToken}`);
    await call(app, 'GET', `/reset-password?email=x&token=${resetToken}#top`);
    await call(app, 'POST', '/api/auth/reset-password', {
      body: { token: resetToken, newPassword: 'Harbour-Reset-Log-99' },
    });
    await call(app, 'POST', '/api/auth/login', { body: { email: account.email, password: 'Harbour-Reset-Log-99' } });
    await rememberStoredSecrets(database);
    await app.services.mailer.idle();

    const log = lines.join('');
    expect(log).toContain('incoming request');
    expect(log).toContain('request completed');
    expect(log).toContain('/reset-password?token=[redacted]');
    expect(log).toContain('/reset-password?email=x&token=[redacted]');
    expect(log).toContain('/api/users/profile?token=[redacted]');
    expect(log).toContain('e-mail written to the outbox');

    const forbidden = [
      ...secrets,
      ...[...issuedTokens].flatMap((issued) => [issued, hashToken(issued)]),
      resetToken,
      hashToken(resetToken),
      '4242424242424242',
      '$argon2',
    ];
    expect(forbidden.length).toBeGreaterThan(8);
    for (const [index, line] of lines.entries()) {
      for (const secret of forbidden) {
        expect(line.includes(secret), `log line ${index} holds a secret: ${line}`).toBe(false);
      }
    }
  });
});

describe('every response of this file', () => {
  it('holds no password, password hash, token hash or reset token, and a session token only where it is issued', async () => {
    const tokens = [...issuedTokens];
    const hashes = tokens.map((token) => hashToken(token));
    expect(responses.length).toBeGreaterThan(200);
    expect(secrets.size).toBeGreaterThan(20);
    for (const response of responses) {
      for (const secret of [...secrets, ...hashes, '$argon2']) {
        expect(response.text.includes(secret), `${response.label} holds a secret`).toBe(false);
        expect(response.headers.includes(secret), `${response.label} has a secret in a header`).toBe(false);
      }
      for (const token of tokens) {
        if (token === response.issuedToken) continue;
        expect(response.text.includes(token), `${response.label} holds another session's token`).toBe(false);
      }
    }
  });
});
