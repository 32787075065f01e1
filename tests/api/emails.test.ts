import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../contracts/account.ts';
import type { Order } from '../../contracts/orders.ts';
import { passwordResetTokens, products, returnRequests } from '../../db/schema.ts';
import { formatEmailDate } from '../../server/domain/email-layout.ts';
import { type OutboxMail, readOutbox } from '../helpers/outbox.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

/*
 * The e-mails a shop sends (issue 22), each written to the outbox as HTML with a plain-text
 * part and read back as a mail client would: the order receipt with its lines (unit prices inc
 * GST) and totals (the delivery's GST share), the points order, the owner's new-order e-mail to
 * SHOP_EMAIL, "password changed" after a change and after a reset, the membership charge with
 * readable dates, the return received, and the return rejected, which the shopper's
 * order-update preference can stop (spec-decisions "Money") while receipts always go.
 */

interface Account {
  token: string;
  user: User;
  email: string;
}

const PASSWORD = 'Harbour-Emails-Pass-42';
const ADMIN_PASSWORD = 'Harbour-Emails-Admin-42';
const SHOP_EMAIL = 'orders@harbour-tools.example';
const PUBLIC_URL = 'https://shop.harbour.example';
const APPROVE = '4242 4242 4242 4242';
const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const SHIPPING = {
  fullName: 'Ann Lee',
  addressLine1: '14 Boundary Lane',
  city: 'Silverwater',
  state: 'NSW',
  postalCode: '2128',
  country: 'Australia',
};
/** A JavaScript date as `String(date)` prints it: never in an e-mail. */
const RAW_DATE =
  /(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{4}|GMT|T\d{2}:\d{2}/;

const postgresAvailable = await isPostgresReachable();
const kinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'pglite', skip: false },
  { kind: 'postgres', skip: !postgresAvailable },
];

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`the shop's e-mails on ${kind}`, () => {
    let shop: TestShop;
    let outbox: string;
    let adminToken: string;
    let admin: User;
    let productIds: number[] = [];
    let nextProduct = 0;
    let sequence = 0;

    const nextIp = () => {
      sequence += 1;
      return `10.22.${(sequence >> 8) & 255}.${sequence & 255}`;
    };

    async function call<T = { message: string }>(
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      options: { token?: string | null; body?: unknown } = {},
    ): Promise<{ status: number; body: T; text: string }> {
      const response = await shop.app.inject({
        method,
        url,
        remoteAddress: nextIp(),
        headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
        ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
      });
      return {
        status: response.statusCode,
        body: (response.body ? JSON.parse(response.body) : null) as T,
        text: response.body,
      };
    }

    async function register(tag: string): Promise<Account> {
      sequence += 1;
      const email = `emails.${tag}.${sequence}.${kind}@example.com`;
      const answer = await call<{ token: string; user: User }>('POST', '/api/auth/register', {
        body: {
          firstName: 'Ann',
          lastName: tag,
          email,
          password: PASSWORD,
          PhoneNumber: '0412 345 678',
          address: {
            addressLine1: '1 Main St',
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

    /** The next unused seeded product, with a known price, stock and (optionally) points price. */
    async function fresh(priceCents: number, pointsCost: number | null = null) {
      const id = productIds[nextProduct];
      nextProduct += 1;
      if (id === undefined) throw new Error('The test shop has too few products');
      const [row] = await shop.database.db
        .update(products)
        .set({
          // A name without HTML's special characters, so both parts can be searched for it as is.
          name: `E-mail test product ${id}`,
          priceCents,
          discountPriceCents: null,
          stockQuantity: 20,
          isActive: true,
          isRedemption: pointsCost !== null,
          pointsCost,
        })
        .where(eq(products.id, id))
        .returning({ id: products.id, name: products.name, sku: products.sku });
      shop.app.services.catalog.invalidate();
      if (!row) throw new Error(`Product ${id} is missing`);
      return row;
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
          cardData: { Number: APPROVE, Expiry: EXPIRY, Cvc: '123', Name: 'Ann Lee' },
          shippingAddress: SHIPPING,
        },
      });
      expect(answer.status, answer.text).toBe(201);
      return answer.body.order;
    }

    /** The e-mails written while `run` runs, after every send has finished, both parts read back. */
    async function mailsDuring(run: () => Promise<unknown>): Promise<OutboxMail[]> {
      await shop.app.services.mailer.idle();
      const before = new Set((await readOutbox(outbox)).map((mail) => mail.file));
      await run();
      await shop.app.services.mailer.idle();
      return (await readOutbox(outbox)).filter((mail) => !before.has(mail.file));
    }

    /** Both parts of an e-mail say it: the plain text and the HTML, with no raw JavaScript date in either. */
    function bothParts(mail: OutboxMail | undefined): string[] {
      expect(mail, 'the e-mail was sent').toBeDefined();
      expect(mail!.text.length).toBeGreaterThan(0);
      expect(mail!.html).toMatch(/^<!doctype html>/i);
      for (const part of [mail!.text, mail!.html]) expect(part).not.toMatch(RAW_DATE);
      return [mail!.text, mail!.html];
    }

    async function succeeded(order: Order): Promise<Order> {
      const moved = await call<{ order: Order }>('PUT', `/api/admin/orders/${order.id}/status`, {
        token: adminToken,
        body: { status: 'Succeeded' },
      });
      expect(moved.status, moved.text).toBe(200);
      return moved.body.order;
    }

    async function askReturn(account: Account, order: Order): Promise<number> {
      const answer = await call('POST', `/api/orders/${order.id}/returns`, {
        token: account.token,
        body: { reason: 'The blade arrived chipped', items: [{ orderItemId: order.items[0]!.id, quantity: 1 }] },
      });
      expect(answer.status, answer.text).toBe(201);
      const [request] = await shop.database.db
        .select({ id: returnRequests.id })
        .from(returnRequests)
        .where(eq(returnRequests.orderId, order.id));
      return request!.id;
    }

    beforeAll(async () => {
      outbox = mkdtempSync(join(tmpdir(), 'harbour-emails-outbox-'));
      shop = await createTestShop(kind, {
        products: 20,
        env: { MAIL_OUTBOX_DIR: outbox, PAYMENT_DECLINE_RATE: '1', SHOP_EMAIL, PUBLIC_URL },
      });
      productIds = (await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id)).map(
        (row) => row.id,
      );
      const email = `emails.admin.${kind}@example.com`;
      await shop.app.services.accounts.ensureAdmin(email, ADMIN_PASSWORD);
      const signedIn = await call<{ token: string; user: User }>('POST', '/api/auth/login', {
        body: { email, password: ADMIN_PASSWORD },
      });
      expect(signedIn.status, signedIn.text).toBe(200);
      adminToken = signedIn.body.token;
      admin = signedIn.body.user;
    });
    afterAll(async () => {
      await shop?.app.services.mailer.idle();
      await shop?.close();
      if (outbox) rmSync(outbox, { recursive: true, force: true });
    });

    it('an order placed: the receipt lists the lines with unit prices inc GST and the totals; the owner hears of it at SHOP_EMAIL', async () => {
      const account = await register('buyer');
      const drill = await fresh(8_900);
      const bits = await fresh(995);
      let order: Order | undefined;
      const mails = await mailsDuring(async () => {
        order = await place(account, [
          { productId: drill.id, quantity: 1 },
          { productId: bits.id, quantity: 2 },
        ]);
      });
      // $89.00 + 2 × $9.95 = $108.90 (over $100: free delivery), GST $10.89, total $119.79.
      expect(order).toMatchObject({ subtotal: 108.9, taxAmount: 10.89, shippingCost: 0, total: 119.79 });
      expect(mails.map((mail) => mail.to).toSorted()).toEqual([account.email, SHOP_EMAIL].toSorted());

      const receipt = mails.find((mail) => mail.to === account.email);
      expect(receipt?.subject).toBe(`Harbour Tools order ${order!.orderNumber} confirmed`);
      for (const part of bothParts(receipt)) {
        expect(part).toContain(order!.orderNumber);
        expect(part).toContain(drill.name);
        expect(part).toContain('$97.90 inc GST'); // $89.00 + GST
        expect(part).toContain('$10.95 inc GST'); // $9.95 + GST
        // Beside each headline, in smaller type on a page, its ex-GST price (issue 22).
        expect(part).toContain('$89.00 ex GST');
        expect(part).toContain('$9.95 ex GST');
        expect(part).toContain('$108.90');
        expect(part).toContain('$10.89');
        expect(part).toContain('$119.79');
        expect(part).toContain('Paid with Visa ending 4242');
        expect(part).toContain(formatEmailDate(new Date(order!.createdAt)));
        expect(part).toContain(`${PUBLIC_URL}/orders/${order!.id}`);
      }
      expect(receipt!.text).toContain(`2 × ${bits.name} (${bits.sku})  $10.95 inc GST ($9.95 ex GST)  $19.90 ex GST`);
      expect(receipt!.text).toMatch(/Delivery +Free/);

      const toOwner = mails.find((mail) => mail.to === SHOP_EMAIL);
      expect(toOwner?.subject).toBe(`New order ${order!.orderNumber}: delivery, $119.79`);
      for (const part of bothParts(toOwner)) {
        expect(part).toContain(account.email);
        expect(part).toContain('$97.90 inc GST');
        expect(part).toContain('$119.79');
        expect(part).toContain('Fulfilment: Delivery');
        expect(part).toContain('14 Boundary Lane');
        expect(part).toContain(`${PUBLIC_URL}/admin/orders/${order!.id}`);
      }
    });

    it("the delivery's GST share is in the receipt under $100", async () => {
      const account = await register('small');
      const saw = await fresh(8_900);
      let order: Order | undefined;
      const mails = await mailsDuring(async () => {
        order = await place(account, [{ productId: saw.id, quantity: 1 }]);
      });
      // HT-100001's case: $89.00 + GST $8.90 + $10 delivery (GST $0.91 of it) = $107.90; GST in total $9.81.
      expect(order?.total).toBe(107.9);
      const receipt = mails.find((mail) => mail.to === account.email);
      for (const part of bothParts(receipt)) {
        expect(part).toContain('$10.00 (includes GST of $0.91)');
        expect(part).toContain('$9.81');
        expect(part).toContain('$107.90');
      }
      expect(receipt!.text).toMatch(/GST included in the total +\$9\.81/);
    });

    it('a points order: "Paid with N points", $0.00, and the owner hears of it too', async () => {
      const account = await register('redeemer');
      const prize = await fresh(5_000, 120);
      await shop.app.services.backOffice.adjustPoints(
        account.user.id,
        { points: 500, reason: 'Points for the e-mail test' },
        { userId: admin.id, email: admin.email },
      );
      let order: Order | undefined;
      const mails = await mailsDuring(async () => {
        const answer = await call<Order>('POST', '/api/redemptions', {
          token: account.token,
          body: { productId: prize.id, quantity: 2, shippingAddress: SHIPPING },
        });
        expect(answer.status, answer.text).toBe(201);
        order = answer.body;
      });
      expect(order?.pointsSpent).toBe(240);
      expect(mails.map((mail) => mail.to).toSorted()).toEqual([account.email, SHOP_EMAIL].toSorted());
      const receipt = mails.find((mail) => mail.to === account.email);
      expect(receipt?.subject).toBe(`Harbour Tools order ${order!.orderNumber}: paid with 240 points`);
      for (const part of bothParts(receipt)) {
        expect(part).toContain('Paid with 240 points');
        expect(part).toContain(prize.name);
        expect(part).toContain('120 points');
        expect(part).toContain('$0.00');
        expect(part).not.toContain('inc GST');
      }
      const toOwner = mails.find((mail) => mail.to === SHOP_EMAIL);
      expect(toOwner?.subject).toBe(`New order ${order!.orderNumber}: delivery, 240 points`);
      for (const part of bothParts(toOwner)) expect(part).toContain('Paid with 240 points');
    });

    it('"password changed" goes after a change and after a reset, with when and what to do if it was not them', async () => {
      const account = await register('changer');
      const changed = await mailsDuring(async () => {
        const answer = await call('POST', '/api/users/change-password', {
          token: account.token,
          body: { currentPassword: PASSWORD, newPassword: 'Harbour-Emails-Pass-43' },
        });
        expect(answer.status, answer.text).toBe(200);
      });
      expect(changed.map((mail) => [mail.to, mail.subject])).toEqual([
        [account.email, 'Your Harbour Tools password was changed'],
      ]);
      for (const part of bothParts(changed[0])) {
        expect(part).toContain(`was changed on ${formatEmailDate(new Date())} at `);
        expect(part).toContain('(Sydney time)');
        expect(part).toContain('If it was not you, reset your password at once');
        expect(part).toContain(`${PUBLIC_URL}/forgot-password`);
      }

      // The preference for order e-mails does not stop it: it is a record.
      await call('PUT', '/api/preferences', {
        token: account.token,
        body: { marketingEmails: false, orderUpdateEmails: false, preferredContactMethod: 'email' },
      });
      const asked = await mailsDuring(() =>
        call('POST', '/api/auth/forgot-password', { body: { email: account.email } }),
      );
      const token = new URL(
        /(https?:\/\/\S+\/reset-password\?token=\S+)/.exec(asked[0]?.text ?? '')?.[1] ?? 'x:',
      ).searchParams.get('token');
      expect(token).toBeTruthy();
      for (const part of bothParts(asked[0])) expect(part).toContain(`${PUBLIC_URL}/reset-password?token=`);
      const reset = await mailsDuring(async () => {
        const answer = await call('POST', '/api/auth/reset-password', {
          body: { token, newPassword: 'Harbour-Emails-Pass-44' },
        });
        expect(answer.status, answer.text).toBe(200);
      });
      expect(reset.map((mail) => [mail.to, mail.subject])).toEqual([
        [account.email, 'Your Harbour Tools password was changed'],
      ]);
      for (const part of bothParts(reset[0])) {
        expect(part).toContain('was reset with an e-mailed link on');
        expect(part).toContain('If it was not you');
      }
      expect(await shop.database.db.$count(passwordResetTokens, eq(passwordResetTokens.userId, account.user.id))).toBe(
        1,
      );
    });

    it('membership charges: the first month and a renewal, with the amount, its GST and readable dates', async () => {
      const account = await register('member');
      let renewsOn = '';
      const joined = await mailsDuring(async () => {
        const answer = await call<{ renewsOn: string }>('POST', '/api/membership', {
          token: account.token,
          body: {
            plan: 'basic',
            password: PASSWORD,
            confirmPassword: PASSWORD,
            cardData: { Number: APPROVE, Expiry: EXPIRY, Cvc: '123', Name: 'Ann Lee' },
          },
        });
        expect(answer.status, answer.text).toBe(201);
        renewsOn = answer.body.renewsOn;
      });
      expect(joined.map((mail) => mail.subject)).toEqual(['Welcome to Harbour Tools Basic membership']);
      for (const part of bothParts(joined[0])) {
        expect(part).toContain('$9.99, includes GST of $0.91');
        expect(part).toContain(`renews on ${formatEmailDate(new Date(renewsOn))}`);
        expect(part).toContain(`${PUBLIC_URL}/membership`);
      }

      const renewal = new Date(Date.parse(renewsOn) + 60_000);
      const renewed = await mailsDuring(() => shop.app.services.membershipBilling.runOnce(renewal));
      const receipt = renewed.find((mail) => mail.to === account.email);
      expect(receipt?.subject).toBe('Harbour Tools: $9.99 charged for your Basic membership');
      const { membership } = (
        await call<{ membership: { renewsOn: string } | null }>('GET', '/api/membership', { token: account.token })
      ).body;
      for (const part of bothParts(receipt)) {
        expect(part).toContain('$9.99, includes GST of $0.91');
        expect(part).toContain(`for another month of Basic on ${formatEmailDate(renewal)}`);
        expect(part).toContain(`renews on ${formatEmailDate(new Date(membership!.renewsOn))} for $9.99`);
      }
    });

    it('the spec status move to Succeeded sends an order notice in both parts, stopped by the order-update preference', async () => {
      const product = await fresh(4_500);
      for (const wantsUpdates of [true, false]) {
        const account = await register(wantsUpdates ? 'notice.on' : 'notice.off');
        const preferences = await call('PUT', '/api/preferences', {
          token: account.token,
          body: { marketingEmails: false, orderUpdateEmails: wantsUpdates, preferredContactMethod: 'email' },
        });
        expect(preferences.status, preferences.text).toBe(200);
        const order = await place(account, [{ productId: product.id, quantity: 1 }]);
        const notices = await mailsDuring(() => succeeded(order));
        if (!wantsUpdates) {
          expect(notices).toEqual([]);
          continue;
        }
        expect(notices.map((mail) => [mail.to, mail.subject])).toEqual([
          [account.email, `Your Harbour Tools order ${order.orderNumber} is on its way`],
        ]);
        for (const part of bothParts(notices[0])) {
          expect(part).toContain(product.name);
          expect(part).toContain('$49.50 inc GST');
          expect(part).toContain(`${PUBLIC_URL}/orders/${order.id}`);
        }
      }
    });

    it('a return: received always goes; rejected goes while the order-update preference is on, and not when it is off', async () => {
      const product = await fresh(4_500);
      for (const wantsUpdates of [true, false]) {
        const account = await register(wantsUpdates ? 'updates.on' : 'updates.off');
        const preferences = await call('PUT', '/api/preferences', {
          token: account.token,
          body: { marketingEmails: false, orderUpdateEmails: wantsUpdates, preferredContactMethod: 'email' },
        });
        expect(preferences.status, preferences.text).toBe(200);
        const order = await succeeded(await place(account, [{ productId: product.id, quantity: 2 }]));

        let requestId = 0;
        const received = await mailsDuring(async () => {
          requestId = await askReturn(account, order);
        });
        expect(received.map((mail) => [mail.to, mail.subject])).toEqual([
          [account.email, `We have your return request for Harbour Tools order ${order.orderNumber}`],
        ]);
        for (const part of bothParts(received[0])) {
          expect(part).toContain(product.name);
          expect(part).toContain('The blade arrived chipped');
          expect(part).toContain(`You asked on ${formatEmailDate(new Date())}`);
          expect(part).toContain('$49.50 inc GST');
        }

        const reason = 'The blade was used on masonry, which the warranty does not cover.';
        const rejected = await mailsDuring(async () => {
          const answer = await call('POST', `/api/admin/returns/${requestId}/reject`, {
            token: adminToken,
            body: { reason },
          });
          expect(answer.status, answer.text).toBe(200);
        });
        if (!wantsUpdates) {
          expect(rejected).toEqual([]);
          continue;
        }
        expect(rejected.map((mail) => [mail.to, mail.subject])).toEqual([
          [account.email, `Your return for Harbour Tools order ${order.orderNumber}`],
        ]);
        for (const part of bothParts(rejected[0])) {
          expect(part).toContain(`We could not accept the return for order ${order.orderNumber}`);
          expect(part).toContain(product.name);
          expect(part).toContain(`${PUBLIC_URL}/orders/${order.id}`);
        }
        expect(rejected[0]!.text).toContain(reason);
      }
    });
  });
}
