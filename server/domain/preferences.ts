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
