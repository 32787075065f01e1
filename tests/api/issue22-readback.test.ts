import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../contracts/account.ts';
import { COLLECT_RULES } from '../../contracts/fulfilment.ts';
import type { Order } from '../../contracts/orders.ts';
import { memberships, orderFulfilments, paymentMethods, products } from '../../db/schema.ts';
import { APPROVE_CARD } from '../../server/domain/payments.ts';
import { type OutboxMail, readOutbox } from '../helpers/outbox.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { registerShopper } from '../helpers/shoppers.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

/*
 * Issue 22, what was built but never read back (audit): on PGlite and PostgreSQL, through inject
 * and the outbox (both parts parsed as a mail client would) and the PDFs (text extracted):
 * - the declined-renewal and lapsed membership e-mails, with the amount and Sydney dates;
 * - a click & collect order's receipt (where to collect, what to bring) and the owner's
 *   new-order e-mail saying it is click & collect;
 * - the collect order's tax invoice saying where to collect and what to bring;
 * - the 14-day expiry of an uncollected order: its cancellation e-mail and its adjustment note,
 *   the note showing the date it was issued.
 */

interface Account {
  token: string;
  user: User;
  email: string;
}

const PASSWORD = 'Harbour-Readback-Pass-42';
const ADMIN_PASSWORD = 'Harbour-Readback-Admin-42';
const SHOP_EMAIL = 'orders@harbour-readback.example';
const PUBLIC_URL = 'https://shop.readback.example';
const ACCOUNT_PHONE = '0412 345 678';
const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const CARD = { Number: APPROVE_CARD, Expiry: EXPIRY, Cvc: '123', Name: 'Ann Lee' };
const DAY_MS = 86_400_000;
/** The store, as the default configuration names it. */
const STORE = '14 Boundary Lane, Silverwater NSW 2128';
/** A JavaScript date as `String(date)` or `toISOString()` prints it: never in an e-mail. */
const RAW_DATE =
  /(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{4}|GMT|T\d{2}:\d{2}/;
/** A date as the invoice and the adjustment note print it ("28 December 2026", Sydney's calendar). */
const SYDNEY_DAY = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Australia/Sydney',
});

/** The text of a PDF, its whitespace folded to single spaces (as refunds-and-notes.test.ts reads them). */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

