import { eq } from 'drizzle-orm';
import { ACCOUNT_MESSAGES } from '../../contracts/account-fields.ts';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import type { CounterStore } from './counters.ts';
import { NotFoundError, RateLimitedError } from './errors.ts';
import { verifyPassword } from './passwords.ts';
import type { SecurityEvents } from './security-events.ts';

/**
 * Confirmations with the current password (change password, delete account, join a
 * membership) are a password oracle for whoever holds a session: 10 checks per account per
 * 15 minutes, counted before the slow check so a burst cannot all get through.
 */
export const CURRENT_PASSWORD_LIMIT = { limit: 10, windowMs: 15 * 60_000 } as const;

export type CurrentPasswordVerdict = 'ok' | 'wrong' | 'no-password';

export interface CurrentPasswordChecks {
  /**
   * 'ok', 'wrong', or 'no-password' for an account made with Google that has none (the caller
   * asks it to confirm another way). Throws 429 (RateLimitedError) past the limit.
   */
  check(userId: number, password: string, meta?: { address?: string | null }): Promise<CurrentPasswordVerdict>;
}

export function createCurrentPasswordChecks({
  db,
  counters,
  securityEvents,
}: {
  db: Database;
  counters: CounterStore;
  securityEvents: SecurityEvents;
}): CurrentPasswordChecks {
  return {
    async check(userId, password, meta = {}) {
      const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
      if (!user) throw new NotFoundError('Account not found');
      if (!user.passwordHash) return 'no-password';
      const attempts = await counters.increment(`password-check:${userId}`, CURRENT_PASSWORD_LIMIT.windowMs);
      if (attempts.count > CURRENT_PASSWORD_LIMIT.limit) {
        securityEvents.record({ event: 'password-check-limited', userId, address: meta.address ?? null });
        throw new RateLimitedError(ACCOUNT_MESSAGES.tooManyPasswordChecks, Math.ceil(attempts.resetInMs / 1000));
      }
      if (await verifyPassword(user.passwordHash, password)) return 'ok';
      securityEvents.record({ event: 'password-check-failed', userId, address: meta.address ?? null });
      return 'wrong';
    },
  };
}
