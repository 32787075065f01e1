import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { LoginInput, ProfileUpdate, RegisterInput, User } from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES, type AccountSummary } from '../../contracts/account-fields.ts';
import type { Database } from '../../db/client.ts';
import { addresses, passwordResetTokens, pointsLedger, type UserRow, users, wishlistItems } from '../../db/schema.ts';
import type { CounterStore } from './counters.ts';
import { ConflictError, DomainError, NotFoundError, RateLimitedError, ValidationError } from './errors.ts';
import type { Mailer } from './mail.ts';
import { anonymiseOrdersOf } from './orders.ts';
import { hashPassword, isCommonPassword, verifyAgainstNothing, verifyPassword } from './passwords.ts';
import type { NewSession, SessionStore } from './sessions.ts';
import { generateToken, hashToken } from './tokens.ts';

/** After this many failed sign-ins for one account within the window, its sign-ins answer 429. */
export const LOGIN_FAILURE_LIMIT = { limit: 10, windowMs: 15 * 60_000 } as const;
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

const failureKey = (email: string) => `login-failures:${email.toLowerCase()}`;

/**
 * Makes an admin account, or gives an existing account with that e-mail the admin role and
 * the new password (ADMIN_EMAIL / ADMIN_PASSWORD at start, or `npm run admin:create`).
 */
export async function ensureAdminAccount(db: Database, email: string, password: string): Promise<{ created: boolean }> {
  const passwordHash = await hashPassword(password);
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  if (existing) {
    await db.update(users).set({ role: 'admin', passwordHash, updatedAt: new Date() }).where(eq(users.id, existing.id));
    return { created: false };
  }
  await db
    .insert(users)
    .values({ email: email.toLowerCase(), firstName: 'Shop', lastName: 'Admin', passwordHash, role: 'admin' });
  return { created: true };
}

export interface SessionMeta {
  userAgent?: string | undefined;
}

export interface SignedIn extends NewSession {
  user: User;
}

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
}

