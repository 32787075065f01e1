import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../contracts/account.ts';
import { formatDollars } from '../../contracts/money.ts';
import type { Order } from '../../contracts/orders.ts';
import { auditLog, contactMessages, orderEvents, orders, products, returnRequests } from '../../db/schema.ts';
import { readOutbox } from '../helpers/outbox.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

/*
 * Issue 10, "Admin area": orders (list, search, detail, moves with history, e-mail, stock back
 * and refund on cancel), returns (approve: stock back and refund; reject with a reason; never
 * twice) and the contact inbox, through inject on PGlite and PostgreSQL. Orders are placed the
 * way a shopper places them: POST /api/orders with the approve test card.
 */

interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
}

interface Account {
  token: string;
  user: User;
  email: string;
}

interface OrderDetail {
  order: Order;
  customer: { id: number; email: string; name: string } | null;
  history: { status: string; actor: string; note: string | null; createdAt: string }[];
  returns: {
    id: number;
    status: string;
    reason: string;
    items: { orderItemId: number; quantity: number }[];
    resolutionNote: string | null;
    createdAt: string;
  }[];
  allowedMoves: string[];
}

interface OrderPage {
  items: {
    id: number;
    orderNumber: string;
    email: string | null;
    status: string;
    paymentStatus: string;
    totalCents: number;
    total: number;
    itemCount: number;
    createdAt: string;
  }[];
  page: number;
  pageSize: number;
  totalCount: number;
  totalPages: number;
}

interface ReturnEntry {
  id: number;
  orderId: number;
  orderNumber: string;
  email: string | null;
  status: string;
  reason: string;
  resolutionNote: string | null;
  createdAt: string;
  items: { orderItemId: number; quantity: number; productName: string }[];
}

