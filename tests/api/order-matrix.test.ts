import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES } from '../../contracts/account-fields.ts';
import { ORDER_MESSAGES, type Order } from '../../contracts/orders.ts';
import { cartItems, orderItems, orders, products, returnRequests } from '../../db/schema.ts';
import { createSession } from '../../server/domain/sessions.ts';
import { CROSS_SITE_MESSAGE } from '../../server/plugins/security.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

/*
 * The route × role matrix of the orders issue: every cart and order route, tried signed out,
 * as customer A, as customer B and as an admin. B and the admin always aim at a fresh order
 * of A's where a route takes an id. Expected: signed out → 401 except on the public quote;
 * B or the admin on A's order → 404 (never 403, never the record, nothing changed);
 * everything else the route's success.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Role = 'signed out' | 'customer A' | 'customer B' | 'admin';
const ROLES: Role[] = ['signed out', 'customer B', 'admin', 'customer A'];

interface Actor {
  role: Role;
  userId: number | undefined;
  email: string;
}

interface CellContext {
  actor: Actor;
  /** A fresh order of customer A's, made for this cell. */
  order: Order;
  productId: number;
  sessionId: string;
}

interface RouteCase {
  method: Method;
  url: string;
  /** Open to everyone (the cart quote). */
  public?: true;
  /** The id in the url is a fresh order of customer A's, in this state (Cancelled: refunded, with an adjustment note). */
  owned?: 'Processing' | 'Succeeded' | 'Cancelled';
  /** The shop's staff may read it too (an adjustment note): the admin gets the route's success. */
  staffMayRead?: true;
  /** What a success answers when it is not JSON. */
  contentType?: string;
  body?: (context: CellContext) => unknown;
  success: number;
}

const PASSWORD = 'Harbour-Matrix-Pass-42';
const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const SHIPPING = {
  fullName: 'Ann Lee',
  addressLine1: '14 Boundary Lane',
  city: 'Silverwater',
  state: 'NSW',
  postalCode: '2128',
  country: 'Australia',
};

function orderBody(email: string, productId: number, sessionId: string) {
  return {
    sessionId,
    userEmail: email,
    orderItems: [{ productId, quantity: 1, unitPrice: 0.01, productName: 'x' }],
    paymentMethod: 'credit_card',
    paymentMethodId: null,
    cardData: { Number: '4242 4242 4242 4242', Expiry: EXPIRY, Cvc: '123', Name: 'Ann Lee' },
    shippingAddress: SHIPPING,
  };
}

/** Every route the orders issue adds, with a body that is valid for the actor. */
const ROUTES: RouteCase[] = [
  {
    method: 'POST',
    url: '/api/cart/quote',
    public: true,
    success: 200,
    body: ({ productId }) => ({ items: [{ productId, quantity: 1, addedPrice: 1 }] }),
  },
  { method: 'GET', url: '/api/cart', success: 200 },
  { method: 'PUT', url: '/api/cart', success: 200, body: ({ productId }) => ({ items: [{ productId, quantity: 1 }] }) },
  {
    method: 'POST',
    url: '/api/cart/merge',
    success: 200,
    body: ({ productId }) => ({ items: [{ productId, quantity: 1 }] }),
  },
  {
    method: 'POST',
    url: '/api/orders',
    success: 201,
    body: ({ actor, productId, sessionId }) => orderBody(actor.email || 'nobody@example.com', productId, sessionId),
  },
  { method: 'GET', url: '/api/orders/user', success: 200 },
  { method: 'GET', url: '/api/orders/:id', owned: 'Processing', success: 200 },
  { method: 'PUT', url: '/api/orders/:id/cancel', owned: 'Processing', success: 200 },
  {
    method: 'POST',
    url: '/api/orders/:id/returns',
    owned: 'Succeeded',
    success: 201,
    body: ({ order }) => ({ reason: 'It arrived broken', items: [{ orderItemId: order.items[0]?.id, quantity: 1 }] }),
  },
  { method: 'POST', url: '/api/orders/:id/reorder', owned: 'Processing', success: 200 },
  {
    method: 'GET',
    url: '/api/orders/:id/invoice.pdf',
    owned: 'Processing',
    success: 200,
    contentType: 'application/pdf',
  },
  {
    method: 'GET',
    url: '/api/orders/:id/adjustment-notes/:noteNumber.pdf',
    owned: 'Cancelled',
    staffMayRead: true,
    success: 200,
    contentType: 'application/pdf',
  },
];

function expectedStatus(route: RouteCase, role: Role): number {
  if (role === 'signed out') return route.public ? route.success : 401;
  if (route.owned && role === 'admin' && route.staffMayRead) return route.success;
  if (route.owned && role !== 'customer A') return 404;
  return route.success;
}

