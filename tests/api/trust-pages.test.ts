/**
 * Issue 21 as the shopper sees it on the server-rendered pages (the built storefront, a session
 * cookie, as a browser sends it):
 *   - /membership of a member shows the membership card's "Next charge" (amount, date, the card's
 *     last 4) and, after a renewal, the "Last charge" of that renewal
 *     (app/components/account/membership-billing.tsx);
 *   - an order fulfilled more than 30 days ago shows that the return window has passed and points
 *     faulty goods to Contact Support instead of the return form; one inside the window shows the
 *     return form (app/routes/order.tsx).
 * Time passes by moving dates in the database (the renewal job takes its clock from the test).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../contracts/account.ts';
import { MEMBERSHIP_PLANS } from '../../contracts/membership.ts';
import { formatDollars } from '../../contracts/money.ts';
import type { Order } from '../../contracts/orders.ts';
import { RETURN_WINDOW_DAYS } from '../../contracts/points.ts';
import { formatSydneyDay } from '../../contracts/sydney-dates.ts';
import { orders, products } from '../../db/schema.ts';
import { APPROVE_CARD } from '../../server/domain/payments.ts';
import { registerShopper } from '../helpers/shoppers.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

const built = existsSync(resolve(import.meta.dirname, '../../build/server/index.js'));
if (!built) console.warn('page tests of issue 21 skipped: no storefront build (run `npm run build` first).');

const PASSWORD = 'Harbour-Pages-Pass-42';
const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const DAY = 86_400_000;
const BASIC = MEMBERSHIP_PLANS.find((plan) => plan.id === 'basic')!.monthlyPriceCents;
const SHIPPING = {
  fullName: 'Page Shopper',
  addressLine1: '1 Page Street',
  city: 'Sydney',
  state: 'NSW',
  postalCode: '2000',
  country: 'Australia',
};

/** The return form's submit button (intent=return), whatever the order of its attributes. */
const RETURN_BUTTON = /<button(?=[^>]*\bname="intent")(?=[^>]*\bvalue="return")[^>]*>Request Return<\/button>/;

/** The membership card's dates, as membership-billing.tsx writes them. */
const longDate = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Australia/Sydney',
});

/** The text of some HTML: React's text separators and tags gone, entities decoded, spaces collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<!--.*?-->/gs, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The element with this data-testid (its first closing tag of the same name ends it: no nesting of the same tag inside). */
function partOf(html: string, testId: string, tag: string): string | null {
  const start = html.indexOf(`data-testid="${testId}"`);
  if (start < 0) return null;
  const open = html.lastIndexOf(`<${tag}`, start);
  const end = html.indexOf(`</${tag}>`, start);
  return end < 0 ? null : html.slice(open, end + tag.length + 3);
}

interface MembershipBody {
  plan: string;
  status: string;
  renewsOn: string;
  nextChargeCents: number | null;
  paymentMethod: { provider: string; last4Digits: string } | null;
  lastCharge: { kind: string; amountCents: number; chargedAt: string; last4: string | null } | null;
}

