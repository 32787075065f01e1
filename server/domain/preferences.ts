import { eq } from 'drizzle-orm';
import type { Preferences } from '../../contracts/account.ts';
import type { Database } from '../../db/client.ts';
import { userPreferences } from '../../db/schema.ts';

/** What a shopper who never opened /preferences gets: order e-mails on, marketing off (opt-in). */
export const DEFAULT_PREFERENCES: Preferences = {
  marketingEmails: false,
  orderUpdateEmails: true,
  preferredContactMethod: 'email',
};

export async function getPreferences(db: Database, userId: number): Promise<Preferences> {
  const [row] = await db.select().from(userPreferences).where(eq(userPreferences.userId, userId));
  if (!row) return DEFAULT_PREFERENCES;
  return {
    marketingEmails: row.marketingEmails,
    orderUpdateEmails: row.orderUpdateEmails,
    preferredContactMethod: row.preferredContactMethod as Preferences['preferredContactMethod'],
  };
}

export async function savePreferences(db: Database, userId: number, input: Preferences): Promise<Preferences> {
  await db
    .insert(userPreferences)
    .values({ userId, ...input })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { ...input, updatedAt: new Date() } });
  return input;
}

/**
 * Whether a notice about an order may be e-mailed to this shopper (spec-decisions "Money"):
 * receipts, refunds, password changes and membership charges are records and always go, without
 * asking; the notices in between (shipped, ready to collect, the collect reminder, a return
 * rejected, review requests) ask here first, and go only while the shopper's "order-update
 * e-mails" preference is on (it is by default). An order without an account (deleted) has no
 * e-mail to send to; for it this answers true and the sender's missing address stops it.
 */
export async function mayEmailOrderNotice(db: Database, userId: number | null): Promise<boolean> {
  if (userId === null) return true;
  const preferences = await getPreferences(db, userId);
  return preferences.orderUpdateEmails;
}