/** Registration, sign-in, password reset and the profile: the rules of spec §5/§7 and the security baseline. */
export function createAccounts({ db, sessions, counters, mailer, shopName, linkOrigin }: AccountDeps) {
  async function findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
    return row;
  }

  async function requireUser(userId: number): Promise<UserRow> {
    const [row] = await db.select().from(users).where(eq(users.id, userId));
    if (!row) throw new NotFoundError('Account not found');
    return row;
  }

  return {
    /** Creates the account, its first (default) address and a session. 409 when the e-mail is taken. */
    async register(input: RegisterInput, meta: SessionMeta = {}): Promise<SignedIn> {
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
      const session = await sessions.create(user.id, meta.userAgent);
      void mailer.send({
        to: user.email,
        kind: 'welcome',
        subject: `Welcome to ${shopName}`,
        text: `Hi ${user.firstName},\n\nYour ${shopName} account is ready. You can now check out faster, follow your orders and keep a wishlist.\n\n${shopName}`,
      });
      return { ...session, user: toUser(user) };
    },

    /**
     * Checks the e-mail and password. An unknown e-mail and a wrong password get the same
     * 401 and take the same time; after 10 failures in 15 minutes the account's sign-ins
     * answer 429 until the window ends (other accounts are unaffected).
     */
    async login(input: LoginInput, meta: SessionMeta = {}): Promise<SignedIn> {
      const failures = await counters.peek(failureKey(input.email));
      if (failures.count >= LOGIN_FAILURE_LIMIT.limit) {
        throw new RateLimitedError(ACCOUNT_MESSAGES.tooManyAttempts, Math.ceil(failures.resetInMs / 1000));
      }
      const user = await findByEmail(input.email);
      const valid = user?.passwordHash
        ? await verifyPassword(user.passwordHash, input.password)
        : await verifyAgainstNothing(input.password);
      if (!user || !valid) {
        await counters.increment(failureKey(input.email), LOGIN_FAILURE_LIMIT.windowMs);
        throw new DomainError(401, ACCOUNT_MESSAGES.invalidCredentials);
      }
      if (failures.count > 0) await counters.reset(failureKey(input.email));
      const session = await sessions.create(user.id, meta.userAgent);
      return { ...session, user: toUser(user) };
    },

    /** Starts a session for a user already proven by another means (Google sign-in). */
    async startSession(userId: number, meta: SessionMeta = {}): Promise<SignedIn> {
      const user = await requireUser(userId);
      const session = await sessions.create(user.id, meta.userAgent);
      return { ...session, user: toUser(user) };
    },

    /**
     * E-mails a single-use reset link valid for an hour when the account exists; answers the
     * same either way (the caller always says 202), and does not wait for the e-mail.
     */
    async requestPasswordReset(email: string): Promise<void> {
      const user = await findByEmail(email);
      if (!user) return;
      const token = generateToken();
      await db.insert(passwordResetTokens).values({
        id: hashToken(token),
        userId: user.id,
        expiresAt: new Date(Date.now() + PASSWORD_RESET_LIFETIME_MS),
      });
      const link = `${linkOrigin}/reset-password?token=${encodeURIComponent(token)}`;
      void mailer.send({
        to: user.email,
        kind: 'password-reset',
        subject: `Reset your ${shopName} password`,
        text: `Hi ${user.firstName},\n\nSomeone (we hope you) asked to reset the password of your ${shopName} account.\nOpen this link within the next hour to choose a new one:\n\n${link}\n\nIf you did not ask for this, ignore this e-mail: your password stays as it is.\n\n${shopName}`,
      });
    },

    /** Sets a new password with a reset token (once), ends every session and lifts a sign-in lock. */
    async resetPassword(token: string, newPassword: string): Promise<void> {
      refuseCommonPassword(newPassword, 'newPassword');
      const passwordHash = await hashPassword(newPassword);
      const userId = await db.transaction(async (tx) => {
        const [used] = await tx
          .update(passwordResetTokens)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(passwordResetTokens.id, hashToken(token)),
              isNull(passwordResetTokens.usedAt),
              gt(passwordResetTokens.expiresAt, sql`now()`),
            ),
          )
          .returning({ userId: passwordResetTokens.userId });
        if (!used) return undefined;
        await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, used.userId));
        return used.userId;
      });
      if (userId === undefined) {
        throw new ValidationError(ACCOUNT_MESSAGES.resetLinkInvalid, { token: [ACCOUNT_MESSAGES.resetLinkInvalid] });
      }
      await sessions.revokeUser(userId);
      const user = await requireUser(userId);
      await counters.reset(failureKey(user.email));
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

    /** Checks the current password, sets the new one and ends every other session of the user. */
    async changePassword(
      userId: number,
      currentSessionId: string,
      input: { currentPassword: string; newPassword: string },
    ): Promise<void> {
      const user = await requireUser(userId);
      if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
        throw new ValidationError(ACCOUNT_MESSAGES.wrongCurrentPassword, {
          currentPassword: [ACCOUNT_MESSAGES.wrongCurrentPassword],
        });
      }
      refuseCommonPassword(input.newPassword, 'newPassword');
      const passwordHash = await hashPassword(input.newPassword);
      await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
      await sessions.revokeUser(userId, currentSessionId);
    },

    /**
     * Deletes the account with its sessions, addresses, payment methods, preferences and
     * wishlist (foreign keys cascade). Orders stay for the shop's records, without the person:
     * no account link, e-mail or address.
     */
    async deleteAccount(userId: number): Promise<void> {
      sessions.forgetUser(userId);
      await db.transaction(async (tx) => {
        await anonymiseOrdersOf(tx, userId);
        await tx.delete(users).where(eq(users.id, userId));
      });
    },

    /** Makes (or updates) an admin account from ADMIN_EMAIL / ADMIN_PASSWORD. */
    ensureAdmin: (email: string, password: string) => ensureAdminAccount(db, email, password),

    /**
     * The account for a Google sign-in: the one linked to that Google account, else the one
     * with the same (Google-verified) e-mail, which gets linked, else a new one.
     */
    async findOrCreateGoogleUser(claims: {
      sub: string;
      email: string;
      emailVerified: boolean;
      givenName: string;
      familyName: string;
    }): Promise<number> {
      const [linked] = await db.select({ id: users.id }).from(users).where(eq(users.googleSubject, claims.sub));
      if (linked) return linked.id;
      if (!claims.emailVerified) {
        throw new DomainError(
          400,
          'Your Google account’s e-mail is not verified, so it cannot be used to sign in here.',
        );
      }
      const existing = await findByEmail(claims.email);
      if (existing) {
        await db
          .update(users)
          .set({ googleSubject: claims.sub, updatedAt: new Date() })
          .where(eq(users.id, existing.id));
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
