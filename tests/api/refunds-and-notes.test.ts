import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { RouterContextProvider } from 'react-router';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestContext } from '../../app/lib/request-context.ts';
import { shopContext } from '../../app/lib/shop-context.ts';
import * as orderInvoice from '../../app/routes/order-invoice.ts';
import type { User } from '../../contracts/account.ts';
import type { Order, ShippingAddress } from '../../contracts/orders.ts';
import { auditLog, orders, products, returnRequests, users } from '../../db/schema.ts';
import { toUser } from '../../server/domain/accounts.ts';
import { APPROVE_CARD } from '../../server/domain/payments.ts';
import { createSession } from '../../server/domain/sessions.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

/*
 * Issue 22, "A true tax invoice" and "Refunds the shopper sees", on PGlite and PostgreSQL: a
 * refund (a cancel, an approved return) is recorded on the order (paymentStatus, amount, date)
 * with an adjustment note; a cancelled order has no tax invoice; a points order's invoice says
 * what paid it.
 */

const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const SYDNEY: ShippingAddress = {
  fullName: 'Ann Lee',
  addressLine1: '14 Boundary Lane',
  addressLine2: null,
  city: 'Silverwater',
  state: 'NSW',
  postalCode: '2128',
  country: 'Australia',
};
const SEATTLE: ShippingAddress = {
  fullName: 'Sam Ortiz',
  addressLine1: '400 Pine Street',
  addressLine2: null,
  city: 'Seattle',
  state: 'WA',
  postalCode: '98101',
  country: 'United States',
};

interface Shopper {
  user: User;
  token: string;
}