describe.skipIf(!built)('issue 21 on the server-rendered pages', () => {
  let shop: TestShop;
  let productId = 0;
  let sequence = 0;

  const nextIp = () => {
    sequence += 1;
    return `127.21.${(sequence >> 8) & 255}.${sequence & 255}`;
  };

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 3, storefront: true, env: { PAYMENT_DECLINE_RATE: '1' } });
    const [product] = await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id).limit(1);
    productId = product!.id;
    await shop.database.db
      .update(products)
      .set({ stockQuantity: 10_000, isActive: true, isRedemption: false })
      .where(eq(products.id, productId));
  });
  afterAll(async () => {
    await shop?.app.services.mailer.idle();
    await shop?.close();
  });

  async function api<T>(method: 'GET' | 'POST', url: string, token: string | null, payload?: unknown) {
    const response = await shop.app.inject({
      method,
      url,
      remoteAddress: nextIp(),
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: response.statusCode, body: response.json() as T, text: response.body };
  }

  async function register(tag: string): Promise<{ token: string; user: User; email: string }> {
    sequence += 1;
    const email = `pages.${tag}.${sequence}@example.com`;
    return registerShopper(shop.app, {
      email,
      password: PASSWORD,
      firstName: 'Page',
      lastName: 'Shopper',
      remoteAddress: nextIp(),
    });
  }

  /** A page as a signed-in browser asks for it: the session cookie and its hint. */
  async function page(url: string, token: string): Promise<string> {
    const response = await shop.app.inject({
      method: 'GET',
      url,
      remoteAddress: nextIp(),
      headers: { cookie: `harbour_session=${token}; harbour_signed_in=1`, accept: 'text/html' },
    });
    expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    return response.body;
  }

  describe('the membership card on /membership', () => {
    it('shows the next charge (amount, date, card) and, after a renewal, the last charge', async () => {
      const member = await register('member');
      const joined = await api<MembershipBody>('POST', '/api/membership', member.token, {
        plan: 'basic',
        password: PASSWORD,
        confirmPassword: PASSWORD,
        cardData: { Number: '4242 4242 4242 4242', Expiry: EXPIRY, Cvc: '123', Name: 'Page Shopper' },
      });
      expect(joined.status, joined.text).toBe(201);
      expect(joined.body).toMatchObject({ nextChargeCents: BASIC, paymentMethod: { last4Digits: '4242' } });
      const provider = joined.body.paymentMethod!.provider;
      const renewsOn = new Date(joined.body.renewsOn);

      const before = textOf(partOf(await page('/membership', member.token), 'membership-billing', 'dl') ?? '');
      expect(before).toContain(
        `Next charge ${formatDollars(BASIC / 100)} on ${longDate.format(renewsOn)} to your ${provider} ending 4242`,
      );
      // The join was the first charge.
      expect(before).toMatch(
        new RegExp(
          `Last charge ${formatDollars(BASIC / 100).replace('$', '\\$')} on [^(]+ \\(first month\\), card ending 4242`,
        ),
      );

      // The renewal job charges the saved card on the renewal date.
      const due = new Date(renewsOn.getTime() + 60_000);
      await shop.app.services.membershipBilling.runOnce(due);
      const renewed = await api<{ membership: MembershipBody }>('GET', '/api/membership', member.token);
      expect(renewed.body.membership).toMatchObject({
        status: 'active',
        lastCharge: { kind: 'renewal', amountCents: BASIC, last4: '4242' },
      });
      const nextRenewal = new Date(renewed.body.membership.renewsOn);
      expect(nextRenewal.getTime()).toBeGreaterThan(renewsOn.getTime());

      const after = textOf(partOf(await page('/membership', member.token), 'membership-billing', 'dl') ?? '');
      expect(after).toContain(
        `Last charge ${formatDollars(BASIC / 100)} on ${longDate.format(due)} (renewal), card ending 4242`,
      );
      expect(after).toContain(
        `Next charge ${formatDollars(BASIC / 100)} on ${longDate.format(nextRenewal)} to your ${provider} ending 4242`,
      );
      expect(after).not.toContain('first month');
    });
  });

  describe('the return window on the order page', () => {
    let shopper: { token: string; user: User; email: string };

    beforeAll(async () => {
      shopper = await register('returns');
    });

    async function fulfilledOrder(daysAgo: number): Promise<{ order: Order; fulfilledAt: Date }> {
      sequence += 1;
      const placed = await api<{ order: Order }>('POST', '/api/orders', shopper.token, {
        sessionId: `pages_return_${Date.now()}_${sequence}`,
        userEmail: shopper.email,
        orderItems: [{ productId, quantity: 1 }],
        cardData: { Number: APPROVE_CARD, Expiry: EXPIRY, Cvc: '123', Name: 'Page Shopper' },
        shippingAddress: SHIPPING,
      });
      expect(placed.status, placed.text).toBe(201);
      const order = await shop.app.services.orders.markSucceeded(placed.body.order.id);
      expect(order.status).toBe('Succeeded');
      await shop.database.db.execute(
        sql`update ${orders} set fulfilled_at = fulfilled_at - make_interval(days => ${daysAgo}) where id = ${order.id}`,
      );
      const [row] = await shop.database.db
        .select({ fulfilledAt: orders.fulfilledAt })
        .from(orders)
        .where(eq(orders.id, order.id));
      return { order, fulfilledAt: row!.fulfilledAt! };
    }

    it(`an order fulfilled more than ${RETURN_WINDOW_DAYS} days ago points to Contact Support instead of the return form`, async () => {
      const { order, fulfilledAt } = await fulfilledOrder(RETURN_WINDOW_DAYS + 1);
      const html = await page(`/orders/${order.id}`, shopper.token);
      const passed = partOf(html, 'return-window-passed', 'p');
      expect(passed, 'the return-window-passed text').not.toBeNull();
      const ended = formatSydneyDay(new Date(fulfilledAt.getTime() + RETURN_WINDOW_DAYS * DAY));
      expect(textOf(passed ?? '')).toBe(
        `Returns are accepted within ${RETURN_WINDOW_DAYS} days of delivery or collection; for this order that time ended on ${ended}. If something is faulty, use Contact Support and we will put it right: your consumer guarantee rights have no ${RETURN_WINDOW_DAYS}-day limit.`,
      );
      // Contact Support is there, with the order named; the return form is not.
      expect(html).toMatch(
        new RegExp(`<a[^>]+href="/contact\\?order=${encodeURIComponent(order.orderNumber)}"[^>]*>Contact Support</a>`),
      );
      expect(textOf(html)).not.toContain('Initiate Return');
      expect(html).not.toMatch(RETURN_BUTTON);
    });

    it('an order inside the window shows the return form and its last day, not the passed text', async () => {
      const { order, fulfilledAt } = await fulfilledOrder(RETURN_WINDOW_DAYS - 1);
      const html = await page(`/orders/${order.id}`, shopper.token);
      expect(html).not.toContain('data-testid="return-window-passed"');
      const text = textOf(html);
      expect(text).toContain('Initiate Return');
      expect(html).toMatch(RETURN_BUTTON);
      expect(text).toContain(
        `Returns are accepted until ${formatSydneyDay(new Date(fulfilledAt.getTime() + RETURN_WINDOW_DAYS * DAY))}.`,
      );
      expect(text).not.toContain('that time ended on');
    });
  });
});
