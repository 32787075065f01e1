import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES } from '../../contracts/account-fields.ts';
import { addresses, passwordResetTokens, paymentMethods, products, users } from '../../db/schema.ts';
import { createSession } from '../../server/domain/sessions.ts';
import { generateToken, hashToken } from '../../server/domain/tokens.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

/*
 * The route × role matrix of the accounts issue: every route it adds, tried signed out, as
 * customer A, as customer B and as an admin. B and the admin always aim at A's records where
 * a route takes an id. Expected: signed out → 401 except on the four public doors; B or the
 * admin on A's ids → 404 (never 403, never the record); everything else the route's success.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Role = 'signed out' | 'customer A' | 'customer B' | 'admin';
/** Signed out last but one and A last: A's own account deletion is the table's last cell. */
const ROLES: Role[] = ['signed out', 'customer B', 'admin', 'customer A'];

interface Actor {
  role: Role;
  userId: number | undefined;
  email: string;
  password: string;
}

interface CellContext {
  actor: Actor;
  /** A fresh address and payment method of customer A, made for this cell. */
  addressId: number;
  paymentMethodId: number;
  productId: number;
  uniqueEmail: () => string;
  resetToken: () => Promise<string>;
  a: Actor;
}

interface RouteCase {
  method: Method;
  url: string;
  /** Open to everyone (the sign-in and reset doors). */
  public?: true;
  /** The id in the url is one of customer A's records. */
  owned?: 'address' | 'paymentMethod';
  body?: (context: CellContext) => unknown;
  success: number;
}

