/**
 * The card fingerprint's key is one secret for every process (issue 21, "Velocity limits on
 * money": "the key one secret shared by every process, e.g. kept in the database on first
 * start"). Two apps built with `buildApp()` on ONE database start at the same moment, so both
 * may make the key; each keeps what the database holds (`shop_settings`). Declines of one card
 * split across both apps then count against the one per-card cap of 3 an hour: the 4th attempt,
 * on either app, is 429. Were the key made per process, each app would know the card by another
 * fingerprint and the card could be tried 3 times at each.
 *
 * On PostgreSQL: two pools on one scratch database, as two processes would have. On PGlite: two
 * apps on one handle (the handle is the caller's, and a second handle on one data directory is
 * refused by a lock, so this is as close to two processes as the embedded database comes).
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_MESSAGES, passesLuhn } from '../../contracts/orders.ts';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { paymentDeclines, products, shopSettings } from '../../db/schema.ts';
import { seedCatalogue } from '../../db/seed/seed-catalogue.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { CARD_ATTEMPT_LIMITS, CARD_ATTEMPTS_MESSAGE } from '../../server/domain/card-velocity.ts';
import { createScratchDatabase, isPostgresReachable } from '../helpers/postgres.ts';
import { registerShopper } from '../helpers/shoppers.ts';

const PASSWORD = 'Harbour-Shared-Key-Pass-42';
const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const SHIPPING = {
  fullName: 'Ann Lee',
  addressLine1: '14 Boundary Lane',
  city: 'Silverwater',
  state: 'NSW',
  postalCode: '2128',
  country: 'Australia',
};

/** A Luhn-valid 16-digit number that is neither test card: declined at PAYMENT_DECLINE_RATE 1. */
function declinedCard(seed: number): string {
  const body = `5105${String(seed).padStart(11, '0')}`;
  for (let check = 0; check <= 9; check += 1) if (passesLuhn(`${body}${check}`)) return `${body}${check}`;
  throw new Error('unreachable');
}

const postgresAvailable = await isPostgresReachable();
if (!postgresAvailable) {
  console.warn(
    'shared card fingerprint key on PostgreSQL skipped: PostgreSQL is not reachable (the PGlite run stays).',
  );
}