const postgresAvailable = await isPostgresReachable();
const kinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'pglite', skip: false },
  { kind: 'postgres', skip: !postgresAvailable },
];

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`orders route × role matrix on ${kind}`, () => {
    let shop: TestShop;
    let productId: number;
    let sequence = 0;
    let aToken: string;
    const actors = new Map<Role, Actor>();
    const unexpected2xx: string[] = [];

    function nextIp(): string {
      sequence += 1;
      return `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
    }
    const uniqueEmail = () => {
      sequence += 1;
      return `orders.matrix.${sequence}.${kind}@example.com`;
    };
    const sessionId = () => {
      sequence += 1;
      return `session_${Date.now()}_${sequence}`;
    };

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
      return { role: 'customer A', userId: user.id, email, token };
    }

    async function stock(): Promise<number> {
      const [row] = await shop.database.db
        .select({ stock: products.stockQuantity })
        .from(products)
        .where(eq(products.id, productId));
      return row?.stock ?? Number.NaN;
    }

    /** Everything of one order the database holds: the row, its lines and return requests. */
    async function snapshot(orderId: number) {
      const { db } = shop.database;
      return {
        order: await db.select().from(orders).where(eq(orders.id, orderId)),
        items: await db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id)),
        returns: await db.select().from(returnRequests).where(eq(returnRequests.orderId, orderId)),
        stock: await stock(),
      };
    }

    /** A fresh order of customer A's for one cell, placed through the API with A's own session. */
    async function freshOrderOfA(state: 'Processing' | 'Succeeded' | 'Cancelled'): Promise<Order> {
      const a = actors.get('customer A') as Actor;
      const answer = await call('POST', '/api/orders', aToken, orderBody(a.email, productId, sessionId()));
      expect(answer.statusCode, answer.body).toBe(201);
      const { order } = answer.json() as { order: Order };
      if (state === 'Cancelled') return shop.app.services.orders.cancelOrder(order.id, { userId: a.userId ?? 0 });
      return state === 'Succeeded' ? shop.app.services.orders.markSucceeded(order.id) : order;
    }

    beforeAll(async () => {
      shop = await createTestShop(kind, { products: 3, env: { PAYMENT_DECLINE_RATE: '1' } });
      const [product] = await shop.database.db.select({ id: products.id }).from(products).limit(1);
      productId = product?.id ?? 0;
      await shop.database.db
        .update(products)
        .set({ stockQuantity: 10_000, isActive: true })
        .where(eq(products.id, productId));

      const [a, b] = await Promise.all([registerCustomer('Alice'), registerCustomer('Bob')]);
      aToken = a.token;
      actors.set('customer A', { ...a, role: 'customer A' });
      actors.set('customer B', { ...b, role: 'customer B' });
      actors.set('signed out', { role: 'signed out', userId: undefined, email: '' });

      const adminEmail = uniqueEmail();
      const adminPassword = 'Matrix-Admin-Pass-2024';
      await shop.app.services.accounts.ensureAdmin(adminEmail, adminPassword);
      const signedIn = await call('POST', '/api/auth/login', undefined, { email: adminEmail, password: adminPassword });
      expect(signedIn.statusCode).toBe(200);
      const admin = (signedIn.json() as { user: User }).user;
      expect(admin.role).toBe('admin');
      actors.set('admin', { role: 'admin', userId: admin.id, email: adminEmail });
    });
    afterAll(async () => {
      await shop?.app.services.mailer.idle();
      await shop?.close();
    });

    it('lists every route the OpenAPI document tags Orders, and no other', async () => {
      const answer = await call('GET', '/api/docs/json', undefined);
      expect(answer.statusCode).toBe(200);
      const document = answer.json() as { paths: Record<string, Record<string, { tags?: string[] }>> };
      const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([, operation]) => operation.tags?.includes('Orders'))
          .map(([method]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      );
      expect(documented.sort()).toEqual(ROUTES.map((route) => `${route.method} ${route.url}`).sort());
    });

    for (const route of ROUTES) {
      describe(`${route.method} ${route.url}`, () => {
        for (const role of ROLES) {
          const expected = expectedStatus(route, role);
          it(`${role} → ${expected}`, async () => {
            const actor = actors.get(role) as Actor;
            const order = await freshOrderOfA(route.owned ?? 'Processing');
            const context: CellContext = { actor, order, productId, sessionId: sessionId() };
            const url = route.url
              .replace(':id', String(order.id))
              .replace(':noteNumber', order.adjustmentNotes[0]?.number ?? 'AN-000000');
            const token = actor.userId
              ? (await createSession(shop.database.db, actor.userId, 'matrix')).token
              : undefined;
            const before = await snapshot(order.id);
            const ordersBefore = await shop.database.db.$count(orders);
            const cartBefore = await shop.database.db.select().from(cartItems).orderBy(asc(cartItems.userId));

            const answer = await call(route.method, url, token, await route.body?.(context));

            if (answer.statusCode >= 200 && answer.statusCode < 300 && expected >= 300) {
              unexpected2xx.push(`${role} ${route.method} ${url} → ${answer.statusCode}`);
            }
            expect(answer.statusCode, answer.body).toBe(expected);
            if (expected === 401) {
              expect(answer.json()).toEqual({ message: ACCOUNT_MESSAGES.signedOut });
            }
            if (expected >= 400) {
              // Nothing of A's order leaks, and nothing anywhere changed.
              expect(answer.body).not.toContain('Boundary Lane');
              expect(answer.body).not.toContain(order.orderNumber);
              expect(answer.body).not.toContain(actors.get('customer A')?.email ?? '@');
              expect(await snapshot(order.id)).toEqual(before);
              expect(await shop.database.db.$count(orders)).toBe(ordersBefore);
              expect(await shop.database.db.select().from(cartItems).orderBy(asc(cartItems.userId))).toEqual(
                cartBefore,
              );
            }
            if (route.owned && expected === 404) {
              expect(answer.json()).toEqual({ message: ORDER_MESSAGES.notFound });
            }
            if (expected < 300 && route.contentType) {
              expect(answer.headers['content-type']).toContain(route.contentType);
              expect(answer.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
            } else if (expected < 300 && route.owned) {
              const body = answer.json() as Order | { added: string[] };
              if ('id' in body) expect(body.id).toBe(order.id);
            }
          });
        }
      });
    }

    it('saw no unexpected 2xx in the whole matrix', () => {
      expect(unexpected2xx).toEqual([]);
    });

    describe('the session cookie', () => {
      it('places and reads an order for A, and a cross-site POST with the cookie is refused', async () => {
        const a = actors.get('customer A') as Actor;
        const token = (await createSession(shop.database.db, a.userId ?? 0, 'matrix')).token;
        const cookie = { cookie: `harbour_session=${token}` };
        const placed = await call('POST', '/api/orders', undefined, orderBody(a.email, productId, sessionId()), cookie);
        expect(placed.statusCode, placed.body).toBe(201);
        const { order } = placed.json() as { order: Order };
        expect((await call('GET', `/api/orders/${order.id}`, undefined, undefined, cookie)).statusCode).toBe(200);

        const ordersBefore = await shop.database.db.$count(orders);
        const stockBefore = await stock();
        for (const headers of [
          { ...cookie, origin: 'https://evil.example' },
          { ...cookie, 'sec-fetch-site': 'cross-site' },
        ]) {
          const forged = await call(
            'POST',
            '/api/orders',
            undefined,
            orderBody(a.email, productId, sessionId()),
            headers,
          );
          expect(forged.statusCode).toBe(403);
          expect(forged.json()).toEqual({ message: CROSS_SITE_MESSAGE });
          const cancel = await call('PUT', `/api/orders/${order.id}/cancel`, undefined, undefined, headers);
          expect(cancel.statusCode).toBe(403);
        }
        expect(await shop.database.db.$count(orders)).toBe(ordersBefore);
        expect(await stock()).toBe(stockBefore);
        const read = await call('GET', `/api/orders/${order.id}`, undefined, undefined, cookie);
        expect((read.json() as Order).status).toBe('Processing');
      });

      it('treats a revoked or unknown bearer token as signed out', async () => {
        const a = actors.get('customer A') as Actor;
        const session = await createSession(shop.database.db, a.userId ?? 0, 'matrix');
        const order = await freshOrderOfA('Processing');
        const ok = await call('GET', `/api/orders/${order.id}`, session.token);
        expect(ok.statusCode).toBe(200);
        const signedOut = await call('POST', '/api/auth/logout', session.token);
        expect(signedOut.statusCode).toBe(200);
        for (const token of [session.token, 'not-a-real-token-at-all-0000000000000000000']) {
          const answer = await call('PUT', `/api/orders/${order.id}/cancel`, token);
          expect(answer.statusCode).toBe(401);
          expect(answer.json()).toEqual({ message: ACCOUNT_MESSAGES.signedOut });
        }
        const read = await call('GET', `/api/orders/${order.id}`, aToken);
        expect((read.json() as Order).status).toBe('Processing');
      });
    });
  });
}
