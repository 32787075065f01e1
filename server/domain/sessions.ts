import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared-statement.ts';
import { sessions, type UserRow, users } from '../../db/schema.ts';
import { generateToken, hashToken } from './tokens.ts';

/** Sessions last 30 days from the last use, extended at most once a day (one write a day per session). */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_REFRESH_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Staff sessions (issue 21): at most 12 hours from sign-in, and over after 30 minutes without
 * a request; the last request is written at most once a minute, so idleness is known to
 * within a minute at one write a minute per busy member of staff.
 */
export const STAFF_SESSION_LIMITS = {
  lifetimeMs: 12 * 60 * 60 * 1000,
  idleMs: 30 * 60 * 1000,
  touchAfterMs: 60 * 1000,
} as const;

export interface NewSession {
  /** Given to the client once (cookie or `{ token }`); only its hash is stored. */
  token: string;
  expiresAt: Date;
}

export interface ValidSession {
  id: string;
  userId: number;
  expiresAt: Date;
  /** True when this request extended the session: the cookie should be sent again with the new expiry. */
  refreshed: boolean;
  user: UserRow;
}

/** A new session for the user: 30 days for a shopper, 12 hours for staff. */
export async function createSession(db: Database, userId: number, userAgent: string | undefined): Promise<NewSession> {
  const [user] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId));
  if (!user) throw new Error(`No user ${userId} to start a session for`);
  const token = generateToken();
  const expiresAt = new Date(
    Date.now() + (user.role === 'admin' ? STAFF_SESSION_LIMITS.lifetimeMs : SESSION_LIFETIME_MS),
  );
  await db
    .insert(sessions)
    .values({ id: hashToken(token), userId, expiresAt, userAgent: userAgent?.slice(0, 300) ?? null });
  return { token, expiresAt };
}

/** Why a live session is over by the staff rules, or null: 12 hours since sign-in, 30 minutes idle. */
export function staffSessionEnded(
  session: { createdAt: Date; lastSeenAt: Date },
  now: number,
): 'lifetime' | 'idle' | null {
  if (now - session.createdAt.getTime() >= STAFF_SESSION_LIMITS.lifetimeMs) return 'lifetime';
  if (now - session.lastSeenAt.getTime() >= STAFF_SESSION_LIMITS.idleMs) return 'idle';
  return null;
}

/** The session a token belongs to, with its user; null for an unknown, revoked or expired token. */
export async function validateSession(db: Database, token: string): Promise<ValidSession | null> {
  if (token.length < 20 || token.length > 200) return null;
  const id = hashToken(token);
  // Every signed-in request asks this: prepared once (db/prepared-statement.ts).
  const [row] = await preparedStatement(db, 'session_by_id', (on) =>
    on
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.id, sql.placeholder('id')))
      .prepare('session_by_id'),
  ).execute({ id });
  if (!row) return null;
  const now = Date.now();
  const staff = row.user.role === 'admin';
  if (row.session.expiresAt.getTime() <= now || (staff && staffSessionEnded(row.session, now))) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  if (staff) {
    // Staff sessions keep their 12-hour end; only the last request is written, for the idle rule.
    if (now - row.session.lastSeenAt.getTime() >= STAFF_SESSION_LIMITS.touchAfterMs) {
      await db
        .update(sessions)
        .set({ lastSeenAt: new Date(now) })
        .where(eq(sessions.id, id));
    }
    return { id, userId: row.user.id, expiresAt: row.session.expiresAt, refreshed: false, user: row.user };
  }
  if (now - row.session.lastSeenAt.getTime() >= SESSION_REFRESH_AFTER_MS) {
    const expiresAt = new Date(now + SESSION_LIFETIME_MS);
    await db
      .update(sessions)
      .set({ expiresAt, lastSeenAt: new Date(now) })
      .where(eq(sessions.id, id));
    return { id, userId: row.user.id, expiresAt, refreshed: true, user: row.user };
  }
  return { id, userId: row.user.id, expiresAt: row.session.expiresAt, refreshed: false, user: row.user };
}

/** Ends one session (logout). */
export async function revokeSession(db: Database, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of a user, or every one but `exceptSessionId` (after a password change). */
export async function revokeUserSessions(db: Database, userId: number, exceptSessionId?: string): Promise<void> {
  await db
    .delete(sessions)
    .where(
      exceptSessionId
        ? and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId))
        : eq(sessions.userId, userId),
    );
}

/** Drops sessions that ended long ago; called now and then so the table does not grow forever. */
export async function deleteExpiredSessions(db: Database): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`));
}

/**
 * Sessions with a short in-process memory: a validated session (with its user) is reused
 * for `ttlMs`, so an authenticated request costs no query. Every change this process makes
 * to a session or a user forgets the user's entries at once; another process sharing the
 * database sees a revocation within `ttlMs` (SESSION_CACHE_SECONDS, 0 turns it off).
 */
export function createSessionStore(db: Database, options: { ttlMs: number; maxEntries?: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  const remembered = new Map<string, { session: ValidSession; until: number }>();

  const forgetUser = (userId: number) => {
    for (const [id, entry] of remembered) if (entry.session.userId === userId) remembered.delete(id);
  };

  return {
    create: (userId: number, userAgent: string | undefined) => createSession(db, userId, userAgent),

    async validate(token: string): Promise<ValidSession | null> {
      const id = hashToken(token);
      const hit = remembered.get(id);
      const time = now();
      if (hit && hit.until > time && hit.session.expiresAt.getTime() > time)
        return { ...hit.session, refreshed: false };
      remembered.delete(id);
      const session = await validateSession(db, token);
      if (session && options.ttlMs > 0) {
        remembered.set(id, { session, until: time + options.ttlMs });
        if (remembered.size > maxEntries) remembered.delete(remembered.keys().next().value ?? '');
      }
      return session;
    },

    async revoke(sessionId: string): Promise<void> {
      remembered.delete(sessionId);
      await revokeSession(db, sessionId);
    },

    /** Ends every session of a user, or all but one (after a password change). */
    async revokeUser(userId: number, exceptSessionId?: string): Promise<void> {
      forgetUser(userId);
      await revokeUserSessions(db, userId, exceptSessionId);
    },

    /** Drops what this process remembers of a user whose details changed. */
    forgetUser,
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
