import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../contracts/account-fields.ts';
import { memberships, orders, pointsLedger, products, users } from '../../db/schema.ts';
import { hashPassword } from '../../server/domain/passwords.ts';
import { createSession } from '../../server/domain/sessions.ts';
import { CROSS_SITE_MESSAGE } from '../../server/plugins/security.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

/*
 * The route × role matrix of the membership issue: every membership, points and redemption
 * route, tried signed out, as customer A, as customer B and as an admin. Each cell starts from
 * fresh accounts in the state the route needs (a member for PUT and DELETE, points for a
 * redemption), A's state the richest. Expected: signed out → 401 and nothing changes anywhere;
 * anyone signed in → the route's success on their own account, and when that is not A's,
 * nothing of A's changes or shows (memberships are per account; B's redemptions spend B's
 * points). The table is tied to the OpenAPI document, so a new route without a row fails.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Role = 'signed out' | 'customer A' | 'customer B' | 'admin';
const ROLES: Role[] = ['signed out', 'customer B', 'admin', 'customer A'];

const PASSWORD = 'Harbour-Matrix-Member-42';
const COST = 40;
/** Points only A has: a number that shows nowhere else, so a leak of A's ledger would show. */
const A_EXTRA_POINTS = 98_765;
const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const SHIPPING = {
  fullName: 'Ann Lee',
  addressLine1: '14 Boundary Lane',
  city: 'Silverwater',
  state: 'NSW',
  postalCode: '2128',
  country: 'Australia',
};

/** What the accounts of one cell start with. */
interface Setup {
  /** A membership on this plan (none when absent). */
  plan?: 'basic' | 'premium';
  /** Points given before the call. */
  points?: number;
}

interface RouteCase {
  method: Method;
  url: string;
  success: number;
  /** How every signed-in account of the cell starts (A also gets a membership and points to leak). */
  setup: Setup;
  body?: (productId: number) => unknown;
  /** What the actor's own account looks like after a successful call. */
  check?: (answer: unknown, own: AccountState) => void;
}

interface AccountState {
  membership: { plan: string; status: string } | null;
  balance: number;
  ledger: { kind: string; points: number; note: string }[];
  orders: number;
}

const ROUTES: RouteCase[] = [
  {
    method: 'GET',
    url: '/api/membership',
    success: 200,
    setup: {},
    check: (answer) => expect(answer).toEqual({ membership: null }),
  },
  {
    method: 'POST',
    url: '/api/membership',
    success: 201,
    setup: {},
    body: () => ({
      plan: 'premium',
      password: PASSWORD,
      confirmPassword: PASSWORD,
      cardData: { Number: '4242 4242 4242 4242', Expiry: EXPIRY, Cvc: '123', Name: 'Ann Lee' },
    }),
    check: (answer, own) => {
      expect(answer).toMatchObject({ plan: 'premium', status: 'active' });
      expect(own.membership).toMatchObject({ plan: 'premium', status: 'active' });
    },
  },
  {
    method: 'PUT',
    url: '/api/membership',
    success: 200,
    setup: { plan: 'basic' },
    // Basic → Premium is paid at once, pro-rated (about a whole month's difference here), by this card.
    body: () => ({
      plan: 'premium',
      cardData: { Number: '4242 4242 4242 4242', Expiry: EXPIRY, Cvc: '123', Name: 'Ann Lee' },
    }),
    check: (answer, own) => {
      expect(answer).toMatchObject({
        plan: 'premium',
        status: 'active',
        lastCharge: { kind: 'upgrade', plan: 'premium', last4: '4242' },
        paymentMethod: { last4Digits: '4242' },
      });
      expect(own.membership).toMatchObject({ plan: 'premium', status: 'active' });
    },
  },
  {
    method: 'DELETE',
    url: '/api/membership',
    success: 200,
    setup: { plan: 'basic' },
    check: (answer, own) => {
      expect(answer).toMatchObject({ plan: 'basic', status: 'cancelling' });
      expect(own.membership).toMatchObject({ plan: 'basic', status: 'cancelling' });
    },
  },
  {
    method: 'GET',
    url: '/api/points',
    success: 200,
    setup: { points: 7 },
    check: (answer) =>
      expect(answer).toEqual({
        balance: 7,
        // A gift inserted straight into the ledger is available at once (issue 21's pending points).
        available: 7,
        pending: 0,
        pendingReleases: [],
        entries: [expect.objectContaining({ kind: 'earn', points: 7, note: 'Matrix gift', balanceAfter: 7 })],
        page: 1,
        totalCount: 1,
        totalPages: 1,
      }),
  },
  {
    method: 'POST',
    url: '/api/redemptions',
    success: 201,
    setup: { points: COST },
    body: (productId) => ({ productId, quantity: 1, shippingAddress: SHIPPING }),
    check: (answer, own) => {
      expect(answer).toMatchObject({ status: 'Processing', pointsSpent: COST, total: 0 });
      expect(own.balance).toBe(0);
      expect(own.orders).toBe(1);
    },
  },
];

