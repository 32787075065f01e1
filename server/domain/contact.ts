import type { ContactMessageCreated, ContactMessageInput } from '../../contracts/contact.ts';
import type { Database } from '../../db/client.ts';
import { contactMessages } from '../../db/schema.ts';
import { limitKeyOf } from './client-address.ts';
import type { CounterStore } from './counters.ts';
import { RateLimitedError } from './errors.ts';

/**
 * At most this many messages per client address per window (issue 21): counted in the shared
 * counter store, so the page form and the API share it across every app process. The typed
 * e-mail is not a key: anyone could type someone else's and shut them out.
 */
export const CONTACT_RATE_LIMIT = { limit: 5, windowMs: 15 * 60_000 } as const;

export const CONTACT_RATE_LIMITED_MESSAGE =
  'You have sent several messages in a short time. Please wait a few minutes before sending another.';

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
 * The contact form's service: counts the message against the sender's client address, then
 * stores it. The form page and `POST /api/contact` both call it with the address the server
 * trusts (TRUST_PROXY); past the limit it throws 429 with Retry-After and stores nothing.
 */
export function createContactService(db: Database, counters: CounterStore) {
  return {
    async send(input: ContactMessageInput, sender: { clientAddress: string }): Promise<ContactMessageCreated> {
      const { count, resetInMs } = await counters.increment(
        `contact:address:${limitKeyOf(sender.clientAddress)}`,
        CONTACT_RATE_LIMIT.windowMs,
      );
      if (count > CONTACT_RATE_LIMIT.limit) {
        throw new RateLimitedError(CONTACT_RATE_LIMITED_MESSAGE, Math.ceil(resetInMs / 1000));
      }
      return storeContactMessage(db, input);
    },
  };
}