interface MessagePage {
  items: {
    id: number;
    name: string;
    email: string;
    phone: string | null;
    subject: string;
    message: string;
    orderNumber: string | null;
    createdAt: string;
  }[];
  page: number;
  totalCount: number;
  totalPages: number;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const PASSWORD = 'Harbour-Back-Office-Pass-42';
const ADMIN_PASSWORD = 'Harbour-Back-Office-Admin-42';
const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const SHIPPING = {
  fullName: 'Ann Lee',
  addressLine1: '14 Boundary Lane',
  city: 'Silverwater',
  state: 'NSW',
  postalCode: '2128',
  country: 'Australia',
};
const STATUS_CHOICES = 'status must be one of Pending, Processing, Succeeded, Cancelled';

const postgresAvailable = await isPostgresReachable();
const kinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'pglite', skip: false },
  { kind: 'postgres', skip: !postgresAvailable },
];

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`admin orders, returns and messages on ${kind}`, () => {
    let shop: TestShop;
    let outbox: string;
    let adminToken: string;
    let admin: User;
    let alice: Account;
    let bob: Account;
    let productIds: number[] = [];
    let nextProduct = 0;
    let sequence = 0;

    function nextIp(): string {
      sequence += 1;
      return `10.30.${(sequence >> 8) & 255}.${sequence & 255}`;
    }

    async function call<T = ErrorBody>(
      method: Method,
      url: string,
      options: { token?: string | null; body?: unknown } = {},
    ): Promise<{ status: number; body: T; text: string }> {
      const token = options.token === undefined ? adminToken : options.token;
      const response = await shop.app.inject({
        method,
        url,
        remoteAddress: nextIp(),
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
      });
      const text = response.body;
      return { status: response.statusCode, body: (text ? JSON.parse(text) : null) as T, text };
    }

    async function register(tag: string): Promise<Account> {
      sequence += 1;
      const email = `back.office.${tag.toLowerCase()}.${sequence}.${kind}@example.com`;
      const answer = await call<{ token: string; user: User }>('POST', '/api/auth/register', {
        token: null,
        body: {
          firstName: 'Ann',
          lastName: tag,
          email,
          password: PASSWORD,
          PhoneNumber: '0412 345 678',
          address: {
            addressLine1: '1 Main Street',
            city: 'Sydney',
            state: 'NSW',
            postalCode: '2000',
            country: 'Australia',
          },
        },
      });
      expect(answer.status, answer.text).toBe(201);
      return { ...answer.body, email };
    }

    /** The next unused seeded product, with a known price and stock. */
    async function freshProduct(priceCents: number, stock: number): Promise<number> {
      const id = productIds[nextProduct];
      nextProduct += 1;
      if (id === undefined) throw new Error('The test shop has too few products');
      await shop.database.db
        .update(products)
        .set({ priceCents, discountPriceCents: null, stockQuantity: stock, isActive: true })
        .where(eq(products.id, id));
      shop.app.services.catalog.invalidate();
      return id;
    }

    async function stockOf(id: number): Promise<number> {
      const [row] = await shop.database.db
        .select({ stock: products.stockQuantity })
        .from(products)
        .where(eq(products.id, id));
      return row?.stock ?? Number.NaN;
    }

    async function place(account: Account, lines: { productId: number; quantity: number }[]): Promise<Order> {
      sequence += 1;
      const answer = await call<{ order: Order }>('POST', '/api/orders', {
        token: account.token,
        body: {
          sessionId: `session_${Date.now()}_${kind}_${sequence}`,
          userEmail: account.email,
          orderItems: lines.map((line) => ({ ...line, productName: 'x', unitPrice: 0.01 })),
          paymentMethod: 'credit_card',
          paymentMethodId: null,
          cardData: { Number: '4242 4242 4242 4242', Expiry: EXPIRY, Cvc: '123', Name: 'Ann Lee' },
          shippingAddress: SHIPPING,
        },
      });
      expect(answer.status, answer.text).toBe(201);
      return answer.body.order;
    }

    async function move(orderId: number, status: string) {
      return call<OrderDetail>('PUT', `/api/admin/orders/${orderId}/status`, { body: { status } });
    }

    async function requestReturn(account: Account, order: Order, items: { orderItemId: number; quantity: number }[]) {
      const answer = await call<Order>('POST', `/api/orders/${order.id}/returns`, {
        token: account.token,
        body: { reason: 'The blade arrived chipped', items },
      });
      expect(answer.status, answer.text).toBe(201);
      const [request] = await shop.database.db
        .select({ id: returnRequests.id })
        .from(returnRequests)
        .where(eq(returnRequests.orderId, order.id));
      if (!request) throw new Error('The return request was not stored');
      return request.id;
    }

    /** E-mails written to the outbox while `run` runs (after every send has finished). */
    async function mailsDuring(run: () => Promise<unknown>) {
      await shop.app.services.mailer.idle();
      const before = new Set((await readOutbox(outbox)).map((mail) => mail.file));
      await run();
      await shop.app.services.mailer.idle();
      return (await readOutbox(outbox)).filter((mail) => !before.has(mail.file));
    }

    async function orderState(orderId: number) {
      const { db } = shop.database;
      return {
        order: await db.select().from(orders).where(eq(orders.id, orderId)),
        events: await db.$count(orderEvents, eq(orderEvents.orderId, orderId)),
        returns: await db.select().from(returnRequests).where(eq(returnRequests.orderId, orderId)),
        audit: await db.$count(auditLog),
      };
    }

    beforeAll(async () => {
      outbox = mkdtempSync(join(tmpdir(), 'harbour-admin-orders-outbox-'));
      shop = await createTestShop(kind, { products: 30, env: { MAIL_OUTBOX_DIR: outbox, PAYMENT_DECLINE_RATE: '1' } });
      productIds = (await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id)).map(
        (row) => row.id,
      );
      const email = `back.office.admin.${kind}@example.com`;
      await shop.app.services.accounts.ensureAdmin(email, ADMIN_PASSWORD);
      const signedIn = await call<{ token: string; user: User }>('POST', '/api/auth/login', {
        token: null,
        body: { email, password: ADMIN_PASSWORD },
      });
      expect(signedIn.status, signedIn.text).toBe(200);
      adminToken = signedIn.body.token;
      admin = signedIn.body.user;
      [alice, bob] = await Promise.all([register('Alice'), register('Bob')]);
    });
    afterAll(async () => {
      await shop?.app.services.mailer.idle();
      await shop?.close();
      if (outbox) rmSync(outbox, { recursive: true, force: true });
    });

    describe('GET /api/admin/orders', () => {
      it('lists newest first, filters by status, and finds an order by its number or a customer by e-mail', async () => {
        const product = await freshProduct(2_000, 50);
        const a1 = await place(alice, [{ productId: product, quantity: 1 }]);
        const a2 = await place(alice, [{ productId: product, quantity: 3 }]);
        const b1 = await place(bob, [{ productId: product, quantity: 2 }]);
        expect((await move(a2.id, 'Succeeded')).status).toBe(200);

        const all = await call<OrderPage>('GET', '/api/admin/orders');
        expect(all.status).toBe(200);
        expect(all.body).toMatchObject({ page: 1, pageSize: 25 });
        expect(all.body.items.slice(0, 3).map((item) => item.id)).toEqual([b1.id, a2.id, a1.id]);
        expect(all.body.items[0]).toEqual({
          id: b1.id,
          orderNumber: b1.orderNumber,
          email: bob.email,
          status: 'Processing',
          paymentStatus: 'Paid',
          totalCents: Math.round(b1.total * 100),
          total: b1.total,
          itemCount: 2,
          createdAt: b1.createdAt,
        });
        expect(all.body.totalCount).toBe(await shop.database.db.$count(orders));

        const succeeded = await call<OrderPage>('GET', '/api/admin/orders?status=Succeeded');
        expect(succeeded.body.items.map((item) => item.id)).toContain(a2.id);
        expect(succeeded.body.items.every((item) => item.status === 'Succeeded')).toBe(true);
        expect(succeeded.body.totalCount).toBe(await shop.database.db.$count(orders, eq(orders.status, 'Succeeded')));
        const processing = await call<OrderPage>('GET', '/api/admin/orders?status=Processing');
        expect(processing.body.items.map((item) => item.id)).not.toContain(a2.id);
        expect(processing.body.items.map((item) => item.id)).toEqual(expect.arrayContaining([a1.id, b1.id]));

        for (const q of [a1.orderNumber, a1.orderNumber.toLowerCase(), String(100_000 + a1.id)]) {
          const byNumber = await call<OrderPage>('GET', `/api/admin/orders?q=${encodeURIComponent(q)}`);
          expect(
            byNumber.body.items.map((item) => item.id),
            q,
          ).toEqual([a1.id]);
        }
        const byEmail = await call<OrderPage>('GET', `/api/admin/orders?q=${encodeURIComponent(bob.email)}`);
        expect(byEmail.body.items.map((item) => item.id)).toEqual([b1.id]);
        const byPart = await call<OrderPage>(
          'GET',
          `/api/admin/orders?q=${encodeURIComponent(alice.email.slice(0, 20).toUpperCase())}`,
        );
        expect(byPart.body.items.map((item) => item.id)).toEqual([a2.id, a1.id]);
        const both = await call<OrderPage>(
          'GET',
          `/api/admin/orders?status=Succeeded&q=${encodeURIComponent(alice.email)}`,
        );
        expect(both.body.items.map((item) => item.id)).toEqual([a2.id]);
        const wildcard = await call<OrderPage>('GET', '/api/admin/orders?q=%25');
        expect(wildcard.body.totalCount).toBe(0);
      });

      it('refuses an unknown status or page with 400 naming the parameter', async () => {
        const status = await call('GET', '/api/admin/orders?status=Shipped');
        expect(status.status).toBe(400);
        expect(status.body).toEqual({
          message: 'Invalid query parameter: status',
          errors: { status: [STATUS_CHOICES] },
        });
        const page = await call('GET', '/api/admin/orders?page=abc');
        expect(page.status).toBe(400);
        expect(page.body).toEqual({
          message: 'Invalid query parameter: page',
          errors: { page: ['page must be a whole number'] },
        });
      });
    });

    describe('GET /api/admin/orders/:id', () => {
      it('has the order, its customer, its history, its returns and the moves allowed now', async () => {
        const product = await freshProduct(1_500, 20);
        const placed = await place(alice, [{ productId: product, quantity: 2 }]);
        const answer = await call<OrderDetail>('GET', `/api/admin/orders/${placed.id}`);
        expect(answer.status).toBe(200);
        const mine = await call<Order>('GET', `/api/orders/${placed.id}`, { token: alice.token });
        expect(answer.body).toEqual({
          order: mine.body,
          customer: { id: alice.user.id, email: alice.email, name: 'Ann Alice' },
          history: [{ status: 'Processing', actor: 'customer', note: 'Paid by card', createdAt: expect.any(String) }],
          returns: [],
          allowedMoves: ['Succeeded', 'Cancelled'],
        });
        expect(answer.body.order.shippingAddress).toMatchObject({ addressLine1: '14 Boundary Lane' });
        expect(answer.body.order.cardLast4).toBe('4242');

        const missing = await call('GET', '/api/admin/orders/999999');
        expect(missing.status).toBe(404);
        expect(missing.body).toEqual({ message: 'Order not found' });
        const bad = await call('GET', '/api/admin/orders/0');
        expect(bad.status).toBe(400);
      });
    });

    describe('PUT /api/admin/orders/:id/status', () => {
      it('Processing → Succeeded: recorded as the admin in the history and the audit log, and the customer is e-mailed', async () => {
        const product = await freshProduct(3_000, 10);
        const placed = await place(alice, [{ productId: product, quantity: 1 }]);
        let answer: Awaited<ReturnType<typeof move>> | undefined;
        const mails = await mailsDuring(async () => {
          answer = await move(placed.id, 'Succeeded');
        });
        expect(answer?.status, answer?.text).toBe(200);
        const detail = answer?.body as OrderDetail;
        expect(detail.order.status).toBe('Succeeded');
        expect(detail.allowedMoves).toEqual([]);
        expect(detail.history.map((event) => [event.status, event.actor])).toEqual([
          ['Processing', 'customer'],
          ['Succeeded', `admin ${admin.email}`],
        ]);
        expect(Math.abs(Date.parse(detail.history[1]?.createdAt ?? '') - Date.now())).toBeLessThan(60_000);
        expect(await stockOf(product)).toBe(9);

        expect(mails).toHaveLength(1);
        expect(mails[0]?.to).toContain(alice.email);
        expect(mails[0]?.subject).toBe(`Your Harbour Tools order ${placed.orderNumber} is on its way`);
        expect(mails[0]?.text).toContain(`Your order ${placed.orderNumber} is on its way.`);
        // The notice lists what is coming, in both parts (issue 22: every e-mail as HTML and text).
        expect(mails[0]?.html).toContain(`Your order ${placed.orderNumber} is on its way.`);
        expect(mails[0]?.html).toContain('inc GST');

        const audit = await call<
          { action: string; entityId: string; actorEmail: string; actorUserId: number; details: unknown }[]
        >('GET', '/api/admin/audit');
        expect(audit.body[0]).toMatchObject({
          action: 'order.succeeded',
          entity: 'order',
          entityId: String(placed.id),
          actorUserId: admin.id,
          actorEmail: admin.email,
          details: { from: 'Processing', to: 'Succeeded' },
        });
      });

      it('refuses moves the rules do not allow with 409, changing nothing and e-mailing no one', async () => {
        const product = await freshProduct(1_000, 10);
        const shipped = await place(alice, [{ productId: product, quantity: 1 }]);
        expect((await move(shipped.id, 'Succeeded')).status).toBe(200);
        const packing = await place(alice, [{ productId: product, quantity: 1 }]);
        const cases: [Order, string, string][] = [
          [shipped, 'Processing', 'An order that is Succeeded cannot be moved to Processing.'],
          [shipped, 'Cancelled', 'An order that is Succeeded cannot be moved to Cancelled.'],
          [shipped, 'Succeeded', 'An order that is Succeeded cannot be moved to Succeeded.'],
          [packing, 'Pending', 'An order that is Processing cannot be moved to Pending.'],
          [packing, 'Processing', 'An order that is Processing cannot be moved to Processing.'],
        ];
        for (const [order, to, message] of cases) {
          const before = await orderState(order.id);
          let answer: Awaited<ReturnType<typeof move>> | undefined;
          const mails = await mailsDuring(async () => {
            answer = await move(order.id, to);
          });
          expect(answer?.status, `${order.status} → ${to}`).toBe(409);
          expect(answer?.body).toEqual({ message });
          expect(mails).toEqual([]);
          expect(await orderState(order.id)).toEqual(before);
        }
        const bad = await move(packing.id, 'Shipped');
        expect(bad.status).toBe(400);
        expect(bad.body).toEqual({ message: 'Invalid field: status', errors: { status: [STATUS_CHOICES] } });
        const missing = await move(999_999, 'Succeeded');
        expect(missing.status).toBe(404);
        expect(missing.body).toEqual({ message: 'Order not found' });
      });

      it('Processing → Cancelled puts the stock back, refunds in full and tells the customer; a second cancel is 409', async () => {
        const drill = await freshProduct(4_000, 10);
        const bits = await freshProduct(500, 30);
        const placed = await place(bob, [
          { productId: drill, quantity: 2 },
          { productId: bits, quantity: 5 },
        ]);
        expect([await stockOf(drill), await stockOf(bits)]).toEqual([8, 25]);
        let answer: Awaited<ReturnType<typeof move>> | undefined;
        const mails = await mailsDuring(async () => {
          answer = await move(placed.id, 'Cancelled');
        });
        expect(answer?.status, answer?.text).toBe(200);
        expect([await stockOf(drill), await stockOf(bits)]).toEqual([10, 30]);
        const detail = answer?.body as OrderDetail;
        expect(detail.order).toMatchObject({ status: 'Cancelled', paymentStatus: 'Refunded' });
        expect(detail.allowedMoves).toEqual([]);
        expect(detail.history.at(-1)).toMatchObject({
          status: 'Cancelled',
          actor: `admin ${admin.email}`,
          note: 'Refunded in full',
        });
        const [row] = await shop.database.db.select().from(orders).where(eq(orders.id, placed.id));
        expect(row?.refundId).toMatch(/^sim_re_[0-9a-f]{24}$/);
        expect(mails).toHaveLength(1);
        expect(mails[0]?.to).toContain(bob.email);
        // One e-mail, the cancellation's record: what was refunded, with its adjustment note.
        expect(mails[0]?.subject).toBe(
          `Your Harbour Tools order ${placed.orderNumber} is cancelled: ${formatDollars(detail.order.total)} refunded`,
        );
        expect(detail.order.adjustmentNotes).toHaveLength(1);
        expect(mails[0]?.text).toContain(`Adjustment note ${detail.order.adjustmentNotes[0]?.number}`);

        const again = await move(placed.id, 'Cancelled');
        expect(again.status).toBe(409);
        expect(again.body).toEqual({ message: 'An order that is Cancelled cannot be moved to Cancelled.' });
        expect([await stockOf(drill), await stockOf(bits)]).toEqual([10, 30]);
      });

      it('a Pending order (paid some other way) moves to Processing, and may be cancelled from Pending', async () => {
        const product = await freshProduct(1_000, 10);
        const first = await place(alice, [{ productId: product, quantity: 1 }]);
        const second = await place(alice, [{ productId: product, quantity: 1 }]);
        await shop.database.db
          .update(orders)
          .set({ status: 'Pending', paymentStatus: 'Pending', transactionId: null })
          .where(sql`${orders.id} in (${first.id}, ${second.id})`);
        const pending = await call<OrderDetail>('GET', `/api/admin/orders/${first.id}`);
        expect(pending.body.allowedMoves).toEqual(['Processing', 'Cancelled']);
        const tooFar = await move(first.id, 'Succeeded');
        expect(tooFar.status).toBe(409);
        expect(tooFar.body).toEqual({ message: 'An order that is Pending cannot be moved to Succeeded.' });

        let answer: Awaited<ReturnType<typeof move>> | undefined;
        const mails = await mailsDuring(async () => {
          answer = await move(first.id, 'Processing');
        });
        expect(answer?.status).toBe(200);
        expect(answer?.body.history.at(-1)).toMatchObject({ status: 'Processing', actor: `admin ${admin.email}` });
        expect(answer?.body.allowedMoves).toEqual(['Succeeded', 'Cancelled']);
        expect(mails.map((mail) => mail.subject)).toEqual([
          `Your Harbour Tools order ${first.orderNumber} is being packed`,
        ]);

        const stock = await stockOf(product);
        const cancelled = await move(second.id, 'Cancelled');
        expect(cancelled.status).toBe(200);
        // Nothing was paid, so nothing is refunded; the stock still comes back.
        expect(cancelled.body.order).toMatchObject({ status: 'Cancelled', paymentStatus: 'Pending' });
        expect(cancelled.body.history.at(-1)).toMatchObject({
          status: 'Cancelled',
          actor: `admin ${admin.email}`,
          note: null,
        });
        expect(await stockOf(product)).toBe(stock + 1);
      });
    });

    describe('returns', () => {
      async function succeededOrder(account: Account, lines: { productId: number; quantity: number }[]) {
        const order = await place(account, lines);
        const moved = await move(order.id, 'Succeeded');
        expect(moved.status).toBe(200);
        return moved.body.order;
      }

      it('lists requests open first with their items, and filters by status', async () => {
        const product = await freshProduct(1_200, 20);
        const order = await succeededOrder(alice, [{ productId: product, quantity: 2 }]);
        const requestId = await requestReturn(alice, order, [{ orderItemId: order.items[0]?.id ?? 0, quantity: 1 }]);
        const list = await call<ReturnEntry[]>('GET', '/api/admin/returns');
        expect(list.status).toBe(200);
        expect(list.body[0]).toEqual({
          id: requestId,
          orderId: order.id,
          orderNumber: order.orderNumber,
          email: alice.email,
          status: 'Requested',
          reason: 'The blade arrived chipped',
          resolutionNote: null,
          createdAt: expect.any(String),
          items: [{ orderItemId: order.items[0]?.id, quantity: 1, productName: order.items[0]?.productName }],
        });
        const requested = await call<ReturnEntry[]>('GET', '/api/admin/returns?status=Requested');
        expect(requested.body.map((entry) => entry.id)).toContain(requestId);
        expect(requested.body.every((entry) => entry.status === 'Requested')).toBe(true);
        const approved = await call<ReturnEntry[]>('GET', '/api/admin/returns?status=Approved');
        expect(approved.body.map((entry) => entry.id)).not.toContain(requestId);
        const bad = await call('GET', '/api/admin/returns?status=Open');
        expect(bad.status).toBe(400);
        expect(bad.body).toEqual({
          message: 'Invalid query parameter: status',
          errors: { status: ['status must be Requested, Approved or Rejected'] },
        });
        const detail = await call<OrderDetail>('GET', `/api/admin/orders/${order.id}`);
        expect(detail.body.returns).toEqual([
          {
            id: requestId,
            status: 'Requested',
            reason: 'The blade arrived chipped',
            items: [{ orderItemId: order.items[0]?.id, quantity: 1 }],
            resolutionNote: null,
            createdAt: expect.any(String),
          },
        ]);
        expect(detail.body.order.returnStatus).toBe('Requested');
      });

      it('approving puts the returned units back, refunds their price with GST and e-mails the customer; never twice', async () => {
        const saw = await freshProduct(2_500, 10);
        const blade = await freshProduct(1_000, 10);
        const order = await succeededOrder(bob, [
          { productId: saw, quantity: 2 },
          { productId: blade, quantity: 1 },
        ]);
        const sawLine = order.items.find((item) => item.productId === saw);
        const requestId = await requestReturn(bob, order, [{ orderItemId: sawLine?.id ?? 0, quantity: 1 }]);
        expect([await stockOf(saw), await stockOf(blade)]).toEqual([8, 9]);

        let answer: { status: number; body: OrderDetail; text: string } | undefined;
        const mails = await mailsDuring(async () => {
          answer = await call<OrderDetail>('POST', `/api/admin/returns/${requestId}/approve`);
        });
        expect(answer?.status, answer?.text).toBe(200);
        // One saw back; $25.00 + GST $2.50 refunded; shipping is not.
        expect([await stockOf(saw), await stockOf(blade)]).toEqual([9, 9]);
        const detail = answer?.body as OrderDetail;
        expect(detail.order.returnStatus).toBe('Approved');
        // A partial return refunds part of the payment (issue 22: shown as such, with the amount).
        expect(detail.order).toMatchObject({
          status: 'Succeeded',
          paymentStatus: 'Partially refunded',
          refundedAmount: 27.5,
        });
        expect(detail.returns).toHaveLength(1);
        expect(detail.returns[0]?.status).toBe('Approved');
        expect(detail.returns[0]?.resolutionNote).toMatch(/^Refunded \$27\.50 \(sim_re_[0-9a-f]{24}\)$/);
        expect(detail.history.at(-1)).toEqual({
          status: 'Returned',
          actor: `admin ${admin.email}`,
          note: detail.returns[0]?.resolutionNote,
          createdAt: expect.any(String),
        });
        const mine = await call<Order>('GET', `/api/orders/${order.id}`, { token: bob.token });
        expect(mine.body.returnStatus).toBe('Approved');
        expect(mails).toHaveLength(1);
        expect(mails[0]?.to).toContain(bob.email);
        expect(mails[0]?.subject).toBe(`Your return for Harbour Tools order ${order.orderNumber} is approved`);
        expect(mails[0]?.text).toContain(
          `We have approved your return for order ${order.orderNumber}. ${detail.returns[0]?.resolutionNote}.`,
        );
        const audit = await call<{ action: string; entityId: string; details: Record<string, unknown> }[]>(
          'GET',
          '/api/admin/audit',
        );
        expect(audit.body[0]).toMatchObject({
          action: 'return.approve',
          entity: 'return',
          entityId: String(requestId),
          actorEmail: admin.email,
          details: { orderId: order.id, refundCents: 2_750 },
        });

        const before = await orderState(order.id);
        for (const path of ['approve', 'reject']) {
          let again: { status: number; body: ErrorBody } | undefined;
          const none = await mailsDuring(async () => {
            again = await call('POST', `/api/admin/returns/${requestId}/${path}`, {
              ...(path === 'reject' ? { body: { reason: 'Too late' } } : {}),
            });
          });
          expect(again?.status, path).toBe(409);
          expect(again?.body).toEqual({ message: 'This return has already been approved.' });
          expect(none).toEqual([]);
        }
        expect(await orderState(order.id)).toEqual(before);
        expect([await stockOf(saw), await stockOf(blade)]).toEqual([9, 9]);
      });

      it('approving a return of everything marks the payment Refunded', async () => {
        const product = await freshProduct(6_000, 10);
        const order = await succeededOrder(alice, [{ productId: product, quantity: 2 }]);
        const requestId = await requestReturn(alice, order, [{ orderItemId: order.items[0]?.id ?? 0, quantity: 2 }]);
        const answer = await call<OrderDetail>('POST', `/api/admin/returns/${requestId}/approve`);
        expect(answer.status).toBe(200);
        expect(await stockOf(product)).toBe(10);
        expect(answer.body.order).toMatchObject({ paymentStatus: 'Refunded', returnStatus: 'Approved' });
        // $120.00 + GST $12.00; the free shipping over $100 stays free.
        expect(answer.body.returns[0]?.resolutionNote).toMatch(/^Refunded \$132\.00 \(sim_re_[0-9a-f]{24}\)$/);
      });

      it('rejecting keeps the reason, e-mails it, leaves the stock; a blank reason is 400 and a second decision 409', async () => {
        const product = await freshProduct(1_800, 10);
        const order = await succeededOrder(alice, [{ productId: product, quantity: 1 }]);
        const requestId = await requestReturn(alice, order, [{ orderItemId: order.items[0]?.id ?? 0, quantity: 1 }]);
        const stock = await stockOf(product);

        const before = await orderState(order.id);
        const blank = await call('POST', `/api/admin/returns/${requestId}/reject`, { body: { reason: '   ' } });
        expect(blank.status).toBe(400);
        expect(blank.body).toEqual({
          message: 'Invalid field: reason',
          errors: { reason: ['Please give the customer a reason'] },
        });
        const none = await call('POST', `/api/admin/returns/${requestId}/reject`, { body: {} });
        expect(none.status).toBe(400);
        expect(await orderState(order.id)).toEqual(before);

        const reason = 'The saw has been used on masonry, which the warranty does not cover.';
        let answer: { status: number; body: OrderDetail; text: string } | undefined;
        const mails = await mailsDuring(async () => {
          answer = await call<OrderDetail>('POST', `/api/admin/returns/${requestId}/reject`, {
            body: { reason: `  ${reason} ` },
          });
        });
        expect(answer?.status, answer?.text).toBe(200);
        const detail = answer?.body as OrderDetail;
        expect(detail.returns[0]).toMatchObject({ status: 'Rejected', resolutionNote: reason });
        expect(detail.order).toMatchObject({ returnStatus: 'Rejected', status: 'Succeeded', paymentStatus: 'Paid' });
        expect(detail.history.at(-1)).toMatchObject({
          status: 'Return rejected',
          actor: `admin ${admin.email}`,
          note: reason,
        });
        expect(await stockOf(product)).toBe(stock);
        expect(mails).toHaveLength(1);
        expect(mails[0]?.to).toContain(alice.email);
        expect(mails[0]?.subject).toBe(`Your return for Harbour Tools order ${order.orderNumber}`);
        expect(mails[0]?.text).toContain(`We could not accept the return for order ${order.orderNumber}: ${reason}`);

        const again = await call('POST', `/api/admin/returns/${requestId}/approve`);
        expect(again.status).toBe(409);
        expect(again.body).toEqual({ message: 'This return has already been rejected.' });
        expect(await stockOf(product)).toBe(stock);
        const missing = await call('POST', '/api/admin/returns/999999/approve');
        expect(missing.status).toBe(404);
        expect(missing.body).toEqual({ message: 'Return request not found' });
      });
    });

    describe('messages and the summary', () => {
      it('shows a message sent through POST /api/contact, newest first', async () => {
        const subject = `Back-office inbox test ${kind} ${Date.now()}`;
        const sent = await shop.app.inject({
          method: 'POST',
          url: '/api/contact',
          remoteAddress: nextIp(),
          payload: {
            name: 'Sam Builder',
            email: 'sam.inbox@example.com',
            phone: '0412 345 678',
            subject,
            message: 'Do you hire out the 12-inch mitre saw on weekends?',
            orderNumber: 'HT-100042',
          },
        });
        expect(sent.statusCode, sent.body).toBe(201);
        const { id } = sent.json() as { id: number };
        const inbox = await call<MessagePage>('GET', '/api/admin/messages');
        expect(inbox.status).toBe(200);
        expect(inbox.body.items[0]).toEqual({
          id,
          name: 'Sam Builder',
          email: 'sam.inbox@example.com',
          phone: '0412 345 678',
          subject,
          message: 'Do you hire out the 12-inch mitre saw on weekends?',
          orderNumber: 'HT-100042',
          createdAt: expect.any(String),
        });
        expect(inbox.body).toMatchObject({ page: 1, totalCount: await shop.database.db.$count(contactMessages) });
        const bad = await call('GET', '/api/admin/messages?page=0');
        expect(bad.status).toBe(400);
      });

      it('counts orders by status, open returns and this week’s messages as the database has them', async () => {
        const answer = await call<{ orders: Record<string, number>; openReturns: number; recentMessages: number }>(
          'GET',
          '/api/admin/summary',
        );
        expect(answer.status).toBe(200);
        const { db } = shop.database;
        const count = (status: string) => db.$count(orders, eq(orders.status, status as 'Pending'));
        expect(answer.body).toEqual({
          orders: {
            Pending: await count('Pending'),
            Processing: await count('Processing'),
            Succeeded: await count('Succeeded'),
            Cancelled: await count('Cancelled'),
          },
          openReturns: await db.$count(returnRequests, eq(returnRequests.status, 'Requested')),
          recentMessages: await db.$count(contactMessages),
        });
        expect(answer.body.orders.Succeeded).toBeGreaterThan(3);
        expect(answer.body.orders.Cancelled).toBeGreaterThan(1);
        expect(answer.body.openReturns).toBeGreaterThan(0);
        expect(answer.body.recentMessages).toBeGreaterThan(0);
      });
    });
  });
}