/** What a reader sees of an HTML part: tags gone, the five escapes decoded, whitespace folded. */
function visible(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** Both parts of an e-mail, whitespace folded (the HTML as read): each must say the same things. */
function bothParts(mail: OutboxMail | undefined): { text: string; html: string; parts: string[] } {
  expect(mail, 'the e-mail was sent').toBeDefined();
  expect(mail!.text.length).toBeGreaterThan(0);
  expect(mail!.html).toMatch(/^<!doctype html>/i);
  const text = mail!.text.replace(/\s+/g, ' ');
  const html = visible(mail!.html);
  for (const part of [text, html]) expect(part).not.toMatch(RAW_DATE);
  return { text, html, parts: [text, html] };
}

const postgresAvailable = await isPostgresReachable();
const kinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'pglite', skip: false },
  { kind: 'postgres', skip: !postgresAvailable },
];

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`issue 22 read back (e-mails and PDFs) on ${kind}`, () => {
    let shop: TestShop;
    let outbox: string;
    let adminToken: string;
    let productIds: number[] = [];
    let nextProduct = 0;
    let sequence = 0;

    async function call<T = { message: string }>(
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      options: { token?: string | null; body?: unknown } = {},
    ): Promise<{ status: number; body: T; raw: Buffer; type: string; text: string }> {
      sequence += 1;
      const response = await shop.app.inject({
        method,
        url,
        remoteAddress: `10.62.${(sequence >> 8) & 255}.${sequence & 255}`,
        headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
        ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
      });
      const type = String(response.headers['content-type'] ?? '');
      return {
        status: response.statusCode,
        body: (type.includes('json') ? response.json() : null) as T,
        raw: response.rawPayload,
        type,
        text: type.includes('json') ? response.body : '',
      };
    }

    async function register(tag: string): Promise<Account> {
      sequence += 1;
      const email = `readback.${tag}.${sequence}.${kind}@example.com`;
      return registerShopper(shop.app, {
        email,
        password: PASSWORD,
        lastName: tag,
        phone: ACCOUNT_PHONE,
        remoteAddress: `10.62.${(sequence >> 8) & 255}.${sequence & 255}`,
      });
    }

    /** The next unused seeded product, renamed (no HTML special characters) and priced. */
    async function fresh(priceCents: number) {
      const id = productIds[nextProduct];
      nextProduct += 1;
      if (id === undefined) throw new Error('The test shop has too few products');
      const [row] = await shop.database.db
        .update(products)
        .set({
          name: `Read-back test product ${id}`,
          priceCents,
          discountPriceCents: null,
          stockQuantity: 20,
          isActive: true,
          isRedemption: false,
          pointsCost: null,
        })
        .where(eq(products.id, id))
        .returning({ id: products.id, name: products.name, sku: products.sku });
      shop.app.services.catalog.invalidate();
      if (!row) throw new Error(`Product ${id} is missing`);
      return row;
    }

    /** A click & collect order of one unit (no address, the account's phone). */
    async function placeCollect(account: Account, productId: number): Promise<Order> {
      sequence += 1;
      const answer = await call<{ order: Order }>('POST', '/api/orders', {
        token: account.token,
        body: {
          sessionId: `session_readback_${kind}_${sequence}`,
          userEmail: account.email,
          orderItems: [{ productId, quantity: 1 }],
          paymentMethod: 'credit_card',
          cardData: CARD,
          fulfilment: 'collect',
        },
      });
      expect(answer.status, answer.text).toBe(201);
      expect(answer.body.order).toMatchObject({ fulfilment: 'collect', shippingAddress: null, shippingCost: 0 });
      return answer.body.order;
    }

    /** The e-mails written while `run` runs, after every send has finished. */
    async function mailsDuring(run: () => Promise<unknown>): Promise<OutboxMail[]> {
      await shop.app.services.mailer.idle();
      const before = new Set((await readOutbox(outbox)).map((mail) => mail.file));
      await run();
      await shop.app.services.mailer.idle();
      return (await readOutbox(outbox)).filter((mail) => !before.has(mail.file));
    }

    beforeAll(async () => {
      outbox = mkdtempSync(join(tmpdir(), 'harbour-readback-outbox-'));
      shop = await createTestShop(kind, {
        products: 10,
        env: { MAIL_OUTBOX_DIR: outbox, PAYMENT_DECLINE_RATE: '1', SHOP_EMAIL, PUBLIC_URL },
      });
      productIds = (await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id)).map(
        (row) => row.id,
      );
      const email = `readback.admin.${kind}@example.com`;
      await shop.app.services.accounts.ensureAdmin(email, ADMIN_PASSWORD);
      const signedIn = await call<{ token: string }>('POST', '/api/auth/login', {
        body: { email, password: ADMIN_PASSWORD },
      });
      expect(signedIn.status, signedIn.text).toBe(200);
      adminToken = signedIn.body.token;
    });
    afterAll(async () => {
      await shop?.app.services.mailer.idle();
      await shop?.close();
      if (outbox) rmSync(outbox, { recursive: true, force: true });
    });

    it('a declined renewal e-mails the amount, the card and the retry date; after the last retry the lapsed e-mail, all in Sydney dates', async () => {
      const account = await register('lapses');
      const joined = await call<{ paymentMethod: { id: number } }>('POST', '/api/membership', {
        token: account.token,
        body: { plan: 'premium', password: PASSWORD, confirmPassword: PASSWORD, cardData: CARD },
      });
      expect(joined.status, joined.text).toBe(201);
      // The saved card now declines (the simulated gateway declines a saved method ending 0002).
      await shop.database.db
        .update(paymentMethods)
        .set({ last4Digits: '0002' })
        .where(eq(paymentMethods.id, joined.body.paymentMethod.id));
      // Due at 01:00 on 28 December 2026 in Sydney, still the 27th in UTC: the e-mails must say the 28th.
      const renewsOn = new Date('2026-12-27T14:00:00Z');
      await shop.database.db
        .update(memberships)
        .set({ periodStartedAt: new Date('2026-11-27T14:00:00Z'), renewsOn })
        .where(eq(memberships.userId, account.user.id));
      const billing = shop.app.services.membershipBilling;
      const due = renewsOn.getTime() + 60_000;
      const mine = (mails: OutboxMail[]) => mails.filter((mail) => mail.to.includes(account.email));

      const first = mine(await mailsDuring(() => billing.runOnce(new Date(due))));
      expect(first.map((mail) => mail.subject)).toEqual(['Harbour Tools: we could not renew your Premium membership']);
      const declined = bothParts(first[0]);
      for (const part of declined.parts) {
        expect(part).toContain('We could not renew your membership');
        expect(part).toContain(
          'Your Premium membership renewal of $19.99 to your Visa ending 0002 was declined on 28 December 2026.',
        );
        expect(part).toContain('We will try again on 29 December 2026; your benefits stay meanwhile.');
        expect(part).toContain('To use another card, add it on the membership page before then.');
      }
      expect(declined.text).toContain(`Your membership: ${PUBLIC_URL}/membership`);
      expect(first[0]!.html).toContain(`href="${PUBLIC_URL}/membership"`);

      const second = mine(await mailsDuring(() => billing.runOnce(new Date(due + DAY_MS))));
      expect(second.map((mail) => mail.subject)).toEqual(['Harbour Tools: we could not renew your Premium membership']);
      for (const part of bothParts(second[0]).parts) {
        expect(part).toContain('was declined on 29 December 2026.');
        expect(part).toContain('We will try again on 30 December 2026');
      }

      const last = mine(await mailsDuring(() => billing.runOnce(new Date(due + 2 * DAY_MS))));
      expect(last.map((mail) => mail.subject)).toEqual(['Harbour Tools: your Premium membership has lapsed']);
      const lapsed = bothParts(last[0]);
      for (const part of lapsed.parts) {
        expect(part).toContain('Your membership has lapsed');
        expect(part).toContain('Hi Ann,');
        expect(part).toContain(
          'We tried 3 times to charge $19.99 for your Premium membership and each was declined, so it ended on 30 December 2026.',
        );
        expect(part).toContain('Nothing more will be charged. You can join again at any time on the membership page.');
      }
      expect(lapsed.text).toContain(`Join again: ${PUBLIC_URL}/membership`);
      expect(last[0]!.html).toContain(`href="${PUBLIC_URL}/membership"`);
      expect(last[0]!.html).toContain('>Join again</a>');
      // Nothing more afterwards: no further attempt, no second lapse.
      expect(mine(await mailsDuring(() => billing.runOnce(new Date(due + 3 * DAY_MS))))).toEqual([]);
    });

    it('a click & collect order: the receipt says where to collect and what to bring; the owner hears it is click & collect', async () => {
      const account = await register('collector');
      const drill = await fresh(8_900);
      let order: Order | undefined;
      const mails = await mailsDuring(async () => {
        order = await placeCollect(account, drill.id);
      });
      // $89.00 + GST $8.90, nothing for delivery.
      expect(order).toMatchObject({ subtotal: 89, taxAmount: 8.9, shippingCost: 0, total: 97.9 });
      expect(mails.map((mail) => mail.to).toSorted()).toEqual([account.email, SHOP_EMAIL].toSorted());
      const number = order!.orderNumber;
      const whereAndWhat = `Click & collect from our store at ${STORE}. We will e-mail you when it is ready to collect; bring your order number (${number}) and photo ID.`;

      const receipt = mails.find((mail) => mail.to === account.email);
      expect(receipt?.subject).toBe(`Harbour Tools order ${number} confirmed`);
      const shopper = bothParts(receipt);
      for (const part of shopper.parts) {
        expect(part).toContain(whereAndWhat);
        expect(part).toContain(`We will call ${ACCOUNT_PHONE} if we need to reach you.`);
        expect(part).toContain(`${drill.name} (${drill.sku})`);
        expect(part).toContain('$97.90 inc GST');
        expect(part).toContain('Delivery Click & collect, free');
        expect(part).toContain('Total $97.90');
        expect(part).toContain('Paid with Visa ending 4242.');
        // Nothing is on its way: it waits at the store.
        expect(part).not.toContain('on its way');
        expect(part).not.toContain('Delivering to');
      }
      // The raw HTML escapes the ampersand; a mail client shows "Click & collect".
      expect(receipt!.html).toContain('Click &amp; collect from our store at');

      const toOwner = mails.find((mail) => mail.to === SHOP_EMAIL);
      expect(toOwner?.subject).toBe(`New order ${number}: click & collect, $97.90`);
      const owner = bothParts(toOwner);
      for (const part of owner.parts) {
        expect(part).toContain(`New order ${number}`);
        expect(part).toContain(`${account.email} placed order ${number}`);
        expect(part).toContain('Paid with Visa ending 4242. Fulfilment: Click & collect.');
        expect(part).toContain('Delivery Click & collect, free');
        expect(part).toContain(whereAndWhat);
        expect(part).not.toContain('Fulfilment: Delivery');
      }
      expect(owner.text).toContain(`Open it in the back office: ${PUBLIC_URL}/admin/orders/${order!.id}`);
      expect(toOwner!.html).toContain(`href="${PUBLIC_URL}/admin/orders/${order!.id}"`);
    });

    it('the collect order’s tax invoice says where to collect and what to bring, and charges no delivery', async () => {
      const account = await register('invoice');
      const saw = await fresh(8_900);
      const order = await placeCollect(account, saw.id);
      const pdf = await call<null>('GET', `/api/orders/${order.id}/invoice.pdf`, { token: account.token });
      expect(pdf.status).toBe(200);
      expect(pdf.type).toContain('application/pdf');
      const text = await pdfText(pdf.raw);
      for (const field of [
        'Tax Invoice',
        `Invoice number ${order.orderNumber}`,
        `Date ${SYDNEY_DAY.format(new Date(order.createdAt))}`,
        'Click & collect',
        `From our store at ${STORE}. Bring your order number (${order.orderNumber}) and photo ID.`,
        `Customer ${account.email}`,
        `${saw.name} (${saw.sku}) 1 $89.00 $89.00`,
        'Subtotal (excl. GST) $89.00',
        'GST (10%) $8.90',
        'Shipping Click & collect, free',
        'Total (incl. GST) $97.90',
        'GST included in the total $8.90',
      ]) {
        expect(text, field).toContain(field);
      }
      expect(text).not.toContain('Ship to');
      expect(text).not.toContain('GST included in shipping');
    });

    it('an order ready 14 days and not collected: the cancellation e-mail with lines, totals and refund, and its adjustment note with its date', async () => {
      const account = await register('uncollected');
      const clamp = await fresh(3_000);
      const order = await placeCollect(account, clamp.id);
      expect(order.total).toBe(33);
      const readied = await call('POST', `/api/admin/orders/${order.id}/ready-to-collect`, { token: adminToken });
      expect(readied.status, readied.text).toBe(200);
      const [record] = await shop.database.db
        .select()
        .from(orderFulfilments)
        .where(eq(orderFulfilments.orderId, order.id));
      const readyAt = record!.readyAt!;
      const expiry = new Date(readyAt.getTime() + COLLECT_RULES.expireAfterDays * DAY_MS + 60_000);

      let outcome: { expired: number; failed: number } | undefined;
      const mails = await mailsDuring(async () => {
        outcome = await shop.app.services.fulfilment.runOnce(expiry);
      });
      expect(outcome).toMatchObject({ expired: 1, failed: 0 });
      const after = await call<Order>('GET', `/api/orders/${order.id}`, { token: account.token });
      expect(after.body).toMatchObject({ status: 'Cancelled', paymentStatus: 'Refunded', refundedAmount: 33 });
      const note = after.body.adjustmentNotes[0]!;
      const reason = `Not collected within ${COLLECT_RULES.expireAfterDays} days of being ready`;
      expect(note).toMatchObject({ amount: 33, reason, number: expect.stringMatching(/^AN-\d{6}$/) });
      const issued = SYDNEY_DAY.format(new Date(note.date));
      expect(issued).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}$/);

      const cancelled = mails.filter((mail) => mail.to === account.email && mail.subject.includes('cancelled'));
      expect(cancelled.map((mail) => mail.subject)).toEqual([
        `Your Harbour Tools order ${order.orderNumber} is cancelled: $33.00 refunded`,
      ]);
      const link = `${PUBLIC_URL}/orders/${order.id}/adjustment-notes/${note.number}.pdf`;
      const mail = bothParts(cancelled[0]);
      for (const part of mail.parts) {
        expect(part).toContain('Your order is cancelled');
        expect(part).toContain(`We have cancelled your order ${order.orderNumber}. Reason: ${reason}.`);
        expect(part).toContain(
          'We have refunded $33.00 to your Visa ending 4242. Banks usually show it within 3 to 5 business days.',
        );
        expect(part).toContain(
          `Adjustment note ${note.number}, issued ${issued}, records the refund and the GST adjusted against tax invoice ${order.orderNumber}.`,
        );
        expect(part).toContain('Goods (ex GST) $30.00');
        expect(part).toContain('GST on goods $3.00');
        expect(part).toContain('Total refunded $33.00');
        expect(part).toContain('GST adjusted $3.00');
        // A collect order had no delivery to refund.
        expect(part).not.toMatch(/Delivery \$/);
        expect(part).toContain(`Your order: ${PUBLIC_URL}/orders/${order.id}`);
      }
      expect(mail.text).toContain(`1 × ${clamp.name} (${clamp.sku}) $33.00 inc GST ($30.00 ex GST) $30.00 ex GST`);
      expect(mail.html).toContain(`${clamp.name} (${clamp.sku}) 1 $33.00 inc GST ($30.00 ex GST) $30.00 ex GST`);
      expect(mail.text).toContain(`Download adjustment note ${note.number}: ${link}`);
      expect(cancelled[0]!.html).toContain(`href="${link}"`);

      const pdf = await call<null>('GET', note.url, { token: account.token });
      expect(pdf.status).toBe(200);
      expect(pdf.type).toContain('application/pdf');
      const text = await pdfText(pdf.raw);
      const shopInfo = shop.app.services.shop;
      for (const field of [
        'Adjustment note',
        shopInfo.name,
        `ABN ${shopInfo.abn}`,
        `Adjustment note number ${note.number}`,
        // The date it was issued, as the invoice prints dates.
        `Date ${issued}`,
        `Original tax invoice ${order.orderNumber}`,
        `Invoice date ${SYDNEY_DAY.format(new Date(order.createdAt))}`,
        `Customer ${account.email}`,
        `Reason ${reason}`,
        `${clamp.name} (${clamp.sku}) 1 $30.00 $30.00`,
        'Goods refunded (excl. GST) $30.00',
        'GST on goods adjusted $3.00',
        'Total refunded (incl. GST) $33.00',
        'GST adjusted $3.00',
        'Refunded to Visa ending 4242',
        `This note reduces the GST on tax invoice ${order.orderNumber} by $3.00.`,
      ]) {
        expect(text, field).toContain(field);
      }
      expect(text).not.toContain('Delivery refunded');
      expect(text).not.toContain('The delivery charge is not refunded');
    });
  });
}
