import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { RouterContextProvider } from 'react-router';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestContext } from '../../app/lib/request-context.ts';
import { shopContext } from '../../app/lib/shop-context.ts';
import * as orderAdjustmentNote from '../../app/routes/order-adjustment-note.ts';
import * as orderInvoice from '../../app/routes/order-invoice.ts';
import type { User } from '../../contracts/account.ts';
import { ORDER_MESSAGES, type Order, type ShippingAddress } from '../../contracts/orders.ts';
import { adjustmentNotes, auditLog, orders, products, returnRequests, users } from '../../db/schema.ts';
import { toUser } from '../../server/domain/accounts.ts';
import { APPROVE_CARD } from '../../server/domain/payments.ts';
import { DEFAULT_PREFERENCES } from '../../server/domain/preferences.ts';
import { createSession } from '../../server/domain/sessions.ts';
import { readOutbox } from '../helpers/outbox.ts';
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
  // pdf.js takes a plain Uint8Array (not a Buffer), and a copy: it detaches what it is given.
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
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

    /** A shopper granted exactly `points` who redeems one unit of a fresh redemption product costing them. */
    async function pointsOrder(tag: string, priceCents: number, points: number) {
      const member = await shopper(tag);
      const prize = await freshProduct(priceCents);
      await shop.database.db
        .update(products)
        .set({ isRedemption: true, pointsCost: points })
        .where(eq(products.id, prize));
      await shop.app.services.backOffice.adjustPoints(
        member.user.id,
        { points, reason: 'Test points' },
        { userId: admin.id, email: admin.email },
      );
      const order = await shop.app.services.orders.redeem(member.user.id, member.user.email, {
        productId: prize,
        quantity: 1,
        shippingAddress: SYDNEY,
      });
      return { member, prize, order };
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
    function invoicePage(who: Shopper, orderId: number): Promise<Response> {
      return page(orderInvoice.loader, who.user, `/orders/${orderId}/invoice.pdf`, { id: String(orderId) });
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

    /** Every e-mail the outbox holds for `to`, read back with both parts. */
    async function mailsTo(to: string) {
      await shop.app.services.mailer.idle();
      return (await readOutbox(outbox)).filter((mail) => mail.to.includes(to));
    }

    /** A page route's answer for `user` as the server calls it (a thrown data() read as its status). */
    async function page(
      loader: (args: never) => Promise<unknown>,
      user: User,
      path: string,
      params: Record<string, string>,
    ): Promise<Response> {
      const context = new RouterContextProvider();
      context.set(shopContext, shop.app.services);
      context.set(requestContext, {
        viewer: { user, sessionId: 'test' },
        clientAddress: '10.44.0.1',
        nonce: '',
        secureCookies: false,
        partFailed: () => {},
        failed: () => {},
        sharedPage: () => {},
        showsStock: () => {},
      });
      try {
        return (await loader({
          request: new Request(`http://localhost${path}`),
          context,
          params,
        } as never)) as Response;
      } catch (thrown) {
        if (thrown instanceof Response) return thrown;
        const init = (thrown as { init?: { status?: number } }).init;
        return new Response(JSON.stringify((thrown as { data?: unknown }).data ?? null), {
          status: init?.status ?? 500,
        });
      }
    }

    describe('the tax invoice', () => {
      it('HT-100001’s case: $89.00 + $10 delivery shows GST $8.90 + $0.91 = $9.81, total $107.90, and every field of a tax invoice', async () => {
        const ann = await shopper('invoice');
        const product = await freshProduct(8_900);
        const order = await place(ann, [{ productId: product, quantity: 1 }]);
        expect(order).toMatchObject({ subtotal: 89, taxAmount: 8.9, shippingCost: 10, shippingTaxAmount: 0.91 });
        expect(order).toMatchObject({ totalTaxAmount: 9.81, total: 107.9 });
        const answer = await call<null>('GET', `/api/orders/${order.id}/invoice.pdf`, ann.token);
        expect(answer.status).toBe(200);
        expect(answer.type).toContain('application/pdf');
        const text = await pdfText(answer.raw);
        const shopInfo = shop.app.services.shop;
        const item = order.items[0]!;
        const issued = new Intl.DateTimeFormat('en-AU', {
          day: 'numeric',
          month: 'long',
          year: 'numeric',
          timeZone: 'Australia/Sydney',
        }).format(new Date(order.createdAt));
        for (const field of [
          'Tax Invoice',
          shopInfo.name,
          `ABN ${shopInfo.abn}`,
          `Invoice number ${order.orderNumber}`,
          `Date ${issued}`,
          `${item.productName} (${item.sku}) 1 $89.00 $89.00`,
          'Subtotal (excl. GST) $89.00',
          'GST (10%) $8.90',
          'Shipping $10.00',
          'GST included in shipping $0.91',
          'Total (incl. GST) $107.90',
          'GST included in the total $9.81',
          'GST included in the total: $8.90 on goods + $0.91 on delivery = $9.81.',
          'Paid by Visa ending 4242',
        ]) {
          expect(text, field).toContain(field);
        }
        // The page route answers the same document.
        const pageAnswer = await page(orderInvoice.loader, ann.user, `/orders/${order.id}/invoice.pdf`, {
          id: String(order.id),
        });
        expect(pageAnswer.status).toBe(200);
        expect(await pdfText(new Uint8Array(await pageAnswer.arrayBuffer()))).toContain(
          'GST included in the total $9.81',
        );
      });

      it('an order issued before delivery GST was shown keeps its old invoice', async () => {
        const ann = await shopper('legacy');
        const order = await place(ann, [{ productId: await freshProduct(8_900), quantity: 1 }]);
        await shop.database.db.update(orders).set({ shippingGstCents: null }).where(eq(orders.id, order.id));
        const text = await pdfText((await call<null>('GET', `/api/orders/${order.id}/invoice.pdf`, ann.token)).raw);
        expect(text).toContain(`Invoice / order ${order.orderNumber}`);
        expect(text).toContain('Total (incl. GST) $107.90');
        expect(text).toContain('GST included in the total: $8.90.');
        expect(text).not.toContain('$0.91');
        expect(text).not.toContain('$9.81');
      });

      it('a GST-free export says so and shows no GST', async () => {
        const sam = await shopper('export-invoice');
        const order = await place(sam, [{ productId: await freshProduct(8_900), quantity: 1 }], SEATTLE);
        const text = await pdfText((await call<null>('GET', `/api/orders/${order.id}/invoice.pdf`, sam.token)).raw);
        expect(text).toContain('GST-free export');
        expect(text).toContain('Total $99.00');
        expect(text).not.toContain('GST (10%)');
        expect(text).not.toContain('GST included in the total');
      });

      it('a points order’s invoice says "Paid with N points", $0.00 and no GST', async () => {
        const { member, order } = await pointsOrder('points-invoice', 4_000, 40);
        const text = await pdfText((await call<null>('GET', `/api/orders/${order.id}/invoice.pdf`, member.token)).raw);
        expect(text).toContain('Paid with 40 points');
        expect(text).toContain('Total $0.00');
        expect(text).not.toContain('GST (10%)');
        expect(text).not.toContain('Payment pending');
      });

      it('a cancelled order has none: the API answers 409 with the reason, the page a short page, the order page no link', async () => {
        const ann = await shopper('no-invoice');
        const order = await place(ann, [{ productId: await freshProduct(1_000), quantity: 1 }]);
        await call('PUT', `/api/orders/${order.id}/cancel`, ann.token);
        const answer = await call<{ message: string }>('GET', `/api/orders/${order.id}/invoice.pdf`, ann.token);
        expect(answer.status).toBe(409);
        expect(answer.body).toEqual({ message: ORDER_MESSAGES.noInvoiceWhenCancelled });
        const pageAnswer = await page(orderInvoice.loader, ann.user, `/orders/${order.id}/invoice.pdf`, {
          id: String(order.id),
        });
        expect(pageAnswer.status).toBe(409);
        expect(pageAnswer.headers.get('content-type')).toContain('text/html');
        const html = await pageAnswer.text();
        expect(html).toContain('No tax invoice');
        expect(html).toContain(`href="/orders/${order.id}"`);
      });
    });

    describe('refunds recorded, with their adjustment notes', () => {
      it('a cancel refunds everything, delivery and its GST included, and issues a note the owner and staff can read', async () => {
        const ann = await shopper('cancel');
        const product = await freshProduct(8_900);
        const order = await place(ann, [{ productId: product, quantity: 1 }]);
        const cancelled = await call<Order>('PUT', `/api/orders/${order.id}/cancel`, ann.token);
        expect(cancelled.status).toBe(200);
        expect(cancelled.body).toMatchObject({
          status: 'Cancelled',
          paymentStatus: 'Refunded',
          refundedAmount: 107.9,
          refundedAt: expect.any(String),
        });
        const [note] = cancelled.body.adjustmentNotes;
        expect(note).toEqual({
          number: expect.stringMatching(/^AN-\d{6}$/),
          date: cancelled.body.refundedAt,
          amount: 107.9,
          reason: 'Cancelled at the customer’s request',
          url: `/api/orders/${order.id}/adjustment-notes/${note?.number}.pdf`,
        });
        const [row] = await shop.database.db
          .select()
          .from(adjustmentNotes)
          .where(eq(adjustmentNotes.orderId, order.id));
        expect(row).toMatchObject({
          subtotalCents: 8_900,
          gstCents: 890,
          shippingCents: 1_000,
          shippingGstCents: 91,
          totalCents: 10_790,
          refundId: expect.stringMatching(/^sim_re_/),
          lines: [{ orderItemId: order.items[0]!.id, quantity: 1, unitPriceCents: 8_900, totalCents: 8_900 }],
        });

        const pdf = await call<null>('GET', note!.url, ann.token);
        expect(pdf.status).toBe(200);
        expect(pdf.type).toContain('application/pdf');
        const text = await pdfText(pdf.raw);
        const shopInfo = shop.app.services.shop;
        for (const field of [
          'Adjustment note',
          `Adjustment note number ${note!.number}`,
          shopInfo.name,
          `ABN ${shopInfo.abn}`,
          `Original tax invoice ${order.orderNumber}`,
          'Reason Cancelled at the customer’s request',
          `${order.items[0]!.productName} (${order.items[0]!.sku}) 1 $89.00 $89.00`,
          'Goods refunded (excl. GST) $89.00',
          'GST on goods adjusted $8.90',
          'Delivery refunded $10.00',
          'GST on delivery adjusted (included) $0.91',
          'Total refunded (incl. GST) $107.90',
          'GST adjusted $9.81',
        ]) {
          expect(text, field).toContain(field);
        }
        // Staff may read it; another shopper, a wrong number or another order's number may not.
        expect((await call<null>('GET', note!.url, adminToken)).status).toBe(200);
        const bob = await shopper('stranger');
        const stranger = await call<{ message: string }>('GET', note!.url, bob.token);
        expect(stranger.status).toBe(404);
        expect(stranger.body).toEqual({ message: ORDER_MESSAGES.notFound });
        const other = await place(ann, [{ productId: product, quantity: 1 }]);
        expect(
          (await call<null>('GET', `/api/orders/${other.id}/adjustment-notes/${note!.number}.pdf`, ann.token)).status,
        ).toBe(404);
        expect(
          (await call<null>('GET', `/api/orders/${order.id}/adjustment-notes/AN-999999.pdf`, ann.token)).status,
        ).toBe(404);
        expect(
          (await call<null>('GET', `/api/orders/${order.id}/adjustment-notes/nonsense.pdf`, ann.token)).status,
        ).toBe(400);
        // A malformed or out-of-range order id is bad input (400, JSON), for the note and the invoice alike.
        for (const id of ['abc', '0', '2147483648']) {
          for (const url of [
            `/api/orders/${id}/adjustment-notes/${note!.number}.pdf`,
            `/api/orders/${id}/invoice.pdf`,
          ]) {
            const bad = await call<{ message: string }>('GET', url, ann.token);
            expect(bad.status, url).toBe(400);
            expect(typeof bad.body.message).toBe('string');
          }
        }
        // Another shopper asking for the invoice of this order: 404, not 403.
        expect((await call<null>('GET', `/api/orders/${order.id}/invoice.pdf`, bob.token)).status).toBe(404);
        // The page route: owner and staff get the PDF; another shopper 404.
        const path = `/orders/${order.id}/adjustment-notes/${note!.number}.pdf`;
        const params = { id: String(order.id), noteNumber: note!.number };
        expect((await page(orderAdjustmentNote.loader, ann.user, path, params)).status).toBe(200);
        expect((await page(orderAdjustmentNote.loader, admin, path, params)).status).toBe(200);
        expect((await page(orderAdjustmentNote.loader, bob.user, path, params)).status).toBe(404);
        expect((await page(orderAdjustmentNote.loader, ann.user, path, { ...params, noteNumber: 'x' })).status).toBe(
          404,
        );
      });

      it('returning every line refunds the goods with their GST but not the delivery: Partially refunded', async () => {
        const ann = await shopper('full-return');
        const order = await place(ann, [{ productId: await freshProduct(8_900), quantity: 1 }]);
        const after = await returned(ann, order, [{ orderItemId: order.items[0]!.id, quantity: 1 }]);
        expect(after).toMatchObject({ paymentStatus: 'Partially refunded', refundedAmount: 97.9 });
        expect(after.adjustmentNotes).toEqual([
          expect.objectContaining({ amount: 97.9, reason: 'Goods returned: The blade arrived chipped' }),
        ]);
        const [row] = await shop.database.db
          .select()
          .from(adjustmentNotes)
          .where(eq(adjustmentNotes.orderId, order.id));
        expect(row).toMatchObject({
          subtotalCents: 8_900,
          gstCents: 890,
          shippingCents: 0,
          shippingGstCents: 0,
          totalCents: 9_790,
        });
        const text = await pdfText((await call<null>('GET', after.adjustmentNotes[0]!.url, ann.token)).raw);
        expect(text).toContain('GST adjusted $8.90');
        expect(text).toContain('The delivery charge is not refunded: the delivery was made.');
        expect(text).not.toContain('Delivery refunded');
      });

      it('returning everything of a free-delivery order refunds all of it: Refunded', async () => {
        const ann = await shopper('all-back');
        const order = await place(ann, [{ productId: await freshProduct(6_000), quantity: 2 }]);
        expect(order.shippingCost).toBe(0);
        const after = await returned(ann, order, [{ orderItemId: order.items[0]!.id, quantity: 2 }]);
        expect(after).toMatchObject({ paymentStatus: 'Refunded', refundedAmount: 132 });
      });

      it('the order list shows the refund state too', async () => {
        const ann = await shopper('list');
        const order = await place(ann, [{ productId: await freshProduct(2_000), quantity: 2 }]);
        await returned(ann, order, [{ orderItemId: order.items[0]!.id, quantity: 1 }]);
        const list = await call<Order[]>('GET', '/api/orders/user', ann.token);
        expect(list.body[0]).toMatchObject({
          id: order.id,
          paymentStatus: 'Partially refunded',
          refundedAmount: 22,
          adjustmentNotes: [expect.objectContaining({ amount: 22 })],
        });
      });

      it('a points order’s cancel gives the points back, marks it Refunded and issues no note', async () => {
        const { member, order } = await pointsOrder('points-cancel', 2_000, 20);
        const cancelled = await call<Order>('PUT', `/api/orders/${order.id}/cancel`, member.token);
        expect(cancelled.body).toMatchObject({ paymentStatus: 'Refunded', refundedAmount: 0, adjustmentNotes: [] });
        expect(cancelled.body.refundedAt).toEqual(expect.any(String));
        expect(await shop.app.services.points.balance(member.user.id)).toBe(20);
        const [mail] = await mailsTo(member.user.email).then((mails) =>
          mails.filter((m) => m.subject.includes('cancelled')),
        );
        expect(mail?.subject).toBe(`Your Harbour Tools order ${order.orderNumber} is cancelled: your points are back`);
      });
    });

    describe('refund e-mails (always sent: they are records)', () => {
      it('the cancellation e-mail has HTML and text parts with the amount and the adjustment note link', async () => {
        const ann = await shopper('cancel-mail');
        await shop.app.services.preferences.save(ann.user.id, { ...DEFAULT_PREFERENCES, orderUpdateEmails: false });
        const order = await place(ann, [{ productId: await freshProduct(8_900), quantity: 1 }]);
        const cancelled = await call<Order>('PUT', `/api/orders/${order.id}/cancel`, ann.token);
        const note = cancelled.body.adjustmentNotes[0]!;
        const mails = (await mailsTo(ann.user.email)).filter((mail) => mail.subject.includes('cancelled'));
        expect(mails).toHaveLength(1);
        const [mail] = mails;
        expect(mail?.subject).toBe(`Your Harbour Tools order ${order.orderNumber} is cancelled: $107.90 refunded`);
        const link = `${shop.app.services.shop.publicUrl}/orders/${order.id}/adjustment-notes/${note.number}.pdf`;
        for (const part of [mail!.text, mail!.html]) {
          expect(part).toContain('$107.90');
          // The refunded line's price reads as the shop shows prices: inc GST, its ex-GST price beside.
          expect(part).toContain('$97.90 inc GST');
          expect(part).toContain('$89.00 ex GST');
          expect(part).toContain(note.number);
          expect(part).toContain(link);
          expect(part).toContain('Visa ending 4242');
        }
        expect(mail!.html).toContain('<h1');
      });

      it('the return-approved e-mail has the refund and the note, even with order-update e-mails off', async () => {
        const ann = await shopper('return-mail');
        await shop.app.services.preferences.save(ann.user.id, { ...DEFAULT_PREFERENCES, orderUpdateEmails: false });
        const saw = await freshProduct(2_500);
        const order = await place(ann, [{ productId: saw, quantity: 2 }]);
        const after = await returned(ann, order, [{ orderItemId: order.items[0]!.id, quantity: 1 }]);
        const note = after.adjustmentNotes[0]!;
        const mails = (await mailsTo(ann.user.email)).filter((mail) => mail.subject.includes('is approved'));
        expect(mails).toHaveLength(1);
        const [mail] = mails;
        expect(mail?.subject).toBe(`Your return for Harbour Tools order ${order.orderNumber} is approved`);
        for (const part of [mail!.text, mail!.html]) {
          expect(part).toContain('$27.50');
          expect(part).toContain('$27.50 inc GST');
          expect(part).toContain('$25.00 ex GST');
          expect(part).toContain(note.number);
          expect(part).toContain(`/orders/${order.id}/adjustment-notes/${note.number}.pdf`);
          expect(part).toContain('The delivery charge is not refunded');
        }
      });
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
