import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { LoginInput, ProfileUpdate, RegisterInput, User } from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES, type AccountSummary } from '../../contracts/account-fields.ts';
import type { Database } from '../../db/client.ts';
import {
  addresses,
  passwordResetTokens,
  pointsLedger,
  sessions as sessionRows,
  type UserRow,
  users,
  wishlistItems,
} from '../../db/schema.ts';
import { limitKeyOf } from './client-address.ts';
import type { CounterStore } from './counters.ts';
import type { CurrentPasswordChecks } from './current-password.ts';
import { formatEmailDateTime, renderEmail } from './email-layout.ts';
import { ConflictError, DomainError, NotFoundError, RateLimitedError, ValidationError } from './errors.ts';
import type { Mailer } from './mail.ts';
import { anonymiseOrdersOf } from './orders.ts';
import { hashPassword, isCommonPassword, verifyAgainstNothing, verifyPassword } from './passwords.ts';
import type { SecondFactor } from './second-factor.ts';
import { ignoreSecurityEvents, type SecurityEvents } from './security-events.ts';
import type { NewSession, SessionStore } from './sessions.ts';
import { accountKeyOf, createSignInBackOff } from './sign-in-backoff.ts';
import { generateToken, hashToken } from './tokens.ts';

const FIFTEEN_MINUTES = 15 * 60_000;

/**
 * Per client address, whichever path reaches the action (API route, page form in any letter
 * case, a direct call): counted here, in the service, so no spelling of a URL escapes them.
 * Generous enough for an office behind one address.
 */
export const ACCOUNT_DOOR_LIMITS = {
  signIn: { limit: 100, windowMs: FIFTEEN_MINUTES },
  register: { limit: 30, windowMs: FIFTEEN_MINUTES },
  forgotPassword: { limit: 10, windowMs: FIFTEEN_MINUTES },
  resetPassword: { limit: 10, windowMs: FIFTEEN_MINUTES },
} as const;

/** An account takes at most this many failed sign-ins an hour from all addresses together (then 429 until the hour ends). */
export const SIGN_IN_FAILURE_CAP = { limit: 50, windowMs: 60 * 60_000 } as const;

/** A session that signed in with Google this recently confirms a step of a Google-only account (no password to ask for). */
export const GOOGLE_CONFIRMATION_FRESH_MS = 10 * 60_000;

export const PASSWORD_RESET_LIFETIME_MS = 60 * 60_000;

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    name: `${row.firstName} ${row.lastName}`.trim(),
    phoneNumber: row.phone,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
  };
}

function refuseCommonPassword(password: string, field: string): void {
  if (isCommonPassword(password))
    throw new ValidationError(`Invalid field: ${field}`, { [field]: [ACCOUNT_MESSAGES.commonPassword] });
}

function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } })?.cause;
  return (error as { code?: string })?.code === '23505' || cause?.code === '23505';
}

/** Unused reset links of a user stop working: after a password change, a reset, or a newer request. */
async function clearResetTokens(db: Database, userId: number): Promise<void> {
  await db
    .delete(passwordResetTokens)
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}

export interface AdminAccountOutcome {
  created: boolean;
  /** True when the account became an admin now (its role was customer): every old session ended. */
  granted: boolean;
  /** True when anything changed (role, password or Google link): every old session ended. */
  changed: boolean;
  userId: number;
}

/**
 * Makes an admin account, or gives an existing account with that e-mail the admin role and
 * the new password (ADMIN_EMAIL / ADMIN_PASSWORD at start, or `npm run admin:create`). An
 * account someone registered before it was promoted must not stay theirs: when anything
 * changes, every session of the account ends, Google is unlinked and unused reset links die.
 * A start that changes nothing (already admin, same password, no Google) ends no session.
 */