for (const { kind, skip } of [
  { kind: 'pglite' as const, skip: false },
  { kind: 'postgres' as const, skip: !postgresAvailable },
]) {
  describe.skipIf(skip)(`the card fingerprint key is shared by two apps on one ${kind} database`, () => {
    const apps: FastifyInstance[] = [];
    const handles: DatabaseHandle[] = [];
    let drop: (() => Promise<void>) | undefined;
    let productId = 0;
    let sequence = 0;
    let cardSeed = 4000;

    const nextIp = () => {
      sequence += 1;
      return `10.91.${(sequence >> 8) & 255}.${sequence & 255}`;
    };
    const nextCard = () => {
      cardSeed += 1;
      return declinedCard(cardSeed);
    };
    const db = () => handles[0]!.db;

    async function register(app: FastifyInstance, tag: string): Promise<{ token: string; email: string; id: number }> {
      sequence += 1;
      const email = `${tag}.${sequence}.${kind}@example.com`;
      const { token, user } = await registerShopper(app, { email, password: PASSWORD, remoteAddress: nextIp() });
      return { token, email, id: user.id };
    }

    /** One attempt with `cardNumber` on `app`, by a fresh account from a fresh address: only the per-card cap can refuse it. */
    async function attempt(app: FastifyInstance, cardNumber: string, tag: string) {
      const shopper = await register(app, tag);
      sequence += 1;
      return app.inject({
        method: 'POST',
        url: '/api/orders',
        remoteAddress: nextIp(),
        headers: { authorization: `Bearer ${shopper.token}` },
        payload: {
          sessionId: `session_shared_key_${Date.now()}_${sequence}`,
          userEmail: shopper.email,
          orderItems: [{ productId, quantity: 1 }],
          cardData: { Number: cardNumber, Expiry: EXPIRY, Cvc: '123', Name: 'Ann Lee' },
          shippingAddress: SHIPPING,
        },
      });
    }

    function expectDeclined(response: Awaited<ReturnType<typeof attempt>>) {
      expect(response.statusCode, response.body).toBe(402);
      expect(response.json()).toEqual({ message: ORDER_MESSAGES.declined });
    }

    function expectLimited(response: Awaited<ReturnType<typeof attempt>>) {
      expect(response.statusCode, response.body).toBe(429);
      expect(response.json()).toEqual({ message: CARD_ATTEMPTS_MESSAGE });
      const retryAfter = Number(response.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(CARD_ATTEMPT_LIMITS.windowMs / 1000);
    }

    beforeAll(async () => {
      const scratch = kind === 'postgres' ? await createScratchDatabase() : undefined;
      drop = scratch?.drop;
      const config = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: '/tmp/harbour-tests-unused',
        PAYMENT_DECLINE_RATE: '1',
        ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      });
      const open = () =>
        openDatabase(
          config.database.kind === 'postgres' ? { ...config.database, maxConnections: 3 } : { kind: 'pglite' },
        );
      const first = await open();
      handles.push(first);
      await first.migrate();
      await seedCatalogue(first.db, { products: 2, mediaDir: null });
      await first.db.update(products).set({ stockQuantity: 10_000, isActive: true });
      const [product] = await first.db.select({ id: products.id }).from(products).limit(1);
      productId = product?.id ?? 0;
      // PostgreSQL: a second pool, as a second process has. PGlite: the same handle.
      const second = kind === 'postgres' ? await open() : first;
      if (second !== first) handles.push(second);
      for (const database of [first, second]) {
        const app = await buildApp({ config, database, logger: false, backgroundJobs: false });
        await app.ready();
        apps.push(app);
      }
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      for (const handle of handles) await handle.close();
      await drop?.();
    });

    it('both apps know a card by one fingerprint, made once and kept in shop_settings', async () => {
      const [one, two] = apps as [FastifyInstance, FastifyInstance];
      const number = nextCard();
      // Both make the key at once, as two processes starting together would.
      const [a, b] = await Promise.all([
        one.services.cardVelocity.fingerprint(number),
        two.services.cardVelocity.fingerprint(number),
      ]);
      expect(a).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      expect(b).toBe(a);
      expect(await two.services.cardVelocity.fingerprint(number.replace(/(\d{4})(?=\d)/g, '$1 '))).toBe(a);
      const keys = await db().select().from(shopSettings).where(eq(shopSettings.key, 'card-fingerprint-key'));
      expect(keys).toHaveLength(1);
    });

    it(`declines of one card split across both apps hit the per-card cap: the ${CARD_ATTEMPT_LIMITS.perCard + 1}th attempt is 429 on either app`, async () => {
      const [one, two] = apps as [FastifyInstance, FastifyInstance];
      expect(CARD_ATTEMPT_LIMITS.perCard).toBe(3);
      const tested = nextCard();
      // Two attempts at the same moment, one on each app; then a third on the first.
      const [first, second] = await Promise.all([attempt(one, tested, 'split-a'), attempt(two, tested, 'split-b')]);
      expectDeclined(first);
      expectDeclined(second);
      expectDeclined(await attempt(one, tested, 'split-c'));
      // The 4th, on the app that has seen only one of the three: refused.
      expectLimited(await attempt(two, tested, 'split-d'));
      // And on the other one too.
      expectLimited(await attempt(one, tested, 'split-e'));

      // The three declines were recorded under one fingerprint.
      const fingerprint = await one.services.cardVelocity.fingerprint(tested);
      const rows = await db()
        .select({ card: paymentDeclines.cardFingerprint })
        .from(paymentDeclines)
        .where(eq(paymentDeclines.cardFingerprint, fingerprint));
      expect(rows).toHaveLength(CARD_ATTEMPT_LIMITS.perCard);

      // Another card is untouched on both apps.
      expectDeclined(await attempt(two, nextCard(), 'split-other'));
      expectDeclined(await attempt(one, nextCard(), 'split-other'));
    });

    it('the cap counts the same whichever app the first declines landed on', async () => {
      const [one, two] = apps as [FastifyInstance, FastifyInstance];
      const tested = nextCard();
      expectDeclined(await attempt(two, tested, 'order-a'));
      expectDeclined(await attempt(two, tested, 'order-b'));
      expectDeclined(await attempt(one, tested, 'order-c'));
      expectLimited(await attempt(one, tested, 'order-d'));
      expectLimited(await attempt(two, tested, 'order-e'));
    });
  });
}
