import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { SECOND_FACTOR_MESSAGES } from '../../contracts/second-factor.ts';
import type { Database } from '../../db/client.ts';
import { recoveryCodes, signInChallenges, users } from '../../db/schema.ts';
import type { CounterStore } from './counters.ts';
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  ValidationError,
} from './errors.ts';
import type { SecurityEvents } from './security-events.ts';
import { generateToken, hashToken } from './tokens.ts';

/**
 * A second factor for staff (issue 21): an authenticator app's six-digit codes (TOTP, RFC
 * 6238, SHA-1, 30-second steps, one step of clock drift either way) and ten one-use recovery
 * codes. Once on, every sign-in of that member of staff asks for a code after the password.
 */
export const SECOND_FACTOR_RULES = {
  periodSeconds: 30,
  digits: 6,
  /** Steps of clock drift accepted either side of now. */
  window: 1,
  recoveryCodes: 10,
  /** How long a sign-in waits for its code, and how many wrong codes it takes. */
  challengeMs: 5 * 60_000,
  challengeAttempts: 5,
  /**
   * Wrong codes per account, across challenges and the turn-off and new-codes forms: a new
   * challenge only needs the password again, so the challenge's own 5 would not bound guessing.
   */
  wrongCodesPerHour: 10,
} as const;

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `xxxxx-xxxxx` from an alphabet without look-alikes: 10 characters of 31, about 50 bits. */
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** What a person types, made comparable: case, spaces and dashes do not matter. */
function normaliseRecoveryCode(code: string): string {
  const bare = code.toLowerCase().replace(/[\s-]/g, '');
  return `${bare.slice(0, 5)}-${bare.slice(5)}`;
}

export interface SecondFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
}

export interface SecondFactorSetup {
  /** The base32 secret, for typing into an app by hand. */
  secret: string;
  /** The otpauth:// URI the QR code holds. */
  otpauthUrl: string;
  /** The QR code as an SVG document (no external service sees the secret). */
  qrSvg: string;
}