export async function ensureAdminAccount(db: Database, email: string, password: string): Promise<AdminAccountOutcome> {
  const [existing] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  if (existing) {
    const unchanged =
      existing.role === 'admin' &&
      existing.googleSubject === null &&
      existing.passwordHash !== null &&
      (await verifyPassword(existing.passwordHash, password));
    if (unchanged) return { created: false, granted: false, changed: false, userId: existing.id };
    const passwordHash = await hashPassword(password);
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ role: 'admin', passwordHash, googleSubject: null, updatedAt: new Date() })
        .where(eq(users.id, existing.id));
      await tx.delete(sessionRows).where(eq(sessionRows.userId, existing.id));
      await tx
        .delete(passwordResetTokens)
        .where(and(eq(passwordResetTokens.userId, existing.id), isNull(passwordResetTokens.usedAt)));
    });
    return { created: false, granted: existing.role !== 'admin', changed: true, userId: existing.id };
  }
  const passwordHash = await hashPassword(password);
  const [created] = await db
    .insert(users)
    .values({ email: email.toLowerCase(), firstName: 'Shop', lastName: 'Admin', passwordHash, role: 'admin' })
    .returning({ id: users.id });
  return { created: true, granted: true, changed: true, userId: created?.id ?? 0 };
}

/**
 * The security event for an admin account made or changed (ADMIN_EMAIL at start, or
 * `npm run admin:create`): `admin-granted` when an account gains the role, `admin-changed`
 * when an existing admin's password or Google link was reset; nothing when nothing changed.
 * Neither has a client address: they come from the machine, which `via` names.
 */
export function recordAdminChange(
  events: SecurityEvents,
  outcome: AdminAccountOutcome,
  via: 'ADMIN_EMAIL' | 'admin:create',
): void {
  if (!outcome.changed) return;
  events.record({
    event: outcome.granted ? 'admin-granted' : 'admin-changed',
    userId: outcome.userId,
    details: { via, created: outcome.created },
  });
}

export interface SessionMeta {
  userAgent?: string | undefined;
  /** The client address as the server trusts it (`request.ip`, a page action's `clientAddress`): the per-address limits' key. */
  address?: string | null | undefined;
}

export interface SignedIn extends NewSession {
  user: User;
}

/** How a step was confirmed: the current password, or a fresh Google sign-in of a Google-only account. */
export type IdentityConfirmation = 'password' | 'google';

export interface AccountDeps {
  db: Database;
  sessions: SessionStore;
  counters: CounterStore;
  mailer: Mailer;
  shopName: string;
  /**
   * Where e-mailed links point: PUBLIC_URL, never the request's Host header (anyone can send
   * `Host: evil.example` and have a victim's reset token mailed as a link to their site).
   */
  linkOrigin: string;
  /** Confirmations with the current password (10 per account per 15 minutes). */
  currentPassword: CurrentPasswordChecks;
  securityEvents?: SecurityEvents;
  /**
   * Runs work after the caller has answered (forgot-password's token row and e-mail), so the
   * answer takes the same path for any e-mail. By default on the next turn of the event loop,
   * counted by `mailer.idle()`, errors logged; tests pass their own to see what runs when.
   */
  afterReply?: (work: () => Promise<void>) => void;
  /** Staff two-step sign-in: a right password of such an account gets a challenge, not a session. */
  secondFactor?: Pick<SecondFactor, 'isRequired' | 'startChallenge' | 'completeChallenge'>;
}

/** A right password of an account with two-step sign-in on: the code is still to come. */
export interface SecondFactorPending {
  secondFactorRequired: true;
  /** Sent back with the code (`completeSecondFactor`); lives 5 minutes and takes 5 wrong codes. */
  challenge: string;
  expiresAt: Date;
}

