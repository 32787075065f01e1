import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { signInThrottle } from '../../db/schema.ts';
import { limitKeyOf } from './client-address.ts';
import { hashToken } from './tokens.ts';

/**
 * The sign-in slow-down of issue 21, instead of a lock anyone could set off: for one account
 * from one address, the first 5 failures cost nothing; after that each try must wait twice as
 * long as the last wait (1 s, 2 s, 4 s … at most 15 minutes). A pair's failures are forgotten
 * 24 hours after the last of them, or at once when a sign-in succeeds.
 */
export const SIGN_IN_BACKOFF = {
  freeFailures: 5,
  firstWaitMs: 1000,
  maxWaitMs: 15 * 60_000,
  forgetAfterMs: 24 * 60 * 60_000,
} as const;

/** The wait before the next try after `failures` failures of one pair: 0 for the free ones, then doubling to the cap. */
export function waitAfterFailures(failures: number): number {
  const { freeFailures, firstWaitMs, maxWaitMs } = SIGN_IN_BACKOFF;
  if (!Number.isFinite(failures) || failures < freeFailures) return 0;
  // 2^20 s is far past the cap: the exponent stops there so the arithmetic never overflows.
  const exponent = Math.min(Math.floor(failures) - freeFailures, 20);
  return Math.min(firstWaitMs * 2 ** exponent, maxWaitMs);
}

/** What the store keeps for an account: its e-mail's SHA-256, known account or not. */
export const accountKeyOf = (email: string) => hashToken(`sign-in:${email.trim().toLowerCase()}`);

export type BackOffVerdict = { allowed: true; failures: number } | { allowed: false; retryAfterMs: number };

/**
 * The slow-down's state in PostgreSQL (one row per account and address), shared by every app
 * process. `attempt` counts the try as a failure before the password is checked, in one
 * statement that also refuses it while the pair's wait runs: a burst of concurrent guesses
 * cannot all slip through between a read and a write.
 */
export function createSignInBackOff(db: Database) {
  const keyOf = (account: string, address: string) => hashToken(`${account}\n${limitKeyOf(address)}`);
  const { freeFailures, firstWaitMs, maxWaitMs, forgetAfterMs } = SIGN_IN_BACKOFF;
  const forget = sql`now() + ${`${forgetAfterMs} milliseconds`}::interval`;
  /** waitAfterFailures in SQL, for the count the row takes in this statement. */
  const notBeforeFor = (failures: ReturnType<typeof sql>) =>
    sql`case when ${failures} < ${freeFailures} then null else now() + least(${firstWaitMs}::double precision * power(2, least(${failures} - ${freeFailures}, 20)), ${maxWaitMs}::double precision) * interval '1 millisecond' end`;
  const table = signInThrottle;
  const expired = sql`${table.expiresAt} <= now()`;
  const next = sql`(case when ${expired} then 1 else ${table.failures} + 1 end)`;

  let attemptsSinceSweep = 0;

  return {
    async attempt(account: string, address: string): Promise<BackOffVerdict> {
      const key = keyOf(account, address);
      // Pairs nobody tried for a day are swept now and then, so the table stays the size of a day's failures.
      attemptsSinceSweep += 1;
      if (attemptsSinceSweep >= 500) {
        attemptsSinceSweep = 0;
        await db.delete(table).where(sql`${table.expiresAt} < now()`);
      }
      const [row] = await db
        .insert(table)
        .values({ key, account, failures: 1, notBefore: notBeforeFor(sql`1`) as never, expiresAt: forget as never })
        .onConflictDoUpdate({
          target: table.key,
          set: { failures: next, notBefore: notBeforeFor(next), expiresAt: forget },
          // Refused while the wait runs: then the row is left as it is and nothing comes back.
          setWhere: sql`${expired} or ${table.notBefore} is null or ${table.notBefore} <= now()`,
        })
        .returning({ failures: table.failures });
      if (row) return { allowed: true, failures: Number(row.failures) };
      const [waiting] = await db
        .select({
          ms: sql<number>`greatest(0, ceil(extract(epoch from (${table.notBefore} - now())) * 1000))::int`,
        })
        .from(table)
        .where(eq(table.key, key));
      return { allowed: false, retryAfterMs: Math.max(1, Number(waiting?.ms ?? firstWaitMs)) };
    },

    /** A sign-in succeeded: the pair starts again from nothing. */
    async succeeded(account: string, address: string): Promise<void> {
      await db.delete(table).where(eq(table.key, keyOf(account, address)));
    },

    /** The owner proved the e-mail (a password reset): every address starts again for the account. */
    async clearAccount(account: string): Promise<void> {
      await db.delete(table).where(eq(table.account, account));
    },
  };
}

export type SignInBackOff = ReturnType<typeof createSignInBackOff>;
