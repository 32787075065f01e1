/**
 * One id parser (issue 21): an id is "1" … "2147483647" (PostgreSQL's integer), digits only.
 * Past that, page loaders answer 404 (an id in the path) and page actions 400 (an id in the
 * form), never a 500 from a failed query. A NUL byte in a query string (the back office's
 * order and product search) is refused with 400 before it reaches PostgreSQL.
 *
 * Page loaders and actions are called as the server calls them (with the request context it
 * fills in); the storefront's own answers are checked too when a build is there.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestContext } from '../../app/lib/request-context.ts';
import { shopContext } from '../../app/lib/shop-context.ts';
import * as addressesPage from '../../app/routes/addresses.tsx';
import * as adminOrderPage from '../../app/routes/admin-order.tsx';
import * as adminProductPage from '../../app/routes/admin-product.tsx';
import * as adminProductsPage from '../../app/routes/admin-products.tsx';
import * as orderPage from '../../app/routes/order.tsx';
import * as orderAdjustmentNote from '../../app/routes/order-adjustment-note.ts';
import * as orderInvoice from '../../app/routes/order-invoice.ts';
import * as paymentMethodsPage from '../../app/routes/payment-methods.tsx';
import * as wishlistPage from '../../app/routes/wishlist.tsx';
import type { User } from '../../contracts/account.ts';
import { idListSchema, idSchema, parseId } from '../../contracts/params.ts';
import { products, users } from '../../db/schema.ts';
import { toUser } from '../../server/domain/accounts.ts';
import { createSession } from '../../server/domain/sessions.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

const TOO_BIG = '2147483648';
const built = existsSync(resolve(import.meta.dirname, '../../build/server/index.js'));

type Handler = (args: never) => Promise<unknown>;

/** The status a loader or action answers (a thrown Response or data() included); an unexpected throw is a 500. */
async function statusOf(run: () => Promise<unknown>): Promise<number> {
  const statusIn = (value: unknown): number | undefined => {
    if (value instanceof Response) return value.status;
    if (value && typeof value === 'object' && 'init' in value) {
      const init = (value as { init?: { status?: number } | null }).init;
      return init?.status ?? 200;
    }
    return undefined;
  };
  try {
    return statusIn(await run()) ?? 200;
  } catch (thrown) {
    const status = statusIn(thrown);
    if (status === undefined) return 500;
    return status;
  }
}