/** Registration, sign-in, password reset and the profile: the rules of spec §5/§7 and the security baseline. */
export function createAccounts({
  db,
  sessions,
  counters,
  mailer,
  shopName,
  linkOrigin,
  currentPassword,
  securityEvents = ignoreSecurityEvents,
  afterReply,
  secondFactor,
}: AccountDeps) {
  const backOff = createSignInBackOff(db);
  const later =
    afterReply ??
    ((work: () => Promise<void>) => {
      const done = new Promise<void>((resolve) => setImmediate(resolve)).then(work).catch((error: unknown) => {
        console.error('Work after an answer failed', error instanceof Error ? error.message : error);
      });
      mailer.track?.(done);
    });

  /** Who the account e-mails are from; links point at PUBLIC_URL. */
  const emailShop = { name: shopName, origin: linkOrigin };

  /**
   * Tells the owner their password was changed or reset, when, and what to do if it was not
   * them. Always sent, whatever their preferences (spec-decisions "Money"): it is how a
   * takeover is noticed.
   */
  function tellPasswordChanged(user: Pick<UserRow, 'email' | 'firstName'>, how: 'changed' | 'reset'): void {
    const when = formatEmailDateTime(new Date());
    void mailer.send(
      renderEmail(
        {
          to: user.email,
          kind: 'password-changed',
          subject: `Your ${shopName} password was changed`,
          heading: 'Your password was changed',
          paragraphs: [
            `Hi ${user.firstName},`,
            how === 'reset'
              ? `The password of your ${shopName} account was reset with an e-mailed link on ${when}. Every device that was signed in has been signed out.`
              : `The password of your ${shopName} account was changed on ${when}. Every other device that was signed in has been signed out.`,
            'If that was you, there is nothing more to do.',
          ],
          action: { label: 'Reset your password', url: `${linkOrigin}/forgot-password` },
          after: [
            'If it was not you, reset your password at once with the link above (it goes to this e-mail address), then reply to this e-mail so we can check your account and orders.',
          ],
        },
        emailShop,
      ),
    );
  }

  async function findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
    return row;
  }

  /** The account an e-mail names, for a security event: null when none has it. */
  async function userIdOf(email: string): Promise<number | null> {
    return (await findByEmail(email))?.id ?? null;
  }

  async function requireUser(userId: number): Promise<UserRow> {
    const [row] = await db.select().from(users).where(eq(users.id, userId));
    if (!row) throw new NotFoundError('Account not found');
    return row;
  }

  /** Counts one try at a door for the client address; 429 with Retry-After past its limit. */
  async function countAtDoor(door: keyof typeof ACCOUNT_DOOR_LIMITS, address: string): Promise<void> {
    const { limit, windowMs } = ACCOUNT_DOOR_LIMITS[door];
    const { count, resetInMs } = await counters.increment(`door:${door}:${limitKeyOf(address)}`, windowMs);
    if (count > limit) {
      securityEvents.record({ event: 'rate-limited', address, details: { door } });
      throw new RateLimitedError(ACCOUNT_MESSAGES.tooManyRequests, Math.ceil(resetInMs / 1000));
    }
  }

  async function startSessionFor(user: UserRow, meta: SessionMeta, provenBy: IdentityConfirmation) {
    const session = await sessions.create(user.id, meta.userAgent);
    if (provenBy !== 'password') {
      await db
        .update(sessionRows)
        .set({ provenBy })
        .where(eq(sessionRows.id, hashToken(session.token)));
    }
    return { ...session, user: toUser(user) };
  }

  /**
   * Confirms that whoever holds `sessionId` is the account's owner before a sensitive step
   * (change password, delete the account, join a membership). Resolves with how:
   * - an account with a password: `password` must be its current password, checked through
   *   `currentPassword` (10 per account per 15 minutes, then 429); wrong or missing → 400
   *   `Current password is incorrect` on the `currentPassword` field;
   * - an account made with Google (no password): the session must have signed in with Google
   *   within the last 10 minutes (whatever `password` says); otherwise 403 with the
   *   `confirmWithGoogle` text, never "incorrect": sign in with Google again, or set a password.
   */
  async function confirmIdentity(
    userId: number,
    sessionId: string,
    password: string | null,
    meta: SessionMeta = {},
  ): Promise<IdentityConfirmation> {
    const address = meta.address ?? null;
    const user = await requireUser(userId);
    if (user.passwordHash) {
      if (password && (await currentPassword.check(userId, password, { address })) === 'ok') return 'password';
      throw new ValidationError(ACCOUNT_MESSAGES.wrongCurrentPassword, {
        currentPassword: [ACCOUNT_MESSAGES.wrongCurrentPassword],
      });
    }
    const [session] = await db
      .select({ provenBy: sessionRows.provenBy, provenAt: sessionRows.provenAt })
      .from(sessionRows)
      .where(and(eq(sessionRows.id, sessionId), eq(sessionRows.userId, userId)));
    if (session?.provenBy === 'google' && Date.now() - session.provenAt.getTime() < GOOGLE_CONFIRMATION_FRESH_MS) {
      return 'google';
    }
    throw new DomainError(403, ACCOUNT_MESSAGES.confirmWithGoogle, {
      currentPassword: [ACCOUNT_MESSAGES.confirmWithGoogle],
    });
  }

  return {
    confirmIdentity,

    /** Creates the account, its first (default) address and a session. 409 when the e-mail is taken; 30 per address per 15 minutes. */
    async register(input: RegisterInput, meta: SessionMeta = {}): Promise<SignedIn> {
      await countAtDoor('register', meta.address ?? '');
      refuseCommonPassword(input.password, 'password');
      if (await findByEmail(input.email)) {
        throw new ConflictError(ACCOUNT_MESSAGES.duplicateEmail, { email: [ACCOUNT_MESSAGES.duplicateEmail] });
      }
      const passwordHash = await hashPassword(input.password);
      let user: UserRow;
      try {
        user = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(users)
            .values({
              email: input.email,
              firstName: input.firstName,
              lastName: input.lastName,
              phone: input.phoneNumber,
              passwordHash,
            })
            .returning();
          if (!created) throw new Error('Inserting a user returned no row');
          await tx.insert(addresses).values({
            userId: created.id,
            addressType: 'Home',
            fullName: `${input.firstName} ${input.lastName}`,
            addressLine1: input.address.addressLine1,
            addressLine2: input.address.addressLine2,
            city: input.address.city,
            state: input.address.state,
            postalCode: input.address.postalCode,
            country: input.address.country,
            phoneNumber: input.phoneNumber,
            isDefault: true,
          });
          return created;
        });
      } catch (error) {
        // Two registrations with one e-mail at once: the unique index decides, the loser gets the same 409.
        if (isUniqueViolation(error)) {
          throw new ConflictError(ACCOUNT_MESSAGES.duplicateEmail, { email: [ACCOUNT_MESSAGES.duplicateEmail] });
        }
        throw error;
      }
      const signedIn = await startSessionFor(user, meta, 'password');
      void mailer.send(
        renderEmail(
          {
            to: user.email,
            kind: 'welcome',
            subject: `Welcome to ${shopName}`,
            heading: `Welcome, ${user.firstName}`,
            paragraphs: [
              `Hi ${user.firstName},`,
              `Your ${shopName} account is ready. You can now check out faster, follow your orders and keep a wishlist.`,
            ],
            action: { label: 'Start shopping', url: linkOrigin },
          },
          emailShop,
        ),
      );
      return signedIn;
    },

    /**
     * Checks the e-mail and password. An unknown e-mail and a wrong password get the same
     * 401 and take the same time, and the same slow-down. In order, each 429 with Retry-After:
     * 100 sign-ins per address per 15 minutes; 50 failed sign-ins per account (known or not)
     * per hour from all addresses; then the (account, address) pair's back-off
     * (sign-in-backoff.ts). The try is counted as a failure before the password is checked
     * and taken back when it succeeds, so a burst of guesses cannot outrun the count.
     */
    async login(input: LoginInput, meta: SessionMeta = {}): Promise<SignedIn | SecondFactorPending> {
      const address = meta.address ?? '';
      await countAtDoor('signIn', address);
      const account = accountKeyOf(input.email);
      const failuresKey = `sign-in-failures:${account}`;
      const hour = await counters.increment(failuresKey, SIGN_IN_FAILURE_CAP.windowMs);
      if (hour.count > SIGN_IN_FAILURE_CAP.limit) {
        securityEvents.record({
          event: 'sign-in-limited',
          userId: await userIdOf(input.email),
          address,
          details: { failuresThisHour: hour.count - 1 },
        });
        throw new RateLimitedError(ACCOUNT_MESSAGES.tooManyAttempts, Math.ceil(hour.resetInMs / 1000));
      }
      const verdict = await backOff.attempt(account, address);
      if (!verdict.allowed) {
        await counters.decrement(failuresKey);
        securityEvents.record({
          event: 'sign-in-slowed',
          userId: await userIdOf(input.email),
          address,
          details: { retryAfterMs: verdict.retryAfterMs },
        });
        throw new RateLimitedError(ACCOUNT_MESSAGES.tooManyAttempts, Math.ceil(verdict.retryAfterMs / 1000));
      }
      const user = await findByEmail(input.email);
      const valid = user?.passwordHash
        ? await verifyPassword(user.passwordHash, input.password)
        : await verifyAgainstNothing(input.password);
      if (!user || !valid) {
        securityEvents.record({
          event: 'sign-in-failed',
          userId: user?.id ?? null,
          address,
          details: { failuresFromAddress: verdict.failures },
        });
        throw new DomainError(401, ACCOUNT_MESSAGES.invalidCredentials);
      }
      await Promise.all([backOff.succeeded(account, address), counters.decrement(failuresKey)]);
      if (secondFactor && (await secondFactor.isRequired(user.id))) {
        const pending = await secondFactor.startChallenge(user.id, meta.userAgent);
        return { secondFactorRequired: true, ...pending };
      }
      return startSessionFor(user, meta, 'password');
    },

    /**
     * The second step of a staff sign-in: the challenge from `login` and a code from the
     * authenticator (or a recovery code) start the session. 400 for a wrong code (the
     * challenge takes 5), 401 once the challenge is gone or spent.
     */
    async completeSecondFactor(challenge: string, code: string, meta: SessionMeta = {}): Promise<SignedIn> {
      if (!secondFactor) throw new DomainError(401, ACCOUNT_MESSAGES.signedOut);
      const proven = await secondFactor.completeChallenge(challenge, code, { address: meta.address ?? null });
      return startSessionFor(
        await requireUser(proven.userId),
        { ...meta, userAgent: meta.userAgent ?? proven.userAgent },
        'password',
      );
    },

    /**
     * Starts a session for a user proven by another means than this service's password check,
     * saying which: 'google' (a Google sign-in just vouched for them) makes the session's
     * confirmations of a Google-only account fresh for 10 minutes.
     */
    async startSession(userId: number, meta: SessionMeta, provenBy: IdentityConfirmation): Promise<SignedIn> {
      return startSessionFor(await requireUser(userId), meta, provenBy);
    },

    /**
     * The signed-in shopper came back from a fresh Google sign-in as the same account: the
     * session now counts as proven by Google (a Google-only account's confirmations, 10 minutes).
     */
    async proveSessionWithGoogle(userId: number, sessionId: string): Promise<boolean> {
      const proven = await db
        .update(sessionRows)
        .set({ provenBy: 'google', provenAt: new Date() })
        .where(and(eq(sessionRows.id, sessionId), eq(sessionRows.userId, userId)))
        .returning({ id: sessionRows.id });
      sessions.forgetUser(userId);
      return proven.length === 1;
    },

    /** Whether the account has a password and a linked Google account (what the settings page offers). */
    async signInMethods(userId: number): Promise<{ password: boolean; google: boolean }> {
      const user = await requireUser(userId);
      return { password: user.passwordHash !== null, google: user.googleSubject !== null };
    },

    /**
     * E-mails a single-use reset link valid for an hour when the account exists (earlier unused
     * links stop working); 10 per address per 15 minutes. The lookup, the token row and the
     * e-mail run after the caller answers (`afterReply`): the awaited part is the same for any
     * e-mail, so neither the answer nor its timing tells whether an account exists.
     */
    async requestPasswordReset(email: string, meta: SessionMeta = {}): Promise<void> {
      const address = meta.address ?? '';
      await countAtDoor('forgotPassword', address);
      later(async () => {
        const user = await findByEmail(email);
        securityEvents.record({ event: 'password-reset-requested', userId: user?.id ?? null, address });
        if (!user) return;
        const token = generateToken();
        await db.transaction(async (tx) => {
          await tx
            .delete(passwordResetTokens)
            .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
          await tx.insert(passwordResetTokens).values({
            id: hashToken(token),
            userId: user.id,
            expiresAt: new Date(Date.now() + PASSWORD_RESET_LIFETIME_MS),
          });
        });
        const link = `${linkOrigin}/reset-password?token=${encodeURIComponent(token)}`;
        await mailer.send(
          renderEmail(
            {
              to: user.email,
              kind: 'password-reset',
              subject: `Reset your ${shopName} password`,
              heading: 'Reset your password',
              paragraphs: [
                `Hi ${user.firstName},`,
                `Someone (we hope you) asked to reset the password of your ${shopName} account.`,
                'Open this link within the next hour to choose a new one:',
              ],
              action: { label: 'Choose a new password', url: link },
              after: ['If you did not ask for this, ignore this e-mail: your password stays as it is.'],
            },
            emailShop,
          ),
        );
      });
    },

    /**
     * Sets a new password with a reset token (once); 10 tries per address per 15 minutes. The
     * token is looked up before anything costly: an unknown, used or expired one is refused at
     * once, without hashing (the hash is the expensive part). Then the token is consumed in the
     * same transaction that sets the password, every other unused link of the account dies,
     * every session ends and the account's sign-in slow-down starts again.
     */
    async resetPassword(token: string, newPassword: string, meta: SessionMeta = {}): Promise<void> {
      const address = meta.address ?? '';
      await countAtDoor('resetPassword', address);
      const invalid = () =>
        new ValidationError(ACCOUNT_MESSAGES.resetLinkInvalid, { token: [ACCOUNT_MESSAGES.resetLinkInvalid] });
      const id = hashToken(token);
      const live = and(
        eq(passwordResetTokens.id, id),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, sql`now()`),
      );
      const [found] = await db.select({ userId: passwordResetTokens.userId }).from(passwordResetTokens).where(live);
      if (!found) throw invalid();
      refuseCommonPassword(newPassword, 'newPassword');
      const passwordHash = await hashPassword(newPassword);
      const userId = await db.transaction(async (tx) => {
        const [used] = await tx
          .update(passwordResetTokens)
          .set({ usedAt: new Date() })
          .where(live)
          .returning({ userId: passwordResetTokens.userId });
        if (!used) return undefined;
        await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, used.userId));
        await tx
          .delete(passwordResetTokens)
          .where(and(eq(passwordResetTokens.userId, used.userId), isNull(passwordResetTokens.usedAt)));
        return used.userId;
      });
      // Two tries with one token at once: the first consumed it.
      if (userId === undefined) throw invalid();
      await sessions.revokeUser(userId);
      const user = await requireUser(userId);
      const account = accountKeyOf(user.email);
      await Promise.all([counters.reset(`sign-in-failures:${account}`), backOff.clearAccount(account)]);
      securityEvents.record({ event: 'password-reset', userId, address });
      tellPasswordChanged(user, 'reset');
    },

    async getProfile(userId: number): Promise<User> {
      return toUser(await requireUser(userId));
    },

    async updateProfile(userId: number, input: ProfileUpdate): Promise<User> {
      const [row] = await db
        .update(users)
        .set({ firstName: input.firstName, lastName: input.lastName, phone: input.phoneNumber, updatedAt: new Date() })
        .where(eq(users.id, userId))
        .returning();
      if (!row) throw new NotFoundError('Account not found');
      sessions.forgetUser(userId);
      return toUser(row);
    },

    /**
     * Confirms the shopper (`confirmIdentity`: the current password, or for a Google-only
     * account a fresh Google sign-in, which is how such an account sets its first password
     * here), sets the new password, kills unused reset links and ends every other session.
     */
    async changePassword(
      userId: number,
      currentSessionId: string,
      input: { currentPassword: string | null; newPassword: string },
      meta: SessionMeta = {},
    ): Promise<void> {
      const confirmedAgainst = await requireUser(userId);
      await confirmIdentity(userId, currentSessionId, input.currentPassword, meta);
      refuseCommonPassword(input.newPassword, 'newPassword');
      const passwordHash = await hashPassword(input.newPassword);
      // Written only if nothing moved during the slow hash: the password, role and Google link
      // are as confirmed and the asking session still lives. A Google link or a promotion that
      // landed meanwhile ended this session; it must not get its password back.
      const changed = await db
        .update(users)
        .set({ passwordHash, updatedAt: new Date() })
        .where(
          and(
            eq(users.id, userId),
            sql`${users.passwordHash} is not distinct from ${confirmedAgainst.passwordHash}`,
            sql`${users.googleSubject} is not distinct from ${confirmedAgainst.googleSubject}`,
            eq(users.role, confirmedAgainst.role),
            sql`exists (select 1 from ${sessionRows} where ${sessionRows.id} = ${currentSessionId})`,
          ),
        )
        .returning({ id: users.id });
      if (changed.length === 0) throw new DomainError(401, ACCOUNT_MESSAGES.signedOut);
      await clearResetTokens(db, userId);
      await sessions.revokeUser(userId, currentSessionId);
      securityEvents.record({ event: 'password-changed', userId, address: meta.address ?? null });
      tellPasswordChanged(confirmedAgainst, 'changed');
    },

    /**
     * Deletes the account with its sessions, addresses, payment methods, preferences and
     * wishlist (foreign keys cascade), once `confirmIdentity` passes for `confirmation`.
     * Orders stay for the shop's records, without the person: no account link, e-mail or address.
     */
    async deleteAccount(
      userId: number,
      confirmation: { sessionId: string; password: string | null },
      meta: SessionMeta = {},
    ): Promise<void> {
      await confirmIdentity(userId, confirmation.sessionId, confirmation.password, meta);
      sessions.forgetUser(userId);
      await db.transaction(async (tx) => {
        await anonymiseOrdersOf(tx, userId);
        await tx.delete(users).where(eq(users.id, userId));
      });
    },

    /** Makes (or updates) an admin account from ADMIN_EMAIL / ADMIN_PASSWORD; see `ensureAdminAccount`. */
    async ensureAdmin(email: string, password: string): Promise<AdminAccountOutcome> {
      const outcome = await ensureAdminAccount(db, email, password);
      if (outcome.changed) sessions.forgetUser(outcome.userId);
      recordAdminChange(securityEvents, outcome, 'ADMIN_EMAIL');
      return outcome;
    },

    /**
     * The account for a Google sign-in: the one linked to that Google account, else the one
     * with the same (Google-verified) e-mail, which gets linked, else a new one. Linking proves
     * who owns the e-mail, so whoever registered it before loses it: the password is removed
     * (the owner may set one with a reset link), every session ends, unused reset links die,
     * and the owner is told by e-mail. Staff accounts are never linked this way (403): they
     * sign in with their password.
     */
    async findOrCreateGoogleUser(
      claims: {
        sub: string;
        email: string;
        emailVerified: boolean;
        givenName: string;
        familyName: string;
      },
      meta: SessionMeta = {},
    ): Promise<number> {
      const [linked] = await db
        .select({ id: users.id, role: users.role })
        .from(users)
        .where(eq(users.googleSubject, claims.sub));
      // Staff sign in with their password (and second factor), whatever Google account was
      // linked before staff were kept off Google.
      if (linked?.role === 'admin') throw new DomainError(403, ACCOUNT_MESSAGES.staffSignInWithPassword);
      if (linked) return linked.id;
      if (!claims.emailVerified) {
        throw new DomainError(
          400,
          'Your Google account’s e-mail is not verified, so it cannot be used to sign in here.',
        );
      }
      const existing = await findByEmail(claims.email);
      if (existing) {
        if (existing.role === 'admin') throw new DomainError(403, ACCOUNT_MESSAGES.staffSignInWithPassword);
        const hadPassword = existing.passwordHash !== null;
        await db.transaction(async (tx) => {
          await tx
            .update(users)
            .set({ googleSubject: claims.sub, passwordHash: null, updatedAt: new Date() })
            .where(eq(users.id, existing.id));
          await tx
            .delete(passwordResetTokens)
            .where(and(eq(passwordResetTokens.userId, existing.id), isNull(passwordResetTokens.usedAt)));
        });
        await sessions.revokeUser(existing.id);
        securityEvents.record({
          event: 'google-linked',
          userId: existing.id,
          address: meta.address ?? null,
          details: { passwordRemoved: hadPassword },
        });
        if (hadPassword) {
          void mailer.send(
            renderEmail(
              {
                to: existing.email,
                kind: 'google-linked',
                subject: `You signed in to ${shopName} with Google`,
                heading: 'You signed in with Google',
                paragraphs: [
                  `Hi ${existing.firstName},`,
                  `You signed in with Google; your password was removed, and every device that was signed in to your ${shopName} account has been signed out.`,
                  `From now on, use "Continue with Google", or set a password with a reset link: ${linkOrigin}/forgot-password`,
                ],
                action: { label: 'Set a password', url: `${linkOrigin}/forgot-password` },
                after: ['If this was not you, contact us at once.'],
              },
              emailShop,
            ),
          );
        }
        return existing.id;
      }
      const [created] = await db
        .insert(users)
        .values({
          email: claims.email.toLowerCase(),
          firstName: claims.givenName || claims.email.split('@')[0] || 'Shopper',
          lastName: claims.familyName,
          googleSubject: claims.sub,
        })
        .returning({ id: users.id });
      if (!created) throw new Error('Inserting a user returned no row');
      return created.id;
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;

/**
 * What every page's frame shows of a signed-in shopper (`AccountSummary`): the names and role
 * the session already loaded, and the wishlist ids (oldest first, as `listWishlistIds`) and
 * points balance (the ledger's sum, as `pointsBalance`) in one round trip: a page view from
 * the shared cache asks for this once, and on PGlite each statement costs ~0.4 ms.
 */
export async function readAccountSummary(
  db: Database,
  user: Pick<User, 'id' | 'firstName' | 'name' | 'role'>,
): Promise<AccountSummary> {
  // The user's id goes in as a parameter, not as `users.id`: drizzle writes a one-table query's
  // columns unqualified, and inside the ledger's subquery an `"id"` would be the ledger's own.
  const wishlist = sql<
    number[] | null
  >`(select array_agg(${wishlistItems.productId} order by ${wishlistItems.createdAt}, ${wishlistItems.productId}) from ${wishlistItems} where ${wishlistItems.userId} = ${user.id})`;
  const points = sql<number>`(select coalesce(sum(${pointsLedger.points}), 0)::int from ${pointsLedger} where ${pointsLedger.userId} = ${user.id} and ${pointsLedger.availableAt} <= now())`;
  const [row] = await db.select({ wishlist, points }).from(users).where(eq(users.id, user.id));
  return {
    id: user.id,
    firstName: user.firstName,
    name: user.name,
    role: user.role,
    wishlist: (row?.wishlist ?? []).map(Number),
    points: Number(row?.points ?? 0),
  };
}
