/**
 * Card-testing caps at checkout (issue 21 "Velocity limits on money"): `POST /api/orders` counts
 * declined card attempts against three hourly caps — 5 per account, 10 per client address, 3 per
 * card (known by a keyed fingerprint) — and answers 429 with Retry-After past any of them. An
 * approved order counts nothing; a decline is recorded in payment_declines with the account and
 * address, and the card number reaches neither that table nor the log.
 *
 * Run on PGlite (one connection: the caps must not wait on the order's own transaction) and on
 * PostgreSQL when one answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../contracts/account.ts';
import { ORDER_MESSAGES, passesLuhn } from '../../contracts/orders.ts';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { orders, paymentDeclines, products } from '../../db/schema.ts';
import { seedCatalogue } from '../../db/seed/seed-catalogue.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { CARD_ATTEMPT_LIMITS, CARD_ATTEMPTS_MESSAGE } from '../../server/domain/card-velocity.ts';
import { createScratchDatabase, isPostgresReachable } from '../helpers/postgres.ts';

const PASSWORD = 'Harbour-Velocity-Pass-42';
const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const APPROVE = '4242424242424242';
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
if (!postgresAvailable) console.warn('card velocity tests on PostgreSQL skipped: PostgreSQL is not reachable.');

for (const { kind, skip } of [
  { kind: 'pglite' as const, skip: false },
  { kind: 'postgres' as const, skip: !postgresAvailable },
]) {
  describe.skipIf(skip)(`declined card attempts at checkout are capped, on ${kind}`, () => {
    let app: FastifyInstance;
    let database: DatabaseHandle;
    let drop: (() => Promise<void>) | undefined;
    let outbox: string;
    let productId = 0;
    let sequence = 0;
    let cardSeed = 1000;
    const logLines: string[] = [];
    const usedCards = new Set<string>();

    const nextIp = () => {
      sequence += 1;
      return `10.77.${(sequence >> 8) & 255}.${sequence & 255}`;
    };
    const nextCard = () => {
      cardSeed += 1;
      return declinedCard(cardSeed);
    };

    async function register(tag: string): Promise<{ token: string; email: string; id: number }> {
      sequence += 1;
      const email = `${tag}.${sequence}.${kind}@example.com`;
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: nextIp(),
        payload: {
          firstName: 'Ann',
          lastName: 'Lee',
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
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json() as { token: string; user: User };
      return { token: body.token, email, id: body.user.id };
    }

    async function order(
      account: { token: string; email: string },
      cardNumber: string,
      options: { ip?: string; sessionId?: string } = {},
    ) {
      usedCards.add(cardNumber);
      sequence += 1;
      return app.inject({
        method: 'POST',
        url: '/api/orders',
        remoteAddress: options.ip ?? nextIp(),
        headers: { authorization: `Bearer ${account.token}` },
        payload: {
          sessionId: options.sessionId ?? `session_${Date.now()}_${sequence}`,
          userEmail: account.email,
          orderItems: [{ productId, quantity: 1 }],
          cardData: { Number: cardNumber, Expiry: EXPIRY, Cvc: '123', Name: 'Ann Lee' },
          shippingAddress: SHIPPING,
        },
      });
    }

    function expectLimited(response: Awaited<ReturnType<typeof order>>) {
      expect(response.statusCode, response.body).toBe(429);
      expect(response.json()).toEqual({ message: CARD_ATTEMPTS_MESSAGE });
      const retryAfter = Number(response.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(CARD_ATTEMPT_LIMITS.windowMs / 1000);
    }

    function expectDeclined(response: Awaited<ReturnType<typeof order>>) {
      expect(response.statusCode, response.body).toBe(402);
      expect(response.json()).toEqual({ message: ORDER_MESSAGES.declined });
    }

    beforeAll(async () => {
      outbox = mkdtempSync(join(tmpdir(), 'harbour-velocity-'));
      const scratch = kind === 'postgres' ? await createScratchDatabase() : undefined;
      drop = scratch?.drop;
      const config = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'trace',
        DATA_DIR: '/tmp/harbour-tests-unused',
        MAIL_OUTBOX_DIR: outbox,
        PAYMENT_DECLINE_RATE: '1',
        ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      });
      database = await openDatabase(
        config.database.kind === 'postgres' ? { ...config.database, maxConnections: 3 } : { kind: 'pglite' },
      );
      await database.migrate();
      await seedCatalogue(database.db, { products: 2, mediaDir: null });
      await database.db.update(products).set({ stockQuantity: 10_000, isActive: true });
      const [product] = await database.db.select({ id: products.id }).from(products).limit(1);
      productId = product?.id ?? 0;
      app = await buildApp({
        config,
        database,
        logger: { level: 'trace', stream: { write: (line: string) => logLines.push(line) } },
      });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
      await drop?.();
      if (outbox) rmSync(outbox, { recursive: true, force: true });
    });

    it(`refuses an account's ${CARD_ATTEMPT_LIMITS.perAccount + 1}th declined attempt within the hour, from any address`, async () => {
      const shopper = await register('per-account');
      for (let attempt = 0; attempt < CARD_ATTEMPT_LIMITS.perAccount; attempt += 1) {
        expectDeclined(await order(shopper, nextCard()));
      }
      const before = await database.db.$count(orders);
      expectLimited(await order(shopper, nextCard()));
      // Even the card that pays is refused now: the cap is on the account.
      expectLimited(await order(shopper, APPROVE));
      expect(await database.db.$count(orders)).toBe(before);
      // Another shopper is not affected.
      expectDeclined(await order(await register('per-account-other'), nextCard()));
    });

    it(`refuses an address's ${CARD_ATTEMPT_LIMITS.perAddress + 1}th declined attempt within the hour, across accounts`, async () => {
      const ip = '10.78.0.1';
      for (let attempt = 0; attempt < CARD_ATTEMPT_LIMITS.perAddress; attempt += 1) {
        expectDeclined(await order(await register(`per-address-${attempt}`), nextCard(), { ip }));
      }
      const fresh = await register('per-address-last');
      expectLimited(await order(fresh, nextCard(), { ip }));
      // The same shopper from another address is fine.
      expectDeclined(await order(fresh, nextCard()));
    });

    it(`refuses a card's ${CARD_ATTEMPT_LIMITS.perCard + 1}th declined attempt within the hour, across accounts and addresses`, async () => {
      const tested = nextCard();
      for (let attempt = 0; attempt < CARD_ATTEMPT_LIMITS.perCard; attempt += 1) {
        expectDeclined(await order(await register(`per-card-${attempt}`), tested));
      }
      const fresh = await register('per-card-last');
      expectLimited(await order(fresh, tested));
      // The same card typed with spaces is the same card.
      expectLimited(await order(fresh, tested.replace(/(\d{4})(?=\d)/g, '$1 ')));
      // Another card of the same shopper is fine.
      expectDeclined(await order(fresh, nextCard()));
    });

    it('counts no approved order, and a replayed order is the same order, charged once', async () => {
      const shopper = await register('approved');
      const ip = '10.78.0.2';
      for (let attempt = 0; attempt < CARD_ATTEMPT_LIMITS.perAddress + 2; attempt += 1) {
        expect((await order(shopper, APPROVE, { ip })).statusCode).toBe(201);
      }
      const sessionId = `session_replay_${Date.now()}`;
      const first = await order(shopper, APPROVE, { ip, sessionId });
      const again = await order(shopper, APPROVE, { ip, sessionId });
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(200);
      expect((again.json() as { order: { id: number } }).order.id).toBe(
        (first.json() as { order: { id: number } }).order.id,
      );
      // The account still has its whole allowance of declines.
      for (let attempt = 0; attempt < CARD_ATTEMPT_LIMITS.perAccount; attempt += 1) {
        expectDeclined(await order(shopper, nextCard()));
      }
      expectLimited(await order(shopper, nextCard()));
    });

    it('records each decline with the account and address, and no card number anywhere', async () => {
      const shopper = await register('recorded');
      const ip = '10.78.0.3';
      const number = nextCard();
      expectDeclined(await order(shopper, number, { ip }));
      const rows = await database.db.select().from(paymentDeclines).where(eq(paymentDeclines.userId, shopper.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ userId: shopper.id, address: ip, purpose: 'order' });
      expect(rows[0]?.cardFingerprint).toMatch(/^[A-Za-z0-9_-]{20,}$/);

      const dump = JSON.stringify(
        await database.db.execute(sql`select * from payment_declines`).then((result) => result),
      );
      const log = logLines.join('\n');
      expect(log).toContain('"event":"card-declined"');
      expect(log).toContain('"event":"card-attempts-limited"');
      for (const card of usedCards) {
        const digits = card.replace(/\D/g, '');
        for (const text of [dump, log]) {
          expect(text).not.toContain(digits);
          expect(text).not.toContain(digits.replace(/(\d{4})(?=\d)/g, '$1 '));
        }
      }
    });
  });
}