describe('ids past 2,147,483,647 and NUL bytes', () => {
  let shop: TestShop;
  let admin: User;
  let customer: User;
  let adminToken = '';

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 3 });
    const rows = await shop.database.db
      .insert(users)
      .values([
        { email: 'ids-admin@example.com', firstName: 'Ida', lastName: 'Admin', role: 'admin' },
        { email: 'ids-customer@example.com', firstName: 'Cy', lastName: 'Customer' },
      ])
      .returning();
    admin = toUser(rows[0] as never);
    customer = toUser(rows[1] as never);
    adminToken = (await createSession(shop.database.db, admin.id, 'ids-test')).token;
  });
  afterAll(async () => {
    await shop?.close();
  });

  function contextFor(user: User) {
    const context = new RouterContextProvider();
    context.set(shopContext, shop.app.services);
    context.set(requestContext, {
      viewer: { user, sessionId: 'test' },
      clientAddress: '10.88.0.1',
      nonce: '',
      secureCookies: false,
      partFailed: () => {},
      failed: () => {},
      sharedPage: () => {},
      showsStock: () => {},
    });
    return context;
  }

  function load(handler: Handler, user: User, path: string, params: Record<string, string>) {
    return statusOf(() =>
      handler({ request: new Request(`http://localhost${path}`), context: contextFor(user), params } as never),
    );
  }

  function post(handler: Handler, user: User, path: string, form: Record<string, string>, params = {}) {
    const request = new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    return statusOf(() => handler({ request, context: contextFor(user), params } as never));
  }

  it('parses 1 … 2,147,483,647 and nothing else', () => {
    expect(parseId('1')).toBe(1);
    expect(parseId('2147483647')).toBe(2_147_483_647);
    for (const bad of [
      TOO_BIG,
      '99999999999',
      '0',
      '01',
      '-1',
      '1.5',
      '1e3',
      ' 1',
      '',
      'abc',
      '%00',
      null,
      undefined,
      7,
    ]) {
      expect(parseId(bad), String(bad)).toBeNull();
    }
    expect(idSchema.safeParse(TOO_BIG).success).toBe(false);
    expect(idListSchema.safeParse(`1,${TOO_BIG}`).success).toBe(false);
  });

  it.each([
    ['admin product page', adminProductPage.loader, 'admin', `/admin/products/${TOO_BIG}`],
    ['admin order page', adminOrderPage.loader, 'admin', `/admin/orders/${TOO_BIG}`],
    ['order page', orderPage.loader, 'customer', `/orders/${TOO_BIG}`],
    ['invoice', orderInvoice.loader, 'customer', `/orders/${TOO_BIG}/invoice.pdf`],
  ] as const)('the %s answers 404 for a path id past the range', async (_name, loader, who, path) => {
    expect(await load(loader as Handler, who === 'admin' ? admin : customer, path, { id: TOO_BIG })).toBe(404);
  });

  it('the adjustment note answers 404 for a path id past the range, for the shopper and for staff', async () => {
    const path = `/orders/${TOO_BIG}/adjustment-notes/AN-100001.pdf`;
    for (const user of [customer, admin]) {
      expect(
        await load(orderAdjustmentNote.loader as Handler, user, path, { id: TOO_BIG, noteNumber: 'AN-100001' }),
      ).toBe(404);
    }
  });

  it.each([
    [
      'admin products: show',
      adminProductsPage.action,
      'admin',
      '/admin/products',
      { intent: 'activate', productId: TOO_BIG },
    ],
    [
      'admin order: move',
      adminOrderPage.action,
      'admin',
      `/admin/orders/1`,
      { intent: 'move', orderId: TOO_BIG, status: 'Processing' },
    ],
    ['addresses: delete', addressesPage.action, 'customer', '/addresses', { intent: 'delete', id: TOO_BIG }],
    ['addresses: make default', addressesPage.action, 'customer', '/addresses', { intent: 'default', id: TOO_BIG }],
    [
      'payment methods: delete',
      paymentMethodsPage.action,
      'customer',
      '/payment-methods',
      { intent: 'delete', id: TOO_BIG },
    ],
    ['wishlist: add', wishlistPage.action, 'customer', '/wishlist', { intent: 'add', productId: TOO_BIG }],
    ['wishlist: remove', wishlistPage.action, 'customer', '/wishlist', { intent: 'remove', productId: TOO_BIG }],
  ] as const)(
    'the %s action answers 4xx for a form id past the range, never 500',
    async (_name, action, who, path, form) => {
      const status = await post(action as Handler, who === 'admin' ? admin : customer, path, form);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    },
  );

  it.each(['/api/admin/orders?q=%00', '/api/admin/products?q=%00', '/api/admin/orders?q=HT-%00'])(
    'answers GET %s with 400, never 500',
    async (url) => {
      const response = await shop.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(Object.keys(response.json() as object)).toContain('message');
    },
  );

  // Found by a new user: an emptied stock box read as Number('') = 0 and wiped the product's stock.
  it.each(['', ' ', 'abc', '1.5', '-1', '1e3', '0x10'])(
    'the back office stock form refuses stock %j with 400 and leaves the stock as it was',
    async (typed) => {
      const [product] = await shop.database.db
        .select({ id: products.id, stock: products.stockQuantity })
        .from(products)
        .orderBy(products.id)
        .limit(1);
      expect(product!.stock).toBeGreaterThan(0);
      const form = { intent: 'stock', productId: String(product!.id), stockQuantity: typed };
      expect(await post(adminProductsPage.action as Handler, admin, '/admin/products', form)).toBe(400);
      const [after] = await shop.database.db
        .select({ stock: products.stockQuantity })
        .from(products)
        .where(eq(products.id, product!.id));
      expect(after!.stock).toBe(product!.stock);
    },
  );

  it('the back office stock form sets a typed whole number, 0 included', async () => {
    const [product] = await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id).limit(1);
    const set = (stockQuantity: string) =>
      post(adminProductsPage.action as Handler, admin, '/admin/products', {
        intent: 'stock',
        productId: String(product!.id),
        stockQuantity,
      });
    expect(await set('0')).toBe(200);
    expect(await set(' 12 ')).toBe(200);
    const [after] = await shop.database.db
      .select({ stock: products.stockQuantity })
      .from(products)
      .where(eq(products.id, product!.id));
    expect(after!.stock).toBe(12);
  });
});

describe.skipIf(!built)('ids past the range and NUL bytes through the storefront', () => {
  let pages: TestShop;
  let token = '';
  beforeAll(async () => {
    pages = await createTestShop('pglite', { products: 3, storefront: true });
    const [row] = await pages.database.db
      .insert(users)
      .values({ email: 'ids-staff@example.com', firstName: 'Ida', lastName: 'Staff', role: 'admin' })
      .returning({ id: users.id });
    token = (await createSession(pages.database.db, row?.id ?? 0, 'ids-test')).token;
  });
  afterAll(async () => {
    await pages?.close();
  });

  it.each(['/admin/orders?q=%00', '/admin/products?q=%00', `/admin/orders/${TOO_BIG}`, `/admin/products/${TOO_BIG}`])(
    'answers GET %s with 4xx, never 500',
    async (url) => {
      const response = await pages.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      expect(response.statusCode, response.body.slice(0, 300)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    },
  );
});
