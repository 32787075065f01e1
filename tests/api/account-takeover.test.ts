import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { User } from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES } from '../../contracts/account-fields.ts';
import { emailOutbox, passwordResetTokens, sessions, users } from '../../db/schema.ts';
import { buildApp } from '../../server/app.ts';
import { createAccounts, ensureAdminAccount } from '../../server/domain/accounts.ts';
import { createDatabaseCounterStore } from '../../server/domain/counters.ts';
import * as passwords from '../../server/domain/passwords.ts';
import type { SecurityEvent } from '../../server/domain/security-events.ts';
import { generateToken, hashToken } from '../../server/domain/tokens.ts';
import { readOutbox } from '../helpers/outbox.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/*
 * Issue 21: accounts that cannot be pre-taken (promotion to admin, Google sign-in onto a
 * password account), confirmations for accounts without a password, reset links that die
 * when they should, forgot-password's work after the answer, and the security events.
 */

// Counts the costly hashes while keeping the real ones.
vi.mock('../../server/domain/passwords.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../server/domain/passwords.ts')>();
  return { ...actual, hashPassword: vi.fn(actual.hashPassword) };
});

const PASSWORD = 'Harbour-Takeover-Pass-42';
const ADMIN_PASSWORD = 'Harbour-Admin-Takeover-2026';

let sequence = 0;
const uniqueEmail = (tag: string) => {
  sequence += 1;
  return `${tag}.${sequence}@example.com`;
};
const nextAddress = () => {
  sequence += 1;
  return `127.2.${(sequence >> 8) & 255}.${sequence & 255}`;
};