function expectedStatus(route: RouteCase, role: Role): number {
  return role === 'signed out' ? 401 : route.success;
}

const postgresAvailable = await isPostgresReachable();
const kinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'pglite', skip: false },
  { kind: 'postgres', skip: !postgresAvailable },
];

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`membership route × role matrix on ${kind}`, () => {
    let shop: TestShop;
    let passwordHash: string;
    let productId: number;
    let sequence = 0;
    const unexpected2xx: string[] = [];

    function nextIp(): string {
      sequence += 1;
      return `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
    }

    async function call(
      method: Method,
      url: string,
      token: string | undefined,
      body?: unknown,
      headers: Record<string, string> = {},
    ) {
      return shop.app.inject({
        method,
        url,
        remoteAddress: nextIp(),
        headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
      });
    }

    /** A fresh account made directly (one password hash shared by all), in the given state. */
    async function account(
      role: 'customer' | 'admin',
      setup: Setup,
    ): Promise<{ userId: number; token: string; email: string }> {
      sequence += 1;
      const email = `membership.matrix.${sequence}.${kind}@example.com`;
      const [row] = await shop.database.db
        .insert(users)
        .values({
          email,
          firstName: 'Matrix',
          lastName: `${role} ${sequence}`,
          passwordHash,
          role,
        })
        .returning({ id: users.id });
      const userId = row!.id;
      if (setup.plan) {
        const now = new Date();
        await shop.database.db.insert(memberships).values({
          userId,
          plan: setup.plan,
          status: 'active',
          startedAt: now,
          renewsOn: new Date(now.getTime() + 30 * 86_400_000),
        });
      }
      if (setup.points) {
        await shop.database.db
          .insert(pointsLedger)
          .values({ userId, kind: 'earn', points: setup.points, orderId: null, note: 'Matrix gift' });
      }
      const { token } = await createSession(shop.database.db, userId, 'membership-matrix');
      return { userId, token, email };
    }

    async function stateOf(userId: number): Promise<AccountState> {
      const { db } = shop.database;
      const [membership] = await db
        .select({ plan: memberships.plan, status: memberships.status, renewsOn: memberships.renewsOn })
        .from(memberships)
        .where(eq(memberships.userId, userId));
      const ledger = await db
        .select({ kind: pointsLedger.kind, points: pointsLedger.points, note: pointsLedger.note })
        .from(pointsLedger)
        .where(eq(pointsLedger.userId, userId))
        .orderBy(asc(pointsLedger.id));
      return {
        membership: membership ? { plan: membership.plan, status: membership.status } : null,
        balance: ledger.reduce((sum, entry) => sum + entry.points, 0),
        ledger,
        orders: await db.$count(orders, eq(orders.userId, userId)),
      };
    }

    async function totals() {
      const { db } = shop.database;
      const [stock] = await db
        .select({ stock: products.stockQuantity })
        .from(products)
        .where(eq(products.id, productId));
      return {
        memberships: await db.$count(memberships),
        ledger: await db.$count(pointsLedger),
        points: Number(
          (await db.select({ sum: sql<number>`coalesce(sum(${pointsLedger.points}), 0)::int` }).from(pointsLedger))[0]
            ?.sum,
        ),
        orders: await db.$count(orders),
        stock: stock?.stock,
      };
    }

    beforeAll(async () => {
      shop = await createTestShop(kind, { products: 3, env: { PAYMENT_DECLINE_RATE: '1' } });
      passwordHash = await hashPassword(PASSWORD);
      const [product] = await shop.database.db.select({ id: products.id }).from(products).limit(1);
      productId = product!.id;
      await shop.database.db
        .update(products)
        .set({ stockQuantity: 10_000, isActive: true, isRedemption: true, pointsCost: COST })
        .where(eq(products.id, productId));
    });
    afterAll(async () => {
      await shop?.app.services.mailer.idle();
      await shop?.close();
    });

    it('lists every route the OpenAPI document tags Membership, and no other', async () => {
      const answer = await call('GET', '/api/docs/json', undefined);
      expect(answer.statusCode).toBe(200);
      const document = answer.json() as { paths: Record<string, Record<string, { tags?: string[] }>> };
      const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([, operation]) => operation.tags?.includes('Membership'))
          .map(([method]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      );
      expect(documented.sort()).toEqual(ROUTES.map((route) => `${route.method} ${route.url}`).sort());
    });

    for (const route of ROUTES) {
      describe(`${route.method} ${route.url}`, () => {
        for (const role of ROLES) {
          const expected = expectedStatus(route, role);
          it(`${role} → ${expected}`, async () => {
            // A is always a Premium member with points of their own, whatever the route needs.
            const a = await account('customer', {
              plan: route.setup.plan ?? 'premium',
              points: (route.setup.points ?? 0) + A_EXTRA_POINTS,
            });
            const actor =
              role === 'customer A'
                ? a
                : role === 'signed out'
                  ? undefined
                  : await account(role === 'admin' ? 'admin' : 'customer', route.setup);
            // For A's own POST /api/membership the route needs a non-member: A's membership goes.
            if (role === 'customer A' && route.method === 'POST' && route.url === '/api/membership') {
              await shop.database.db.delete(memberships).where(eq(memberships.userId, a.userId));
            }
            const aBefore = await stateOf(a.userId);
            const before = await totals();

            const answer = await call(route.method, route.url, actor?.token, route.body?.(productId));

            if (answer.statusCode >= 200 && answer.statusCode < 300 && expected >= 300) {
              unexpected2xx.push(`${role} ${route.method} ${route.url} → ${answer.statusCode}`);
            }
            expect(answer.statusCode, answer.body).toBe(expected);
            if (expected === 401) {
              expect(answer.json()).toEqual({ message: ACCOUNT_MESSAGES.signedOut });
              expect(await totals()).toEqual(before);
              expect(await stateOf(a.userId)).toEqual(aBefore);
              return;
            }
            const body = answer.json() as unknown;
            if (role === 'customer A') {
              if (route.method === 'GET') expect(await stateOf(a.userId)).toEqual(aBefore);
              return;
            }
            // B or the admin acted on their own account: A's is untouched and does not show.
            expect(await stateOf(a.userId)).toEqual(aBefore);
            expect(answer.body).not.toContain(String(A_EXTRA_POINTS));
            expect(answer.body).not.toContain(a.email);
            route.check?.(body, await stateOf(actor!.userId));
          });
        }
      });
    }

    it('saw no unexpected 2xx in the whole matrix', () => {
      expect(unexpected2xx).toEqual([]);
    });

    describe('the session cookie and revoked sessions', () => {
      it('a cross-site POST, PUT or DELETE carrying the cookie is refused and changes nothing', async () => {
        const member = await account('customer', { plan: 'basic', points: COST * 2 });
        const cookie = { cookie: `harbour_session=${member.token}` };
        const own = await call('GET', '/api/points', undefined, undefined, cookie);
        expect(own.statusCode).toBe(200);
        const before = await stateOf(member.userId);
        const totalsBefore = await totals();
        for (const headers of [
          { ...cookie, origin: 'https://evil.example' },
          { ...cookie, 'sec-fetch-site': 'cross-site' },
        ]) {
          for (const [method, url, body] of [
            ['POST', '/api/redemptions', { productId, quantity: 1, shippingAddress: SHIPPING }],
            ['PUT', '/api/membership', { plan: 'premium' }],
            ['DELETE', '/api/membership', undefined],
            ['POST', '/api/membership', ROUTES[1]!.body!(productId)],
          ] as const) {
            const answer = await call(method, url, undefined, body, headers);
            expect(answer.statusCode, `${method} ${url}`).toBe(403);
            expect(answer.json()).toEqual({ message: CROSS_SITE_MESSAGE });
          }
        }
        expect(await stateOf(member.userId)).toEqual(before);
        expect(await totals()).toEqual(totalsBefore);
      });

      it('treats a revoked or unknown bearer token as signed out', async () => {
        const member = await account('customer', { plan: 'basic', points: COST });
        expect((await call('GET', '/api/points', member.token)).statusCode).toBe(200);
        expect((await call('POST', '/api/auth/logout', member.token)).statusCode).toBe(200);
        const before = await stateOf(member.userId);
        for (const token of [member.token, 'not-a-real-token-at-all-0000000000000000000']) {
          for (const [method, url, body] of [
            ['GET', '/api/points', undefined],
            ['POST', '/api/redemptions', { productId, quantity: 1, shippingAddress: SHIPPING }],
            ['DELETE', '/api/membership', undefined],
          ] as const) {
            const answer = await call(method, url, token, body);
            expect(answer.statusCode, `${method} ${url}`).toBe(401);
            expect(answer.json()).toEqual({ message: ACCOUNT_MESSAGES.signedOut });
          }
        }
        expect(await stateOf(member.userId)).toEqual(before);
      });
    });
  });
}