const PASSWORD = 'Harbour-Matrix-Pass-42';
const THIS_YEAR = new Date().getFullYear();
const ADDRESS = {
  addressType: 'Home',
  fullName: 'Ann Lee',
  addressLine1: '1 Main Street',
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

/** Every route the accounts issue adds, with a body that is valid for the actor. */
const ROUTES: RouteCase[] = [
  {
    method: 'POST',
    url: '/api/auth/register',
    public: true,
    success: 201,
    body: ({ uniqueEmail }) => ({
      firstName: 'New',
      lastName: 'Shopper',
      email: uniqueEmail(),
      password: PASSWORD,
      PhoneNumber: '0412 345 678',
      address: {
        addressLine1: '2 Side Street',
        city: 'Sydney',
        state: 'NSW',
        postalCode: '2000',
        country: 'Australia',
      },
    }),
  },
  {
    method: 'POST',
    url: '/api/auth/login',
    public: true,
    success: 200,
    body: ({ a }) => ({ email: a.email, password: a.password }),
  },
  {
    method: 'POST',
    url: '/api/auth/forgot-password',
    public: true,
    success: 202,
    body: ({ a }) => ({ email: a.email }),
  },
  {
    method: 'POST',
    url: '/api/auth/reset-password',
    public: true,
    success: 200,
    body: async ({ resetToken }) => ({ token: await resetToken(), newPassword: 'Matrix-Reset-Pass-77' }),
  },
  { method: 'POST', url: '/api/auth/logout', success: 200 },
  { method: 'GET', url: '/api/users/profile', success: 200 },
  { method: 'GET', url: '/api/users/summary', success: 200 },
  {
    method: 'PUT',
    url: '/api/users/profile',
    success: 200,
    body: () => ({ firstName: 'Matrix', lastName: 'Tester', phoneNumber: '0412 345 678' }),
  },
  {
    method: 'POST',
    url: '/api/users/change-password',
    success: 200,
    body: ({ actor }) => ({ currentPassword: actor.password || PASSWORD, newPassword: actor.password || PASSWORD }),
  },
  { method: 'GET', url: '/api/preferences', success: 200 },
  {
    method: 'PUT',
    url: '/api/preferences',
    success: 200,
    body: () => ({ marketingEmails: true, orderUpdateEmails: true, preferredContactMethod: 'sms' }),
  },
  { method: 'GET', url: '/api/wishlist', success: 200 },
  { method: 'POST', url: '/api/wishlist', success: 204, body: ({ productId }) => ({ productIds: [productId] }) },
  { method: 'PUT', url: '/api/wishlist/:productId', success: 204 },
  { method: 'DELETE', url: '/api/wishlist/:productId', success: 204 },
  { method: 'GET', url: '/api/addresses', success: 200 },
  { method: 'POST', url: '/api/addresses', success: 201, body: () => ADDRESS },
  {
    method: 'PUT',
    url: '/api/addresses/:id',
    owned: 'address',
    success: 200,
    body: () => ({ ...ADDRESS, city: 'Changed' }),
  },
  { method: 'POST', url: '/api/addresses/:id/set-default', owned: 'address', success: 200 },
  { method: 'DELETE', url: '/api/addresses/:id', owned: 'address', success: 204 },
  { method: 'GET', url: '/api/paymentmethods', success: 200 },
  { method: 'POST', url: '/api/paymentmethods', success: 201, body: () => CARD },
  {
    method: 'PUT',
    url: '/api/paymentmethods/:id',
    owned: 'paymentMethod',
    success: 200,
    body: () => ({ ...CARD, expiryMonth: '12' }),
  },
  { method: 'POST', url: '/api/paymentmethods/:id/set-default', owned: 'paymentMethod', success: 200 },
  { method: 'DELETE', url: '/api/paymentmethods/:id', owned: 'paymentMethod', success: 204 },
  // Last: each signed-in role deletes its own account.
  {
    method: 'DELETE',
    url: '/api/users/account',
    success: 200,
    // Deleting confirms with the current password (issue 21).
    body: ({ actor }) => ({ currentPassword: actor.password || PASSWORD }),
  },
];

function expectedStatus(route: RouteCase, role: Role): number {
  if (role === 'signed out') return route.public ? route.success : 401;
  if (route.owned && role !== 'customer A') return 404;
  return route.success;
}

const postgresAvailable = await isPostgresReachable();
const kinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'pglite', skip: false },
  { kind: 'postgres', skip: !postgresAvailable },
];

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`account route × role matrix on ${kind}`, () => {
    let shop: TestShop;
    let outbox: string;
    let productId: number;
    let sequence = 0;
    const actors = new Map<Role, Actor>();
    const unexpected2xx: string[] = [];

    function nextIp(): string {
      sequence += 1;
      return `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
    }
    const uniqueEmail = () => {
      sequence += 1;
      return `matrix.${sequence}.${kind}@example.com`;
    };

    async function call(method: Method, url: string, token: string | undefined, body?: unknown) {
      return shop.app.inject({
        method,
        url,
        remoteAddress: nextIp(),
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
      });
    }

    async function registerCustomer(firstName: string): Promise<Actor & { token: string }> {
      const email = uniqueEmail();
      const answer = await call('POST', '/api/auth/register', undefined, {
        firstName,
        lastName: 'Customer',
        email,
        password: PASSWORD,
        PhoneNumber: '0412 345 678',
        address: { addressLine1: '3 Own Street', city: 'Perth', state: 'WA', postalCode: '6000', country: 'Australia' },
      });
      expect(answer.statusCode).toBe(201);
      const { token, user } = answer.json() as { token: string; user: User };
      return { role: 'customer A', userId: user.id, email, password: PASSWORD, token };
    }

    beforeAll(async () => {
      outbox = mkdtempSync(join(tmpdir(), 'harbour-matrix-outbox-'));
      shop = await createTestShop(kind, { products: 3, env: { MAIL_OUTBOX_DIR: outbox } });
      const [product] = await shop.database.db.select({ id: products.id }).from(products).limit(1);
      productId = product?.id ?? 0;

      const [a, b] = await Promise.all([registerCustomer('Alice'), registerCustomer('Bob')]);
      actors.set('customer A', { ...a, role: 'customer A' });
      actors.set('customer B', { ...b, role: 'customer B' });
      actors.set('signed out', { role: 'signed out', userId: undefined, email: '', password: '' });

      const adminEmail = uniqueEmail();
      const adminPassword = 'Matrix-Admin-Pass-2024';
      await shop.app.services.accounts.ensureAdmin(adminEmail, adminPassword);
      const signedIn = await call('POST', '/api/auth/login', undefined, { email: adminEmail, password: adminPassword });
      expect(signedIn.statusCode).toBe(200);
      const admin = (signedIn.json() as { user: User }).user;
      expect(admin.role).toBe('admin');
      actors.set('admin', { role: 'admin', userId: admin.id, email: adminEmail, password: adminPassword });
    });
    afterAll(async () => {
      await shop?.app.services.mailer.idle();
      await shop?.close();
      if (outbox) rmSync(outbox, { recursive: true, force: true });
    });

    /** Customer A's fresh records for one cell, made through the API with A's own session. */
    async function freshRecordsOfA(): Promise<{ addressId: number; paymentMethodId: number }> {
      const a = actors.get('customer A') as Actor;
      const token = (await createSession(shop.database.db, a.userId ?? 0, 'matrix')).token;
      const address = await call('POST', '/api/addresses', token, ADDRESS);
      const card = await call('POST', '/api/paymentmethods', token, CARD);
      expect([address.statusCode, card.statusCode]).toEqual([201, 201]);
      return { addressId: (address.json() as { id: number }).id, paymentMethodId: (card.json() as { id: number }).id };
    }

    /** A reset link for a bystander account, so resets in the matrix do not touch A, B or the admin. */
    let bystanderId: number | undefined;
    async function resetToken(): Promise<string> {
      if (bystanderId === undefined) bystanderId = (await registerCustomer('Bystander')).userId;
      const token = generateToken();
      await shop.database.db
        .insert(passwordResetTokens)
        .values({ id: hashToken(token), userId: bystanderId ?? 0, expiresAt: new Date(Date.now() + 3_600_000) });
      return token;
    }

    it('lists every route the OpenAPI document tags Accounts, and no other', async () => {
      const answer = await call('GET', '/api/docs/json', undefined);
      expect(answer.statusCode).toBe(200);
      const document = answer.json() as { paths: Record<string, Record<string, { tags?: string[] }>> };
      const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([, operation]) => operation.tags?.includes('Accounts'))
          .map(([method, _]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      );
      expect(documented.sort()).toEqual(ROUTES.map((route) => `${route.method} ${route.url}`).sort());
    });

    for (const route of ROUTES) {
      describe(`${route.method} ${route.url}`, () => {
        for (const role of ROLES) {
          const expected = expectedStatus(route, role);
          it(`${role} → ${expected}`, async () => {
            const actor = actors.get(role) as Actor;
            const records = await freshRecordsOfA();
            const context: CellContext = {
              actor,
              ...records,
              productId,
              uniqueEmail,
              resetToken,
              a: actors.get('customer A') as Actor,
            };
            const url = route.url
              .replace(':productId', String(productId))
              .replace(':id', String(route.owned === 'paymentMethod' ? records.paymentMethodId : records.addressId));
            const token = actor.userId
              ? (await createSession(shop.database.db, actor.userId, 'matrix')).token
              : undefined;
            const table = route.owned === 'paymentMethod' ? paymentMethods : addresses;
            const id = route.owned === 'paymentMethod' ? records.paymentMethodId : records.addressId;
            const [before] = await shop.database.db.select().from(table).where(eq(table.id, id));

            const answer = await call(route.method, url, token, await route.body?.(context));

            if (answer.statusCode >= 200 && answer.statusCode < 300 && expected >= 300) {
              unexpected2xx.push(`${role} ${route.method} ${url} → ${answer.statusCode}`);
            }
            expect(answer.statusCode, answer.body).toBe(expected);
            if (expected === 401) {
              expect(answer.json()).toEqual({ message: ACCOUNT_MESSAGES.signedOut });
            }
            if (route.owned && expected === 404) {
              expect(answer.json()).toEqual({
                message: route.owned === 'address' ? 'Address not found' : 'Payment method not found',
              });
              // Nothing of A's record leaks, and the record is as it was.
              expect(answer.body).not.toContain('Main Street');
              const [after] = await shop.database.db.select().from(table).where(eq(table.id, id));
              expect(after).toEqual(before);
            }
            if (route.url === '/api/users/account' && expected === 200) {
              expect(await shop.database.db.$count(users, eq(users.id, actor.userId ?? 0))).toBe(0);
            }
          });
        }
      });
    }

    it('saw no unexpected 2xx in the whole matrix', () => {
      expect(unexpected2xx).toEqual([]);
    });
  });
}
