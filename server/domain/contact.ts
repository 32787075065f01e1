import type { ContactMessageCreated, ContactMessageInput } from '../../contracts/contact.ts';
import type { Database } from '../../db/client.ts';
import { contactMessages } from '../../db/schema.ts';
import { RateLimitedError } from './errors.ts';

/** At most this many messages per sender (e-mail address, and client address on the API) per window. */
export const CONTACT_RATE_LIMIT = { limit: 5, windowMs: 15 * 60_000 } as const;

export const CONTACT_RATE_LIMITED_MESSAGE =
  'You have sent several messages in a short time. Please wait a few minutes before sending another.';

export interface RateLimiter {
  /** Counts one event against every key, unless one of them is already at its limit. */
  take(keys: string[]): { allowed: true } | { allowed: false; retryAfterMs: number };
}

/**
 * A fixed-window counter kept in this process's memory. Good enough for one
 * app process; with several processes each keeps its own count (see docs/decisions.md).
 */
export function createFixedWindowLimiter(options: {
  limit: number;
  windowMs: number;
  now?: () => number;
  /** Above this many tracked keys, expired windows are dropped so memory stays bounded. */
  maxKeys?: number;
}): RateLimiter {
  const { limit, windowMs, now = Date.now, maxKeys = 10_000 } = options;
  const windows = new Map<string, { startedAt: number; count: number }>();

  function current(key: string, at: number) {
    const window = windows.get(key);
    return window && at - window.startedAt < windowMs ? window : undefined;
  }

  return {
    take(keys) {
      const at = now();
      for (const key of keys) {
        const window = current(key, at);
        if (window && window.count >= limit) {
          return { allowed: false, retryAfterMs: window.startedAt + windowMs - at };
        }
      }
      if (windows.size > maxKeys) {
        for (const [key, window] of windows) if (at - window.startedAt >= windowMs) windows.delete(key);
      }
      for (const key of keys) {
        const window = current(key, at);
        if (window) window.count += 1;
        else windows.set(key, { startedAt: at, count: 1 });
      }
      return { allowed: true };
    },
  };
}

/** Stores one contact message; the input has already passed `contactMessageSchema`. */
export async function storeContactMessage(db: Database, input: ContactMessageInput): Promise<ContactMessageCreated> {
  const [row] = await db
    .insert(contactMessages)
    .values({
      name: input.name,
      email: input.email,
      phone: input.phone ?? null,
      subject: input.subject,
      message: input.message,
      orderNumber: input.orderNumber ?? null,
    })
    .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
  if (!row) throw new Error('Inserting a contact message returned no row');
  return { id: row.id, createdAt: row.createdAt.toISOString() };
}

/**
 * The contact form's service: rate-limits per sender, then stores the message.
 * One instance per app, so the form page and `POST /api/contact` share the counts.
 */
export function createContactService(
  db: Database,
  limiter: RateLimiter = createFixedWindowLimiter(CONTACT_RATE_LIMIT),
) {
  return {
    async send(input: ContactMessageInput, sender: { clientAddress?: string } = {}): Promise<ContactMessageCreated> {
      const keys = [`email:${input.email.toLowerCase()}`];
      if (sender.clientAddress) keys.push(`client:${sender.clientAddress}`);
      const verdict = limiter.take(keys);
      if (!verdict.allowed) {
        throw new RateLimitedError(CONTACT_RATE_LIMITED_MESSAGE, Math.ceil(verdict.retryAfterMs / 1000));
      }
      return storeContactMessage(db, input);
    },
  };
}