/** The text of a PDF, its whitespace folded to single spaces. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

const postgresAvailable = await isPostgresReachable();
const kinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'pglite', skip: false },
  { kind: 'postgres', skip: !postgresAvailable },
];

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`refunds, adjustment notes and the tax invoice on ${kind}`, () => {
    let shop: TestShop;
    let outbox: string;
    let adminToken: string;
    let admin: User;
    let productIds: number[] = [];
    let nextProduct = 0;
    let sequence = 0;

    async function call<T>(
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      token: string | null,
      payload?: unknown,
    ): Promise<{ status: number; body: T; raw: Buffer; type: string }> {
      sequence += 1;
      const response = await shop.app.inject({
        method,
        url,
        remoteAddress: `10.44.${(sequence >> 8) & 255}.${sequence & 255}`,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      });
      const type = String(response.headers['content-type'] ?? '');
      return {
        status: response.statusCode,
        body: (type.includes('json') ? response.json() : null) as T,
        raw: response.rawPayload,
        type,
      };
    }

    async function shopper(tag: string): Promise<Shopper> {
      sequence += 1;
      const [row] = await shop.database.db
        .insert(users)
        .values({ email: `refunds.${tag}.${sequence}.${kind}@example.com`, firstName: 'Ann', lastName: tag })
        .returning();
      return { user: toUser(row as never), token: (await createSession(shop.database.db, row!.id, 'refunds')).token };
    }

    async function freshProduct(priceCents: number, stock = 20): Promise<number> {
      const id = productIds[nextProduct];
      nextProduct += 1;
      if (id === undefined) throw new Error('The test shop has too few products');
      await shop.database.db
        .update(products)
        .set({ priceCents, discountPriceCents: null, stockQuantity: stock, isActive: true, isRedemption: false })
        .where(eq(products.id, id));
      shop.app.services.catalog.invalidate();
      return id;
    }

    async function place(
      who: Shopper,
      lines: { productId: number; quantity: number }[],
      shippingAddress: ShippingAddress = SYDNEY,
    ): Promise<Order> {
      sequence += 1;
      const answer = await call<{ order: Order }>('POST', '/api/orders', who.token, {
        sessionId: `session_refunds_${kind}_${sequence}`,
        userEmail: who.user.email,
        orderItems: lines,
        paymentMethod: 'credit_card',
        cardData: { Number: APPROVE_CARD, Expiry: EXPIRY, Cvc: '123', Name: 'Ann Lee' },
        shippingAddress,
      });
      expect(answer.status).toBe(201);
      return answer.body.order;
    }

    async function returned(who: Shopper, order: Order, items: { orderItemId: number; quantity: number }[]) {
      await shop.app.services.orders.markSucceeded(order.id);
      const asked = await call<Order>('POST', `/api/orders/${order.id}/returns`, who.token, {
        reason: 'The blade arrived chipped',
        items,
      });
      expect(asked.status).toBe(201);
      const [request] = await shop.database.db
        .select({ id: returnRequests.id })
        .from(returnRequests)
        .where(eq(returnRequests.orderId, order.id));
      const approved = await call<{ order: Order }>('POST', `/api/admin/returns/${request!.id}/approve`, adminToken);
      expect(approved.status).toBe(200);
      return (await call<Order>('GET', `/api/orders/${order.id}`, who.token)).body;
    }

    /** The invoice page route (`/orders/:id/invoice.pdf`) as the server calls it, for `who`. */
    async function invoicePage(who: Shopper, orderId: number): Promise<Response> {
      const context = new RouterContextProvider();
      context.set(shopContext, shop.app.services);
      context.set(requestContext, {
        viewer: { user: who.user, sessionId: 'test' },
        clientAddress: '10.44.0.1',
        nonce: '',
        secureCookies: false,
        partFailed: () => {},
        sharedPage: () => {},
      });
      const path = `/orders/${orderId}/invoice.pdf`;
      try {
        return (await orderInvoice.loader({
          request: new Request(`http://localhost${path}`),
          context,
          params: { id: String(orderId) },
        } as never)) as Response;
      } catch (thrown) {
        if (thrown instanceof Response) return thrown;
        const init = (thrown as { init?: { status?: number }; data?: unknown }).init;
        return new Response(JSON.stringify((thrown as { data?: unknown }).data ?? null), {
          status: init?.status ?? 500,
          headers: { 'content-type': 'application/json' },
        });
      }
    }

    beforeAll(async () => {
      outbox = mkdtempSync(join(tmpdir(), 'harbour-refunds-outbox-'));
      shop = await createTestShop(kind, { products: 30, env: { MAIL_OUTBOX_DIR: outbox, PAYMENT_DECLINE_RATE: '1' } });
      productIds = (await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id)).map(
        (row) => row.id,
      );
      const [row] = await shop.database.db
        .insert(users)
        .values({ email: `refunds.admin.${kind}@example.com`, firstName: 'Ada', lastName: 'Admin', role: 'admin' })
        .returning();
      admin = toUser(row as never);
      adminToken = (await createSession(shop.database.db, admin.id, 'refunds')).token;
    });
    afterAll(async () => {
      await shop?.app.services.mailer.idle();
      await shop?.close();
      if (outbox) rmSync(outbox, { recursive: true, force: true });
    });

    describe('regressions (issue 22)', () => {
      it('a cancelled order has no tax invoice: its PDF route answers 409, not a "Tax Invoice"', async () => {
        const alice = await shopper('cancelled');
        const order = await place(alice, [{ productId: await freshProduct(8_900), quantity: 1 }]);
        expect((await call('PUT', `/api/orders/${order.id}/cancel`, alice.token)).status).toBe(200);
        const answer = await invoicePage(alice, order.id);
        expect(answer.status).toBe(409);
        expect(answer.headers.get('content-type')).not.toContain('application/pdf');
      });

      it('a points order’s invoice says what paid it, not "Payment pending"', async () => {
        const member = await shopper('points');
        const prize = await freshProduct(4_000);
        await shop.database.db
          .update(products)
          .set({ isRedemption: true, pointsCost: 40 })
          .where(eq(products.id, prize));
        await shop.app.services.backOffice.adjustPoints(
          member.user.id,
          { points: 100, reason: 'Test points' },
          { userId: admin.id, email: admin.email },
        );
        const order = await shop.app.services.orders.redeem(member.user.id, member.user.email, {
          productId: prize,
          quantity: 2,
          shippingAddress: SYDNEY,
        });
        const answer = await invoicePage(member, order.id);
        expect(answer.status).toBe(200);
        const text = await pdfText(new Uint8Array(await answer.arrayBuffer()));
        expect(text).not.toContain('Payment pending');
        expect(text).toContain('Paid with 80 points');
      });

      it('a partial return shows the payment Partially refunded with the amount, not Paid', async () => {
        const bob = await shopper('partial');
        const saw = await freshProduct(2_500);
        const blade = await freshProduct(1_000);
        const order = await place(bob, [
          { productId: saw, quantity: 2 },
          { productId: blade, quantity: 1 },
        ]);
        const sawLine = order.items.find((item) => item.productId === saw)!;
        const after = await returned(bob, order, [{ orderItemId: sawLine.id, quantity: 1 }]);
        expect(after).toMatchObject({ paymentStatus: 'Partially refunded', refundedAmount: 27.5 });
        expect(after.refundedAt).toEqual(expect.any(String));
      });

      it('a return from a GST-free export order refunds no GST it never charged', async () => {
        const sam = await shopper('export');
        const saw = await freshProduct(2_500);
        const blade = await freshProduct(1_000);
        const order = await place(
          sam,
          [
            { productId: saw, quantity: 2 },
            { productId: blade, quantity: 1 },
          ],
          SEATTLE,
        );
        expect(order).toMatchObject({ gstFreeExport: true, taxAmount: 0 });
        const sawLine = order.items.find((item) => item.productId === saw)!;
        await returned(sam, order, [{ orderItemId: sawLine.id, quantity: 1 }]);
        const entries = await shop.database.db
          .select({ details: auditLog.details })
          .from(auditLog)
          .where(eq(auditLog.action, 'return.approve'));
        const mine = entries.find((entry) => (entry.details as { orderId: number }).orderId === order.id);
        expect(mine?.details).toMatchObject({ orderId: order.id, refundCents: 2_500 });
        const [row] = await shop.database.db.select().from(orders).where(eq(orders.id, order.id));
        expect(row?.refundedCents).toBe(2_500);
      });
    });
  });
}