describe('accounts that cannot be pre-taken, and confirmations', () => {
  let shop: TestShop;
  let outbox: string;
  beforeAll(async () => {
    outbox = mkdtempSync(join(tmpdir(), 'harbour-takeover-outbox-'));
    shop = await createTestShop('pglite', { products: 1, env: { MAIL_OUTBOX_DIR: outbox } });
  });
  afterAll(async () => {
    await shop?.app.services.mailer.idle();
    await shop?.close();
    if (outbox) rmSync(outbox, { recursive: true, force: true });
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, body?: Record<string, unknown>) =>
    shop.app.inject({
      method,
      url,
      remoteAddress: nextAddress(),
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(body === undefined ? {} : { payload: body }),
    });

  async function register(email = uniqueEmail('shopper'), password = PASSWORD) {
    const answer = await call('POST', '/api/auth/register', undefined, {
      firstName: 'Pre',
      lastName: 'Taken',
      email,
      password,
      phoneNumber: '0412 345 678',
      address: {
        addressLine1: '1 Take Street',
        city: 'Sydney',
        state: 'NSW',
        postalCode: '2000',
        country: 'Australia',
      },
    });
    expect(answer.statusCode).toBe(201);
    const { token, user } = answer.json() as { token: string; user: User };
    return { token, user, email };
  }

  const login = (email: string, password: string) => call('POST', '/api/auth/login', undefined, { email, password });
  const profileStatus = async (token: string) => (await call('GET', '/api/users/profile', token)).statusCode;

  describe('promotion to admin', () => {
    it("ends every session of an account registered before its promotion, unlinks Google and replaces the attacker's password", async () => {
      const staffEmail = uniqueEmail('staff');
      const attacker = await register(staffEmail, 'Attacker-Chosen-Pass-1');
      await shop.database.db
        .update(users)
        .set({ googleSubject: 'attacker-google' })
        .where(eq(users.id, attacker.user.id));
      expect(await profileStatus(attacker.token)).toBe(200);

      await shop.app.services.accounts.ensureAdmin(staffEmail, ADMIN_PASSWORD);

      expect(await profileStatus(attacker.token)).toBe(401);
      expect((await login(staffEmail, 'Attacker-Chosen-Pass-1')).statusCode).toBe(401);
      const [row] = await shop.database.db.select().from(users).where(eq(users.id, attacker.user.id));
      expect(row?.role).toBe('admin');
      expect(row?.googleSubject).toBeNull();
      expect((await login(staffEmail, ADMIN_PASSWORD)).statusCode).toBe(200);
    });

    it('the admin:create path (ensureAdminAccount) ends them too, on another process', async () => {
      const staffEmail = uniqueEmail('staff');
      const attacker = await register(staffEmail);
      const outcome = await ensureAdminAccount(shop.database.db, staffEmail, ADMIN_PASSWORD);
      expect(outcome).toMatchObject({ created: false, changed: true, granted: true });
      expect(await shop.database.db.$count(sessions, eq(sessions.userId, attacker.user.id))).toBe(0);
    });

    it('a restart with the same ADMIN_EMAIL and ADMIN_PASSWORD keeps the admin signed in', async () => {
      const adminEmail = uniqueEmail('owner');
      const first = await buildApp({
        config: { ...shop.app.config, admin: { email: adminEmail, password: ADMIN_PASSWORD } },
        database: shop.database,
        logger: false,
      });
      await first.ready();
      const signedIn = await login(adminEmail, ADMIN_PASSWORD);
      expect(signedIn.statusCode).toBe(200);
      const { token } = signedIn.json() as { token: string };
      await first.close();

      const restarted = await buildApp({
        config: { ...shop.app.config, admin: { email: adminEmail, password: ADMIN_PASSWORD } },
        database: shop.database,
        logger: false,
      });
      try {
        await restarted.ready();
        const profile = await restarted.inject({
          method: 'GET',
          url: '/api/users/profile',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(profile.statusCode).toBe(200);
      } finally {
        await restarted.close();
      }
      // A start with another password is a change: the old sessions end.
      const changed = await ensureAdminAccount(shop.database.db, adminEmail, `${ADMIN_PASSWORD}-new`);
      expect(changed).toMatchObject({ changed: true, granted: false });
      expect(
        await shop.database.db.$count(sessions, eq(sessions.userId, (signedIn.json() as { user: User }).user.id)),
      ).toBe(0);
    });
  });

  describe('Google sign-in onto an existing password account', () => {
    it("proves who owns the e-mail: the pre-registered attacker's session and password stop working, and the owner is told", async () => {
      const victimEmail = uniqueEmail('victim');
      const attacker = await register(victimEmail, 'Attacker-Chosen-Pass-2');
      await shop.app.services.mailer.idle();
      const before = new Set(readdirSync(outbox));

      const userId = await shop.app.services.accounts.findOrCreateGoogleUser({
        sub: `google-${victimEmail}`,
        email: victimEmail,
        emailVerified: true,
        givenName: 'Victoria',
        familyName: 'Owner',
      });
      expect(userId).toBe(attacker.user.id);

      expect(await profileStatus(attacker.token)).toBe(401);
      expect((await login(victimEmail, 'Attacker-Chosen-Pass-2')).statusCode).toBe(401);
      const [row] = await shop.database.db.select().from(users).where(eq(users.id, userId));
      expect(row?.passwordHash).toBeNull();
      expect(row?.googleSubject).toBe(`google-${victimEmail}`);

      await shop.app.services.mailer.idle();
      const [mail] = await shop.database.db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.recipient, victimEmail), eq(emailOutbox.kind, 'google-linked')));
      expect(mail).toBeDefined();
      const linked = (await readOutbox(outbox)).filter((mail) => !before.has(basename(mail.file)));
      for (const text of [linked.map((mail) => mail.text).join('\n'), linked.map((mail) => mail.html).join('\n')]) {
        expect(text).toContain('You signed in with Google; your password was removed');
        expect(text).toContain('/forgot-password');
      }
    });

    it("a password change in flight when the owner's Google sign-in lands does not put the attacker's password back", async () => {
      const victimEmail = uniqueEmail('racer');
      const attacker = await register(victimEmail, 'Attacker-Chosen-Pass-3');
      const [session] = await shop.database.db
        .select({ id: sessions.id })
        .from(sessions)
        .where(eq(sessions.id, hashToken(attacker.token)));
      const hash = vi.mocked(passwords.hashPassword);
      // The owner's Google sign-in lands while the attacker's new password is being hashed.
      hash.mockImplementationOnce(async (password) => {
        await shop.app.services.accounts.findOrCreateGoogleUser({
          sub: `google-${victimEmail}`,
          email: victimEmail,
          emailVerified: true,
          givenName: 'Rae',
          familyName: 'Owner',
        });
        const actual = await vi.importActual<typeof import('../../server/domain/passwords.ts')>(
          '../../server/domain/passwords.ts',
        );
        return actual.hashPassword(password);
      });
      await expect(
        shop.app.services.accounts.changePassword(
          attacker.user.id,
          session?.id ?? '',
          { currentPassword: 'Attacker-Chosen-Pass-3', newPassword: 'Attacker-Keeps-It-4' },
          { address: nextAddress() },
        ),
      ).rejects.toMatchObject({ statusCode: 401 });
      const [row] = await shop.database.db.select().from(users).where(eq(users.id, attacker.user.id));
      expect(row?.passwordHash).toBeNull();
      expect((await login(victimEmail, 'Attacker-Keeps-It-4')).statusCode).toBe(401);
    });

    it('never links a staff account by e-mail', async () => {
      const staffEmail = uniqueEmail('staff');
      await shop.app.services.accounts.ensureAdmin(staffEmail, ADMIN_PASSWORD);
      await expect(
        shop.app.services.accounts.findOrCreateGoogleUser({
          sub: `google-${staffEmail}`,
          email: staffEmail,
          emailVerified: true,
          givenName: 'Not',
          familyName: 'Staff',
        }),
      ).rejects.toMatchObject({ statusCode: 403 });
      expect((await login(staffEmail, ADMIN_PASSWORD)).statusCode).toBe(200);
    });
  });

  describe('confirming a sensitive step', () => {
    it('deleting an account with a password needs the current password: missing or wrong → 400, then 429 past 10 checks', async () => {
      const shopper = await register();
      const missing = await call('DELETE', '/api/users/account', shopper.token);
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({ message: ACCOUNT_MESSAGES.wrongCurrentPassword });
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const wrong = await call('DELETE', '/api/users/account', shopper.token, {
          currentPassword: `Wrong-${attempt}`,
        });
        expect(wrong.statusCode, `attempt ${attempt}`).toBe(400);
      }
      const limited = await call('DELETE', '/api/users/account', shopper.token, { currentPassword: PASSWORD });
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(await profileStatus(shopper.token)).toBe(200);
    });

    it('a Google-only account is never told "incorrect": a fresh Google sign-in (10 minutes) confirms, an older one answers 403', async () => {
      const email = uniqueEmail('googler');
      const { accounts } = shop.app.services;
      const userId = await accounts.findOrCreateGoogleUser({
        sub: `google-${email}`,
        email,
        emailVerified: true,
        givenName: 'Gigi',
        familyName: 'Oogle',
      });
      const stale = await accounts.startSession(userId, {}, 'google');
      const fresh = await accounts.startSession(userId, {}, 'google');
      await shop.database.db
        .update(sessions)
        .set({ provenAt: new Date(Date.now() - 11 * 60_000) })
        .where(eq(sessions.id, hashToken(stale.token)));

      for (const [method, url, body] of [
        ['DELETE', '/api/users/account', { currentPassword: 'whatever' }],
        ['POST', '/api/users/change-password', { currentPassword: 'whatever', newPassword: 'Google-Set-Pass-77' }],
      ] as const) {
        const answer = await call(method, url, stale.token, body);
        expect(answer.statusCode, url).toBe(403);
        expect(answer.json()).toMatchObject({ message: ACCOUNT_MESSAGES.confirmWithGoogle });
        expect(answer.body).not.toContain('incorrect');
      }

      const sessionId = hashToken(fresh.token);
      await expect(accounts.confirmIdentity(userId, sessionId, null)).resolves.toBe('google');
      await expect(accounts.confirmIdentity(userId, hashToken(stale.token), null)).rejects.toMatchObject({
        statusCode: 403,
      });
      // Confirmed with Google, the shopper may set a first password, then deletes with it.
      const set = await call('POST', '/api/users/change-password', fresh.token, {
        currentPassword: 'none',
        newPassword: 'Google-Set-Pass-77',
      });
      expect(set.statusCode).toBe(200);
      expect((await login(email, 'Google-Set-Pass-77')).statusCode).toBe(200);
      expect(
        (await call('DELETE', '/api/users/account', fresh.token, { currentPassword: 'Google-Set-Pass-77' })).statusCode,
      ).toBe(200);
    });
  });

  describe('reset links', () => {
    const insertToken = async (userId: number) => {
      const token = generateToken();
      await shop.database.db
        .insert(passwordResetTokens)
        .values({ id: hashToken(token), userId, expiresAt: new Date(Date.now() + 3_600_000) });
      return token;
    };
    const reset = (token: string, newPassword = 'Fresh-Reset-Pass-88') =>
      call('POST', '/api/auth/reset-password', undefined, { token, newPassword });

    it('an unused link dies when the password is changed', async () => {
      const shopper = await register();
      const token = await insertToken(shopper.user.id);
      const changed = await call('POST', '/api/users/change-password', shopper.token, {
        currentPassword: PASSWORD,
        newPassword: 'Changed-Takeover-Pass-9',
      });
      expect(changed.statusCode).toBe(200);
      expect((await reset(token)).statusCode).toBe(400);
    });

    it('only the newest link works after a new request, and a successful reset kills any other', async () => {
      const shopper = await register();
      const older = await insertToken(shopper.user.id);
      expect((await call('POST', '/api/auth/forgot-password', undefined, { email: shopper.email })).statusCode).toBe(
        202,
      );
      await shop.app.services.mailer.idle();
      expect((await reset(older)).statusCode).toBe(400);

      const first = await insertToken(shopper.user.id);
      const second = await insertToken(shopper.user.id);
      expect((await reset(first)).statusCode).toBe(200);
      expect((await reset(second)).statusCode).toBe(400);
    });

    it('a dead link is refused before any password is hashed', async () => {
      const hash = vi.mocked(passwords.hashPassword);
      hash.mockClear();
      const answer = await reset('z'.repeat(43));
      expect(answer.statusCode).toBe(400);
      expect(hash).not.toHaveBeenCalled();
    });
  });

  describe('forgot-password does the same awaited work for any e-mail', () => {
    it('answers before the lookup, the token row and the e-mail, for a known and an unknown address alike', async () => {
      const shopper = await register();
      const queued: (() => Promise<void>)[] = [];
      const { db } = shop.database;
      const accounts = createAccounts({
        db,
        sessions: shop.app.services.sessions,
        counters: createDatabaseCounterStore(db),
        mailer: shop.app.services.mailer,
        shopName: 'Harbour Tools',
        linkOrigin: 'http://localhost:3000',
        currentPassword: shop.app.services.currentPassword,
        afterReply: (work) => queued.push(work),
      });
      const live = () =>
        db.$count(
          passwordResetTokens,
          and(eq(passwordResetTokens.userId, shopper.user.id), isNull(passwordResetTokens.usedAt)),
        );

      await accounts.requestPasswordReset(shopper.email, { address: '127.3.0.1' });
      expect(queued).toHaveLength(1);
      expect(await live()).toBe(0);
      await accounts.requestPasswordReset(uniqueEmail('nobody'), { address: '127.3.0.1' });
      expect(queued).toHaveLength(2);

      await Promise.all(queued.map((work) => work()));
      expect(await live()).toBe(1);
      await shop.app.services.mailer.idle();
    });
  });

  describe('security events', () => {
    it('records sign-in failures, slow-downs, resets, password changes, Google links and admin grants with the account and address', async () => {
      const events: SecurityEvent[] = [];
      const deferred: Promise<void>[] = [];
      const { db } = shop.database;
      const accounts = createAccounts({
        db,
        sessions: shop.app.services.sessions,
        counters: createDatabaseCounterStore(db),
        mailer: shop.app.services.mailer,
        shopName: 'Harbour Tools',
        linkOrigin: 'http://localhost:3000',
        currentPassword: shop.app.services.currentPassword,
        securityEvents: { record: (event) => events.push(event) },
        afterReply: (work) => {
          deferred.push(work());
        },
      });
      const shopper = await register();
      const address = '127.3.1.1';
      for (let attempt = 0; attempt < 6; attempt += 1) {
        await accounts.login({ email: shopper.email, password: 'Wrong-Pass-1' }, { address }).catch(() => {});
      }
      await accounts.requestPasswordReset(shopper.email, { address });
      await Promise.all(deferred);
      await shop.app.services.mailer.idle();
      const token = await (async () => {
        const fresh = generateToken();
        await db
          .insert(passwordResetTokens)
          .values({ id: hashToken(fresh), userId: shopper.user.id, expiresAt: new Date(Date.now() + 3_600_000) });
        return fresh;
      })();
      await accounts.resetPassword(token, 'Reset-Event-Pass-55', { address });
      const signedIn = await accounts.login(
        { email: shopper.email, password: 'Reset-Event-Pass-55' },
        { address: '127.3.1.2' },
      );
      const [session] = await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(eq(sessions.id, hashToken('token' in signedIn ? signedIn.token : '')));
      await accounts.changePassword(
        shopper.user.id,
        session?.id ?? '',
        { currentPassword: 'Reset-Event-Pass-55', newPassword: 'Changed-Event-Pass-66' },
        { address },
      );
      const linkedEmail = uniqueEmail('linked');
      const linked = await register(linkedEmail);
      await accounts.findOrCreateGoogleUser(
        { sub: `google-${linkedEmail}`, email: linkedEmail, emailVerified: true, givenName: 'L', familyName: 'K' },
        { address },
      );
      const staffEmail = uniqueEmail('staff');
      const staff = await register(staffEmail);
      await accounts.ensureAdmin(staffEmail, ADMIN_PASSWORD);
      await accounts.ensureAdmin(staffEmail, 'Another-Admin-Pass-77');
      await accounts.ensureAdmin(staffEmail, 'Another-Admin-Pass-77');

      const of = (name: SecurityEvent['event']) => events.filter((event) => event.event === name);
      expect(of('sign-in-failed')).toHaveLength(5);
      expect(of('sign-in-failed')[0]).toMatchObject({ userId: shopper.user.id, address });
      expect(of('sign-in-slowed')[0]).toMatchObject({ userId: shopper.user.id, address });
      expect(of('password-reset-requested')[0]).toMatchObject({ userId: shopper.user.id, address });
      expect(of('password-reset')[0]).toMatchObject({ userId: shopper.user.id, address });
      expect(of('password-changed')[0]).toMatchObject({ userId: shopper.user.id, address });
      expect(of('google-linked')[0]).toMatchObject({ userId: linked.user.id, address });
      expect(of('admin-granted')).toEqual([expect.objectContaining({ userId: staff.user.id })]);
      // The owner's new password through ADMIN_EMAIL is an admin change too; a start that changes nothing is none.
      expect(events.filter((event) => String(event.event) === 'admin-changed')).toEqual([
        expect.objectContaining({ userId: staff.user.id, details: { via: 'ADMIN_EMAIL', created: false } }),
      ]);
      expect(JSON.stringify(events)).not.toContain('Wrong-Pass-1');
    });
  });
});
