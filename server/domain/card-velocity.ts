import { createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { paymentDeclines, shopSettings } from '../../db/schema.ts';
import { limitKeyOf } from './client-address.ts';
import type { CounterStore } from './counters.ts';
import { RateLimitedError } from './errors.ts';
import type { SecurityEvents } from './security-events.ts';

/**
 * Caps on declined card attempts per hour (issue 21, card testing): per account, per client
 * address and per card. A card is known only by an HMAC of its number under a key the shop
 * makes on first use and keeps in the database, so every process shares it and no table or
 * log holds a number.
 */
export const CARD_ATTEMPT_LIMITS = { perAccount: 5, perAddress: 10, perCard: 3, windowMs: 60 * 60_000 } as const;

export const CARD_ATTEMPTS_MESSAGE = 'Too many declined payment attempts. Please wait an hour and try again.';

const KEY_SETTING = 'card-fingerprint-key';

export interface CardAttempt {
  userId: number | null;
  address: string | null;
  /** The typed card number (digits), when one was typed; a saved method has none. */
  cardNumber?: string | null | undefined;
  purpose: 'order' | 'membership';
}

export interface CardVelocity {
  /**
   * Runs `charge` as one counted attempt: the attempt is counted against every cap before the
   * charge (so a burst cannot all get through), and given back when the charge is approved.
   * Throws 429 (RateLimitedError, Retry-After) when a cap is already reached; a decline is
   * recorded in `payment_declines` with the account, address and the card's fingerprint.
   */
  attempt<T>(attempt: CardAttempt, charge: () => Promise<T>, declined: (result: T) => boolean): Promise<T>;
  fingerprint(cardNumber: string): Promise<string>;
}

export function createCardVelocity({
  db,
  counters,
  securityEvents,
}: {
  db: Database;
  counters: CounterStore;
  securityEvents: SecurityEvents;
}): CardVelocity {
  let key: Promise<Buffer> | undefined;
  const readKey = async (): Promise<Buffer> => {
    await db
      .insert(shopSettings)
      .values({ key: KEY_SETTING, value: randomBytes(32).toString('base64') })
      .onConflictDoNothing();
    const [row] = await db
      .select({ value: shopSettings.value })
      .from(shopSettings)
      .where(eq(shopSettings.key, KEY_SETTING));
    return Buffer.from(String(row?.value), 'base64');
  };
  const fingerprint = async (cardNumber: string) => {
    key ??= readKey().catch((error: unknown) => {
      key = undefined;
      throw error;
    });
    return createHmac('sha256', await key)
      .update(cardNumber.replace(/\D/g, ''))
      .digest('base64url');
  };

  return {
    fingerprint,
    async attempt<T>(attempt: CardAttempt, charge: () => Promise<T>, declined: (result: T) => boolean): Promise<T> {
      const card = attempt.cardNumber ? await fingerprint(attempt.cardNumber) : null;
      const caps: { key: string; limit: number }[] = [];
      if (attempt.userId !== null)
        caps.push({ key: `card-declines:account:${attempt.userId}`, limit: CARD_ATTEMPT_LIMITS.perAccount });
      if (attempt.address)
        caps.push({
          key: `card-declines:address:${limitKeyOf(attempt.address)}`,
          limit: CARD_ATTEMPT_LIMITS.perAddress,
        });
      if (card) caps.push({ key: `card-declines:card:${card}`, limit: CARD_ATTEMPT_LIMITS.perCard });
      const counted = caps.map((cap) => cap.key);
      // Every cap is counted, and given back, in one round trip each way (a commit each, before
      // and after every charge). Over a cap: all are given back, so none holds the refused attempt.
      const giveBack = () => counters.decrementAll(counted);
      const counts = await counters.incrementAll(counted, CARD_ATTEMPT_LIMITS.windowMs);
      const over = caps.findIndex((cap, index) => (counts[index]?.count ?? 0) > cap.limit);
      if (over !== -1) {
        await giveBack();
        securityEvents.record({
          event: 'card-attempts-limited',
          userId: attempt.userId,
          address: attempt.address,
          details: { cap: caps[over]!.key.split(':')[1] ?? '', purpose: attempt.purpose },
        });
        throw new RateLimitedError(CARD_ATTEMPTS_MESSAGE, Math.ceil((counts[over]?.resetInMs ?? 0) / 1000));
      }
      let result: T;
      try {
        result = await charge();
      } catch (error) {
        // No answer from the gateway is not a decline: the attempt is not held against the shopper.
        await giveBack();
        throw error;
      }
      if (declined(result)) {
        await db.insert(paymentDeclines).values({
          userId: attempt.userId,
          address: attempt.address,
          cardFingerprint: card,
          purpose: attempt.purpose,
        });
        securityEvents.record({
          event: 'card-declined',
          userId: attempt.userId,
          address: attempt.address,
          details: { purpose: attempt.purpose },
        });
      } else {
        await giveBack();
      }
      return result;
    },
  };
}
