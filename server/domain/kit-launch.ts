import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { shopSettings } from '../../db/schema.ts';

/** The `shop_settings` key holding the demo launch date (an ISO timestamp string). */
export const KIT_LAUNCH_SETTING_KEY = 'kit_launch_date';

/** The spec's fixed countdown: the demo launches 30 days, 12 hours and 45 minutes after its first start. */
export const DEMO_KIT_COUNTDOWN_MS = ((30 * 24 + 12) * 60 + 45) * 60 * 1000;

export function demoKitLaunchDate(firstStart: Date): Date {
  return new Date(firstStart.getTime() + DEMO_KIT_COUNTDOWN_MS);
}

function parseStoredDate(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * The create-your-kit launch date: `KIT_LAUNCH_DATE` when configured; otherwise
 * the demo date, fixed once in `shop_settings` so restarts (and every app
 * process on one database) count down to the same moment.
 */
export async function resolveKitLaunchDate(
  db: Database,
  configured: string | undefined,
  now = new Date(),
): Promise<Date> {
  if (configured) return new Date(configured);
  const readStored = async () => {
    const [row] = await db
      .select({ value: shopSettings.value })
      .from(shopSettings)
      .where(eq(shopSettings.key, KIT_LAUNCH_SETTING_KEY));
    return row ? { value: parseStoredDate(row.value) } : undefined;
  };
  const stored = await readStored();
  if (stored?.value) return stored.value;
  const fresh = demoKitLaunchDate(now).toISOString();
  if (stored) {
    // The row exists but cannot be read as a date (edited by hand): start a fresh countdown.
    await db
      .update(shopSettings)
      .set({ value: fresh, updatedAt: now })
      .where(eq(shopSettings.key, KIT_LAUNCH_SETTING_KEY));
    return new Date(fresh);
  }
  // Two processes may start at once: the first insert wins and both read the winner back.
  await db.insert(shopSettings).values({ key: KIT_LAUNCH_SETTING_KEY, value: fresh }).onConflictDoNothing();
  const winner = await readStored();
  return winner?.value ?? new Date(fresh);
}

/** One app's view of the launch date, read from the database once and then kept. */
export function createKitLaunch(db: Database, configured: string | undefined) {
  let launchDate: Promise<Date> | undefined;
  return {
    launchDate(): Promise<Date> {
      launchDate ??= resolveKitLaunchDate(db, configured).catch((error: unknown) => {
        launchDate = undefined;
        throw error;
      });
      return launchDate;
    },
  };
}