export function createSecondFactor({
  db,
  shopName,
  securityEvents,
  counters,
  endOtherSessions,
  now = Date.now,
}: {
  db: Database;
  shopName: string;
  securityEvents: SecurityEvents;
  counters: CounterStore;
  /** Ends every session of the account but `keep` (turning the second factor on or off). */
  endOtherSessions: (userId: number, keep: string | undefined) => Promise<void>;
  now?: () => number;
}) {
  const totpFor = (secret: string, email: string) =>
    new TOTP({
      issuer: shopName,
      label: email,
      algorithm: 'SHA1',
      digits: SECOND_FACTOR_RULES.digits,
      period: SECOND_FACTOR_RULES.periodSeconds,
      secret: Secret.fromBase32(secret),
    });

  async function setupOf(secret: string, email: string): Promise<SecondFactorSetup> {
    const otpauthUrl = totpFor(secret, email).toString();
    const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { secret, otpauthUrl, qrSvg };
  }

  async function staffRow(userId: number) {
    const [row] = await db.select().from(users).where(eq(users.id, userId));
    if (!row) throw new NotFoundError('Account not found');
    if (row.role !== 'admin') throw new ForbiddenError(SECOND_FACTOR_MESSAGES.staffOnly);
    return row;
  }

  /**
   * Accepts a six-digit code once: the step it belongs to must be later than the last one
   * accepted, written in the same statement, so a code seen over a shoulder cannot be replayed.
   */
  async function acceptTotp(userId: number, secret: string, email: string, code: string): Promise<boolean> {
    if (!/^\d{6}$/.test(code)) return false;
    const timestamp = now();
    const delta = totpFor(secret, email).validate({ token: code, timestamp, window: SECOND_FACTOR_RULES.window });
    if (delta === null) return false;
    const step = Math.floor(timestamp / 1000 / SECOND_FACTOR_RULES.periodSeconds) + delta;
    const taken = await db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    return taken.length === 1;
  }

  async function acceptRecoveryCode(userId: number, code: string): Promise<boolean> {
    const used = await db
      .update(recoveryCodes)
      .set({ usedAt: new Date(now()) })
      .where(
        and(
          eq(recoveryCodes.userId, userId),
          eq(recoveryCodes.codeHash, hashToken(normaliseRecoveryCode(code))),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    return used.length === 1;
  }

  /** A six-digit code or an unused recovery code of an account whose second factor is on. */
  async function acceptCode(row: { id: number; email: string; totpSecret: string | null }, code: string) {
    const typed = code.trim();
    if (!row.totpSecret) return false;
    if (/^\d{6}$/.test(typed.replace(/\s/g, ''))) {
      return acceptTotp(row.id, row.totpSecret, row.email, typed.replace(/\s/g, ''));
    }
    return acceptRecoveryCode(row.id, typed);
  }

  /**
   * Checks a code against the account's cap on wrong codes: the try is counted before the
   * check (a burst cannot outrun it) and taken back when the code is right. 429 past the cap.
   */
  async function checkCounted(
    row: { id: number; email: string; totpSecret: string | null },
    code: string,
    address: string | null,
  ): Promise<boolean> {
    const key = `second-factor-codes:${row.id}`;
    const tries = await counters.increment(key, 60 * 60_000);
    if (tries.count > SECOND_FACTOR_RULES.wrongCodesPerHour) {
      await counters.decrement(key);
      securityEvents.record({ event: 'second-factor-limited', userId: row.id, address });
      throw new RateLimitedError(SECOND_FACTOR_MESSAGES.tooManyCodes, Math.ceil(tries.resetInMs / 1000));
    }
    const right = await acceptCode(row, code);
    if (right) await counters.decrement(key);
    else securityEvents.record({ event: 'second-factor-failed', userId: row.id, address });
    return right;
  }

  async function replaceRecoveryCodes(userId: number): Promise<string[]> {
    const codes = Array.from({ length: SECOND_FACTOR_RULES.recoveryCodes }, newRecoveryCode);
    await db.transaction(async (tx) => {
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashToken(code) })));
    });
    return codes;
  }

  return {
    async status(userId: number): Promise<SecondFactorStatus> {
      const row = await staffRow(userId);
      const [left] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      return {
        enabled: row.totpEnabledAt !== null,
        recoveryCodesLeft: row.totpEnabledAt ? Number(left?.count ?? 0) : 0,
      };
    },

    /** Whether a sign-in of this account must give a code after its password. */
    async isRequired(userId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, userId), isNotNull(users.totpEnabledAt), isNotNull(users.totpSecret)));
      return row !== undefined;
    },

    /** A new secret to scan; not in force until `enable` sees a code from it. 409 when already on. */
    async beginSetup(userId: number): Promise<SecondFactorSetup> {
      const row = await staffRow(userId);
      if (row.totpEnabledAt) throw new ConflictError(SECOND_FACTOR_MESSAGES.alreadyOn);
      const secret = new Secret({ size: 20 }).base32;
      await db.update(users).set({ totpSecret: secret, totpLastStep: null }).where(eq(users.id, userId));
      return setupOf(secret, row.email);
    },

    /** The set-up begun and not yet turned on (the page shows its QR code again after a wrong code), or null. */
    async pendingSetup(userId: number): Promise<SecondFactorSetup | null> {
      const row = await staffRow(userId);
      return row.totpSecret && !row.totpEnabledAt ? setupOf(row.totpSecret, row.email) : null;
    },

    /**
     * Turns the second factor on with a code from the new secret; answers the recovery codes,
     * shown once. Every other session of the account ends (they signed in without a code).
     */
    async enable(
      userId: number,
      code: string,
      meta: { address?: string | null; sessionId?: string } = {},
    ): Promise<string[]> {
      const row = await staffRow(userId);
      if (row.totpEnabledAt) throw new ConflictError(SECOND_FACTOR_MESSAGES.alreadyOn);
      if (!row.totpSecret) throw new ConflictError(SECOND_FACTOR_MESSAGES.setupFirst);
      if (!(await acceptTotp(row.id, row.totpSecret, row.email, code.replace(/\s/g, '')))) {
        throw new ValidationError(SECOND_FACTOR_MESSAGES.wrongCode, { code: [SECOND_FACTOR_MESSAGES.wrongCode] });
      }
      await db
        .update(users)
        .set({ totpEnabledAt: new Date(now()) })
        .where(eq(users.id, userId));
      await endOtherSessions(userId, meta.sessionId);
      securityEvents.record({
        event: 'second-factor-changed',
        userId,
        address: meta.address ?? null,
        details: { on: true },
      });
      return replaceRecoveryCodes(userId);
    },

    /** Ten new recovery codes for the old ones, with a current code. */
    async renewRecoveryCodes(userId: number, code: string, meta: { address?: string | null } = {}): Promise<string[]> {
      const row = await staffRow(userId);
      if (!row.totpEnabledAt) throw new ConflictError(SECOND_FACTOR_MESSAGES.notOn);
      if (!(await checkCounted(row, code, meta.address ?? null))) {
        throw new ValidationError(SECOND_FACTOR_MESSAGES.wrongCode, { code: [SECOND_FACTOR_MESSAGES.wrongCode] });
      }
      return replaceRecoveryCodes(userId);
    },

    /** Turns it off with a current code or a recovery code. */
    async disable(
      userId: number,
      code: string,
      meta: { address?: string | null; sessionId?: string } = {},
    ): Promise<void> {
      const row = await staffRow(userId);
      if (!row.totpEnabledAt) throw new ConflictError(SECOND_FACTOR_MESSAGES.notOn);
      if (!(await checkCounted(row, code, meta.address ?? null))) {
        throw new ValidationError(SECOND_FACTOR_MESSAGES.wrongCode, { code: [SECOND_FACTOR_MESSAGES.wrongCode] });
      }
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null })
          .where(eq(users.id, userId));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      });
      await endOtherSessions(userId, meta.sessionId);
      securityEvents.record({
        event: 'second-factor-changed',
        userId,
        address: meta.address ?? null,
        details: { on: false },
      });
    },

    /** After a right password: the token a sign-in sends back with its code (5 minutes, 5 wrong codes). */
    async startChallenge(
      userId: number,
      userAgent: string | undefined,
    ): Promise<{ challenge: string; expiresAt: Date }> {
      const challenge = generateToken();
      const expiresAt = new Date(now() + SECOND_FACTOR_RULES.challengeMs);
      // Challenges that ended are swept as new ones start: the table holds only live sign-ins.
      await db.delete(signInChallenges).where(lt(signInChallenges.expiresAt, sql`now()`));
      await db
        .insert(signInChallenges)
        .values({ id: hashToken(challenge), userId, expiresAt, userAgent: userAgent?.slice(0, 300) ?? null });
      return { challenge, expiresAt };
    },

    /**
     * The account a challenge and its code prove, and the user agent it began with. The attempt
     * is counted before the code is checked; the sixth try, or one after 5 minutes, finds no
     * challenge (401: sign in again). A right code ends the challenge.
     */
    async completeChallenge(
      challenge: string,
      code: string,
      meta: { address?: string | null } = {},
    ): Promise<{ userId: number; userAgent: string | undefined }> {
      const id = hashToken(challenge);
      const [counted] = await db
        .update(signInChallenges)
        .set({ attempts: sql`${signInChallenges.attempts} + 1` })
        .where(
          and(
            eq(signInChallenges.id, id),
            gt(signInChallenges.expiresAt, new Date(now())),
            lt(signInChallenges.attempts, SECOND_FACTOR_RULES.challengeAttempts),
          ),
        )
        .returning();
      if (!counted) throw new DomainError(401, SECOND_FACTOR_MESSAGES.challengeOver);
      const [row] = await db.select().from(users).where(eq(users.id, counted.userId));
      if (!row?.totpEnabledAt || !(await checkCounted(row, code, meta.address ?? null))) {
        throw new ValidationError(SECOND_FACTOR_MESSAGES.wrongCode, { code: [SECOND_FACTOR_MESSAGES.wrongCode] });
      }
      await db.delete(signInChallenges).where(eq(signInChallenges.id, id));
      return { userId: counted.userId, userAgent: counted.userAgent ?? undefined };
    },
  };
}

export type SecondFactor = ReturnType<typeof createSecondFactor>;
