import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address, PaymentMethod, User } from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES, type AccountSummary, COUNTRIES } from '../../contracts/account-fields.ts';
import {
  addresses,
  passwordResetTokens,
  paymentMethods,
  pointsLedger,
  products,
  sessions,
  userPreferences,
  users,
  wishlistItems,
} from '../../db/schema.ts';
import { hashToken } from '../../server/domain/tokens.ts';
import { type OutboxMail, readOutbox } from '../helpers/outbox.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

/*
 * Every endpoint of the accounts issue through inject, on PGlite and on PostgreSQL:
 * registration, sign-in, sessions, password reset by e-mail, the profile, the address
 * book, saved payment methods, preferences and the wishlist (spec §5, §7, §8).
 */

interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
}

interface Answer<T> {
  status: number;
  body: T;
  text: string;
  headers: Record<string, string | string[] | number | undefined>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface Account {
  token: string;
  user: User;
  email: string;
  password: string;
}

const PASSWORD = 'Harbour-Test-Pass-42';
const NEW_PASSWORD = 'Another-Harbour-Pass-77';
const THIS_YEAR = new Date().getFullYear();
const COUNTRY_CHOICES = 'Country must be one of Australia, United States, Canada, United Kingdom';

const REGISTRATION_ADDRESS = {
  addressLine1: '14 Boundary Lane',
  addressLine2: 'Unit 3',
  city: 'Silverwater',
  state: 'NSW',
  postalCode: '2128',
  country: 'Australia',
};

const HOME = {
  addressType: 'Home',
  fullName: 'Ann Lee',
  addressLine1: '1 Main Street',
  city: 'Sydney',
  state: 'NSW',
  postalCode: '2000',
  country: 'Australia',
  phoneNumber: '0412 345 678',
};

const CARD = {
  paymentType: 'Credit Card',
  provider: 'Visa',
  last4Digits: '4242',
  expiryMonth: '07',
  expiryYear: THIS_YEAR + 2,
  paymentMethodId: 'pm_test_1',
};

const postgresAvailable = await isPostgresReachable();
const kinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'pglite', skip: false },
  { kind: 'postgres', skip: !postgresAvailable },
];

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`account API on ${kind}`, () => {
    let shop: TestShop;
    let outbox: string;
    let productIds: number[];
    let sequence = 0;

    /** Each request comes from its own address, so the per-IP caps only bite in the security tests. */
    function nextIp(): string {
      sequence += 1;
      return `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
    }

    function uniqueEmail(tag: string): string {
      sequence += 1;
      return `${tag}.${sequence}.${kind}@example.com`;
    }

    async function call<T = ErrorBody>(
      method: Method,
      url: string,
      options: { token?: string; body?: unknown; cookie?: string; headers?: Record<string, string> } = {},
    ): Promise<Answer<T>> {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.cookie) headers.cookie = `harbour_session=${options.cookie}`;
      const response = await shop.app.inject({
        method,
        url,
        headers,
        remoteAddress: nextIp(),
        ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
      });
      const text = response.body;
      return {
        status: response.statusCode,
        body: (text ? JSON.parse(text) : null) as T,
        text,
        headers: response.headers,
      };
    }

    function registerBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
      return {
        firstName: 'Ann',
        lastName: 'Lee',
        email: uniqueEmail('shopper'),
        password: PASSWORD,
        PhoneNumber: '0412 345 678',
        address: { ...REGISTRATION_ADDRESS },
        ...overrides,
      };
    }

    async function register(overrides: Record<string, unknown> = {}): Promise<Account> {
      const body = registerBody(overrides);
      const answer = await call<{ token: string; user: User }>('POST', '/api/auth/register', { body });
      expect(answer.status).toBe(201);
      return { ...answer.body, email: String(body.email).toLowerCase(), password: String(body.password) };
    }

    async function login(email: string, password: string): Promise<Answer<{ token: string; user: User }>> {
      return call('POST', '/api/auth/login', { body: { email, password } });
    }

    async function signIn(account: Account, password = account.password): Promise<string> {
      const answer = await login(account.email, password);
      expect(answer.status).toBe(200);
      return answer.body.token;
    }

    async function profileStatus(token: string): Promise<number> {
      return (await call('GET', '/api/users/profile', { token })).status;
    }

    /** Runs `action`, waits for the mailer and returns the messages it wrote to the outbox, both parts read back. */
    async function mailsDuring(action: () => Promise<unknown>): Promise<OutboxMail[]> {
      await shop.app.services.mailer.idle();
      const before = new Set((await readOutbox(outbox)).map((mail) => mail.file));
      await action();
      await shop.app.services.mailer.idle();
      return (await readOutbox(outbox)).filter((mail) => !before.has(mail.file));
    }

    async function requestResetToken(email: string): Promise<string> {
      const mails = await mailsDuring(async () => {
        const answer = await call('POST', '/api/auth/forgot-password', { body: { email } });
        expect(answer.status).toBe(202);
      });
      expect(mails).toHaveLength(1);
      const link = /(\S+\/reset-password\?token=\S+)/.exec(mails[0]?.text ?? '')?.[1];
      expect(link).toBeDefined();
      const token = new URL(link ?? '').searchParams.get('token');
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      return token ?? '';
    }

    function setCookie(answer: Answer<unknown>): string {
      const value = answer.headers['set-cookie'];
      return Array.isArray(value) ? value.join('\n') : String(value ?? '');
    }

    beforeAll(async () => {
      outbox = mkdtempSync(join(tmpdir(), 'harbour-outbox-'));
      shop = await createTestShop(kind, { products: 10, env: { MAIL_OUTBOX_DIR: outbox } });
      productIds = (await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id)).map(
        (row) => row.id,
      );
    });
    afterAll(async () => {
      await shop?.close();
      if (outbox) rmSync(outbox, { recursive: true, force: true });
    });

    describe('POST /api/auth/register', () => {
      it('creates the account and answers 201 with a token that works as a bearer token', async () => {
        const email = `Mixed.Case.${kind}@Example.COM`;
        const answer = await call<{ token: string; user: User }>('POST', '/api/auth/register', {
          body: registerBody({ email, firstName: '  Ann ', lastName: 'Lee' }),
        });
        expect(answer.status).toBe(201);
        expect(Object.keys(answer.body).sort()).toEqual(['token', 'user']);
        expect(answer.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(answer.body.user).toEqual({
          id: expect.any(Number),
          email: email.toLowerCase(),
          firstName: 'Ann',
          lastName: 'Lee',
          name: 'Ann Lee',
          phoneNumber: '0412 345 678',
          role: 'customer',
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        });
        expect(setCookie(answer)).toContain(`harbour_session=${answer.body.token};`);

        const profile = await call<User>('GET', '/api/users/profile', { token: answer.body.token });
        expect(profile.status).toBe(200);
        expect(profile.body).toEqual(answer.body.user);

        // Only hashes are stored: an argon2id hash of the password and the SHA-256 of the token.
        const [row] = await shop.database.db.select().from(users).where(eq(users.id, answer.body.user.id));
        expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
        const stored = await shop.database.db.select().from(sessions).where(eq(sessions.userId, answer.body.user.id));
        expect(stored.map((session) => session.id)).toEqual([hashToken(answer.body.token)]);
      });

      it('accepts the phone number as phoneNumber as well as PhoneNumber', async () => {
        const { PhoneNumber: _spec, ...body } = registerBody({ phoneNumber: '+61 2 9000 0000' });
        const answer = await call<{ user: User }>('POST', '/api/auth/register', { body });
        expect(answer.status).toBe(201);
        expect(answer.body.user.phoneNumber).toBe('+61 2 9000 0000');
      });

      it('makes the registration address the first, default address', async () => {
        const account = await register();
        const list = await call<Address[]>('GET', '/api/addresses', { token: account.token });
        expect(list.status).toBe(200);
        expect(list.body).toEqual([
          {
            id: expect.any(Number),
            addressType: 'Home',
            fullName: 'Ann Lee',
            ...REGISTRATION_ADDRESS,
            phoneNumber: '0412 345 678',
            isDefault: true,
          },
        ]);
      });

      it('answers 409 with a message on the e-mail field when the e-mail is taken, whatever its case', async () => {
        const account = await register();
        const answer = await call('POST', '/api/auth/register', {
          body: registerBody({ email: account.email.toUpperCase() }),
        });
        expect(answer.status).toBe(409);
        expect(answer.body).toEqual({
          message: ACCOUNT_MESSAGES.duplicateEmail,
          errors: { email: [ACCOUNT_MESSAGES.duplicateEmail] },
        });
        expect(await shop.database.db.$count(users, eq(users.email, account.email))).toBe(1);
      });

      const withoutField = (field: string) => (body: Record<string, unknown>) => {
        delete body[field];
      };
      const withField = (field: string, value: unknown) => (body: Record<string, unknown>) => {
        body[field] = value;
      };
      const withAddress = (field: string, value: unknown) => (body: Record<string, unknown>) => {
        const address = body.address as Record<string, unknown>;
        if (value === undefined) delete address[field];
        else address[field] = value;
      };

      it.each([
        ['no first name', withoutField('firstName'), 'firstName', 'First name is required'],
        ['a blank first name', withField('firstName', '   '), 'firstName', 'First name is required'],
        [
          'a NUL character in the first name',
          withField('firstName', 'A\u0000nn'),
          'firstName',
          'First name contains a character that is not allowed',
        ],
        ['no last name', withoutField('lastName'), 'lastName', 'Last name is required'],
        ['an empty last name', withField('lastName', ''), 'lastName', 'Last name is required'],
        ['no e-mail', withoutField('email'), 'email', 'Email is required'],
        ['a malformed e-mail', withField('email', 'not-an-email'), 'email', 'Email is invalid'],
        ['an e-mail without a domain', withField('email', 'ann@'), 'email', 'Email is invalid'],
        ['no password', withoutField('password'), 'password', 'Password is required'],
        ['an empty password', withField('password', ''), 'password', 'Password is required'],
        [
          'a 5-character password',
          withField('password', 'abc12'),
          'password',
          'Password must be at least 6 characters',
        ],
        [
          'a 257-character password',
          withField('password', 'x'.repeat(257)),
          'password',
          'Password must be 256 characters or fewer',
        ],
        ['no phone number', withoutField('PhoneNumber'), 'phoneNumber', 'Phone number is required'],
        [
          'a phone number with letters',
          withField('PhoneNumber', 'call me'),
          'phoneNumber',
          'Please enter a valid phone number, e.g. 0412 345 678',
        ],
        ['no address', withoutField('address'), 'address', 'Address is required'],
        ['no address line', withAddress('addressLine1', ''), 'address.addressLine1', 'Address is required'],
        ['no city', withAddress('city', undefined), 'address.city', 'City is required'],
        ['no state', withAddress('state', ' '), 'address.state', 'State is required'],
        ['no postal code', withAddress('postalCode', undefined), 'address.postalCode', 'Postal code is required'],
        ['no country', withAddress('country', undefined), 'address.country', 'Country is required'],
        ['a country the shop does not ship to', withAddress('country', 'France'), 'address.country', COUNTRY_CHOICES],
      ])('answers 400 for %s: "%s"', async (_case, change, field, message) => {
        const body = registerBody();
        change(body);
        const answer = await call('POST', '/api/auth/register', { body });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ message: `Invalid field: ${field}`, errors: { [field]: [message] } });
        if (typeof body.email === 'string') {
          expect(await shop.database.db.$count(users, eq(users.email, body.email.toLowerCase()))).toBe(0);
        }
      });

      it.each(['password1', 'qwerty123', 'Password1', 'iloveyou'])(
        'refuses the common password %s with the commonPassword message',
        async (password) => {
          const body = registerBody({ password });
          const answer = await call('POST', '/api/auth/register', { body });
          expect(answer.status).toBe(400);
          expect(answer.body).toEqual({
            message: 'Invalid field: password',
            errors: { password: [ACCOUNT_MESSAGES.commonPassword] },
          });
          expect(await shop.database.db.$count(users, eq(users.email, String(body.email)))).toBe(0);
        },
      );
    });

    describe('POST /api/auth/login', () => {
      let account: Account;
      beforeAll(async () => {
        account = await register();
      });

      it('answers { token, user } and sets an httpOnly, SameSite=Lax session cookie for the whole site', async () => {
        const answer = await login(account.email, account.password);
        expect(answer.status).toBe(200);
        expect(answer.body.user).toEqual(account.user);
        expect(answer.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(answer.body.token).not.toBe(account.token);

        const cookie = setCookie(answer);
        const parts = cookie.split(';').map((part) => part.trim());
        expect(parts[0]).toBe(`harbour_session=${answer.body.token}`);
        expect(parts).toContain('HttpOnly');
        expect(parts).toContain('SameSite=Lax');
        expect(parts).toContain('Path=/');
        expect(parts).not.toContain('Secure');
        const expires = Date.parse(parts.find((part) => part.startsWith('Expires='))?.slice(8) ?? '');
        const days = (expires - Date.now()) / 86_400_000;
        expect(days).toBeGreaterThan(29);
        expect(days).toBeLessThanOrEqual(30);
        // Beside it, a hint scripts may read (it holds no secret), living exactly as long.
        const hint =
          cookie
            .split('\n')[1]
            ?.split(';')
            .map((part) => part.trim()) ?? [];
        expect(hint[0]).toBe('harbour_signed_in=1');
        expect(hint).not.toContain('HttpOnly');
        expect(hint).toContain('SameSite=Lax');
        expect(hint.find((part) => part.startsWith('Expires='))).toBe(
          parts.find((part) => part.startsWith('Expires=')),
        );

        expect(await profileStatus(answer.body.token)).toBe(200);
        const byCookie = await call<User>('GET', '/api/users/profile', { cookie: answer.body.token });
        expect(byCookie.status).toBe(200);
        expect(byCookie.body.email).toBe(account.email);
      });

      it('ignores the e-mail’s case and surrounding spaces', async () => {
        const answer = await login(`  ${account.email.toUpperCase()} `, account.password);
        expect(answer.status).toBe(200);
        expect(answer.body.user.id).toBe(account.user.id);
      });

      it('answers a wrong password and an unknown e-mail with the same status and body', async () => {
        const wrongPassword = await login(account.email, 'Not-The-Password-1');
        const unknownEmail = await login(uniqueEmail('nobody'), account.password);
        expect(wrongPassword.status).toBe(401);
        expect(unknownEmail.status).toBe(401);
        expect(wrongPassword.body).toEqual({ message: ACCOUNT_MESSAGES.invalidCredentials });
        expect(unknownEmail.text).toBe(wrongPassword.text);
        expect(wrongPassword.headers['set-cookie']).toBeUndefined();
        expect(unknownEmail.headers['set-cookie']).toBeUndefined();
      });

      it.each([
        [{ password: PASSWORD }, 'email', 'Email is required'],
        [{ email: '   ', password: PASSWORD }, 'email', 'Email is required'],
        [{ email: 'ann@example.com' }, 'password', 'Password is required'],
        [{ email: 'ann@example.com', password: '' }, 'password', 'Password is required'],
        [{ email: 'ann\u0000@example.com', password: PASSWORD }, 'email', 'Email is invalid'],
      ])('answers 400 for %j', async (body, field, message) => {
        const answer = await call('POST', '/api/auth/login', { body });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ message: `Invalid field: ${field}`, errors: { [field]: [message] } });
      });
    });

    describe('POST /api/auth/logout', () => {
      it('ends this session only, clears the cookie, and the token then answers 401', async () => {
        const account = await register();
        const other = await signIn(account);
        const answer = await call('POST', '/api/auth/logout', { token: account.token });
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({ message: 'Signed out' });
        // The session cookie is cleared, and with it the readable hint that pages use to ask for the account part.
        expect(setCookie(answer).split('\n')).toEqual([
          'harbour_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax',
          'harbour_signed_in=; Max-Age=0; Path=/; SameSite=Lax',
        ]);

        const after = await call('GET', '/api/users/profile', { token: account.token });
        expect(after.status).toBe(401);
        expect(after.body).toEqual({ message: ACCOUNT_MESSAGES.signedOut });
        expect(await shop.database.db.$count(sessions, eq(sessions.id, hashToken(account.token)))).toBe(0);
        expect(await profileStatus(other)).toBe(200);
      });

      it('gives a live cookie session that arrives without its hint the hint, and only then', async () => {
        const account = await register();
        const bare = await shop.app.inject({
          method: 'GET',
          url: '/api/users/profile',
          headers: { cookie: `harbour_session=${account.token}` },
        });
        expect(bare.statusCode).toBe(200);
        expect(String(bare.headers['set-cookie'])).toMatch(
          /^harbour_signed_in=1; Path=\/; Expires=[^;]+; SameSite=Lax$/,
        );
        const hinted = await shop.app.inject({
          method: 'GET',
          url: '/api/users/profile',
          headers: { cookie: `harbour_session=${account.token}; harbour_signed_in=1` },
        });
        expect(hinted.statusCode).toBe(200);
        expect(hinted.headers['set-cookie']).toBeUndefined();
        const byToken = await call('GET', '/api/users/profile', { token: account.token });
        expect(byToken.headers['set-cookie']).toBeUndefined();
      });

      it('ends a cookie session the same way', async () => {
        const account = await register();
        const answer = await call('POST', '/api/auth/logout', { cookie: account.token });
        expect(answer.status).toBe(200);
        expect((await call('GET', '/api/users/profile', { cookie: account.token })).status).toBe(401);
      });

      it('answers 401 when signed out', async () => {
        const answer = await call('POST', '/api/auth/logout');
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual({ message: ACCOUNT_MESSAGES.signedOut });
      });
    });

    describe('POST /api/auth/forgot-password', () => {
      it('answers 202 with the same body for a known and an unknown e-mail, and mails only the known one', async () => {
        const account = await register();
        await shop.app.services.mailer.idle();
        let known: Answer<ErrorBody> | undefined;
        let unknown: Answer<ErrorBody> | undefined;
        const mails = await mailsDuring(async () => {
          known = await call('POST', '/api/auth/forgot-password', { body: { email: account.email.toUpperCase() } });
          unknown = await call('POST', '/api/auth/forgot-password', { body: { email: uniqueEmail('nobody') } });
        });
        expect(known?.status).toBe(202);
        expect(unknown?.status).toBe(202);
        expect(known?.body).toEqual({ message: ACCOUNT_MESSAGES.forgotPasswordSent });
        expect(unknown?.text).toBe(known?.text);

        expect(mails).toHaveLength(1);
        const [mail] = mails;
        expect(mail?.to).toBe(account.email);
        expect(mail?.subject).toBe('Reset your Harbour Tools password');
        const link = new URL(/(http\S+\/reset-password\?token=\S+)/.exec(mail?.text ?? '')?.[1] ?? 'http://x');
        expect(link.pathname).toBe('/reset-password');
        const token = link.searchParams.get('token') ?? '';
        expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

        // Stored as a hash, single use, for one hour.
        const rows = await shop.database.db
          .select()
          .from(passwordResetTokens)
          .where(eq(passwordResetTokens.userId, account.user.id));
        expect(rows).toHaveLength(1);
        expect(rows[0]?.id).toBe(hashToken(token));
        expect(rows[0]?.usedAt).toBeNull();
        const minutes = ((rows[0]?.expiresAt.getTime() ?? 0) - Date.now()) / 60_000;
        expect(minutes).toBeGreaterThan(59);
        expect(minutes).toBeLessThanOrEqual(60);
      });

      it('answers 400 for a malformed e-mail', async () => {
        const answer = await call('POST', '/api/auth/forgot-password', { body: { email: 'ann at example' } });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ message: 'Invalid field: email', errors: { email: ['Email is invalid'] } });
      });
    });

    describe('POST /api/auth/reset-password', () => {
      it('sets the new password once, ends every session, and the new password signs in', async () => {
        const account = await register();
        const second = await signIn(account);
        const token = await requestResetToken(account.email);

        const common = await call('POST', '/api/auth/reset-password', { body: { token, newPassword: 'password1' } });
        expect(common.status).toBe(400);
        expect(common.body).toEqual({
          message: 'Invalid field: newPassword',
          errors: { newPassword: [ACCOUNT_MESSAGES.commonPassword] },
        });
        const short = await call('POST', '/api/auth/reset-password', { body: { token, newPassword: 'abc' } });
        expect(short.status).toBe(400);
        expect(short.body).toEqual({
          message: 'Invalid field: newPassword',
          errors: { newPassword: ['Password must be at least 6 characters'] },
        });

        // The refusals above did not use the link up.
        const reset = await call('POST', '/api/auth/reset-password', { body: { token, newPassword: NEW_PASSWORD } });
        expect(reset.status).toBe(200);
        expect(reset.body).toEqual({ message: 'Your password has been reset. Please sign in with your new password.' });

        const again = await call('POST', '/api/auth/reset-password', { body: { token, newPassword: NEW_PASSWORD } });
        expect(again.status).toBe(400);
        expect(again.body).toEqual({
          message: ACCOUNT_MESSAGES.resetLinkInvalid,
          errors: { token: [ACCOUNT_MESSAGES.resetLinkInvalid] },
        });

        expect(await profileStatus(account.token)).toBe(401);
        expect(await profileStatus(second)).toBe(401);
        const old = await login(account.email, account.password);
        expect(old.status).toBe(401);
        expect(old.body).toEqual({ message: ACCOUNT_MESSAGES.invalidCredentials });
        expect(await profileStatus(await signIn(account, NEW_PASSWORD))).toBe(200);
      });

      it('refuses an expired link', async () => {
        const account = await register();
        const token = await requestResetToken(account.email);
        await shop.database.db
          .update(passwordResetTokens)
          .set({ expiresAt: new Date(Date.now() - 60_000) })
          .where(eq(passwordResetTokens.id, hashToken(token)));
        const answer = await call('POST', '/api/auth/reset-password', { body: { token, newPassword: NEW_PASSWORD } });
        expect(answer.status).toBe(400);
        expect(answer.body.message).toBe(ACCOUNT_MESSAGES.resetLinkInvalid);
        expect(await profileStatus(account.token)).toBe(200);
        expect((await login(account.email, account.password)).status).toBe(200);
      });

      it.each([
        ['an unknown token', { token: 'x'.repeat(43), newPassword: NEW_PASSWORD }],
        ['no token', { newPassword: NEW_PASSWORD }],
        ['an empty token', { token: '', newPassword: NEW_PASSWORD }],
      ])('answers 400 with resetLinkInvalid for %s', async (_case, body) => {
        const answer = await call('POST', '/api/auth/reset-password', { body });
        expect(answer.status).toBe(400);
        expect(answer.body.errors).toEqual({ token: [ACCOUNT_MESSAGES.resetLinkInvalid] });
      });
    });

    describe('GET /api/users/summary', () => {
      it("answers the frame's part of the signed-in shopper: names, role, wishlist ids, points", async () => {
        const alice = await register();
        const bob = await register();
        expect((await call('PUT', `/api/wishlist/${productIds[1]}`, { token: alice.token })).status).toBe(204);
        expect((await call('PUT', `/api/wishlist/${productIds[0]}`, { token: alice.token })).status).toBe(204);
        expect((await call('PUT', `/api/wishlist/${productIds[2]}`, { token: bob.token })).status).toBe(204);
        // Points on both, several rows each, so a sum over the wrong rows cannot come out right.
        await shop.database.db.insert(pointsLedger).values([
          { userId: alice.user.id, kind: 'earn', points: 120, note: 'summary test' },
          { userId: alice.user.id, kind: 'redeem', points: -20, note: 'summary test' },
          { userId: bob.user.id, kind: 'earn', points: 7, note: 'summary test' },
        ]);
        const asAlice = await call<AccountSummary>('GET', '/api/users/summary', { cookie: alice.token });
        expect(asAlice.status).toBe(200);
        expect(asAlice.headers['cache-control']).toBe('no-store');
        expect(asAlice.body).toEqual({
          id: alice.user.id,
          firstName: alice.user.firstName,
          name: alice.user.name,
          role: 'customer',
          wishlist: await shop.app.services.wishlist.ids(alice.user.id),
          points: await shop.app.services.points.balance(alice.user.id),
        });
        expect([...asAlice.body.wishlist].sort((x, y) => x - y)).toEqual([productIds[0], productIds[1]]);
        expect(asAlice.body.points).toBe(100);
        const asBob = await call<AccountSummary>('GET', '/api/users/summary', { token: bob.token });
        expect(asBob.body).toMatchObject({
          id: bob.user.id,
          name: bob.user.name,
          wishlist: [productIds[2]],
          points: 7,
        });
        expect((await call('GET', '/api/users/summary')).status).toBe(401);
      });
    });

    describe('GET and PUT /api/users/profile', () => {
      let account: Account;
      beforeAll(async () => {
        account = await register();
      });

      it('answers the signed-in shopper', async () => {
        const answer = await call<User>('GET', '/api/users/profile', { token: account.token });
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual(account.user);
      });

      it('changes the name and phone number but never the e-mail', async () => {
        const answer = await call<User>('PUT', '/api/users/profile', {
          token: account.token,
          body: {
            firstName: ' Annie ',
            lastName: 'Leigh',
            phoneNumber: '+61 2 9000 0000',
            email: 'hijack@example.com',
          },
        });
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({
          ...account.user,
          firstName: 'Annie',
          lastName: 'Leigh',
          name: 'Annie Leigh',
          phoneNumber: '+61 2 9000 0000',
        });
        const [row] = await shop.database.db.select().from(users).where(eq(users.id, account.user.id));
        expect(row?.email).toBe(account.email);
        expect(await shop.database.db.$count(users, eq(users.email, 'hijack@example.com'))).toBe(0);
        expect((await call<User>('GET', '/api/users/profile', { token: account.token })).body.name).toBe('Annie Leigh');
      });

      it('clears the phone number when it is blank', async () => {
        const answer = await call<User>('PUT', '/api/users/profile', {
          token: account.token,
          body: { firstName: 'Ann', lastName: 'Lee', phoneNumber: '' },
        });
        expect(answer.status).toBe(200);
        expect(answer.body.phoneNumber).toBeNull();
      });

      it.each([
        [{ firstName: '', lastName: 'Lee' }, 'firstName', 'First name is required'],
        [{ lastName: 'Lee' }, 'firstName', 'First name is required'],
        [{ firstName: 'Ann', lastName: '  ' }, 'lastName', 'Last name is required'],
        [
          { firstName: 'Ann', lastName: 'Lee', phoneNumber: 'ring ring' },
          'phoneNumber',
          'Please enter a valid phone number, e.g. 0412 345 678',
        ],
      ])('answers 400 for %j', async (body, field, message) => {
        const answer = await call('PUT', '/api/users/profile', { token: account.token, body });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ message: `Invalid field: ${field}`, errors: { [field]: [message] } });
      });
    });

    describe('POST /api/users/change-password', () => {
      it('refuses a wrong current password, then changes it, ending every other session but this one', async () => {
        const account = await register();
        const other = await signIn(account);

        const wrong = await call('POST', '/api/users/change-password', {
          token: account.token,
          body: { currentPassword: 'Not-The-Password-1', newPassword: NEW_PASSWORD },
        });
        expect(wrong.status).toBe(400);
        expect(wrong.body).toEqual({
          message: ACCOUNT_MESSAGES.wrongCurrentPassword,
          errors: { currentPassword: [ACCOUNT_MESSAGES.wrongCurrentPassword] },
        });
        const common = await call('POST', '/api/users/change-password', {
          token: account.token,
          body: { currentPassword: account.password, newPassword: 'qwerty123' },
        });
        expect(common.status).toBe(400);
        expect(common.body.errors).toEqual({ newPassword: [ACCOUNT_MESSAGES.commonPassword] });
        // Nothing changed so far.
        expect(await profileStatus(other)).toBe(200);

        const changed = await call('POST', '/api/users/change-password', {
          token: account.token,
          body: { currentPassword: account.password, newPassword: NEW_PASSWORD },
        });
        expect(changed.status).toBe(200);
        expect(changed.body).toEqual({ message: ACCOUNT_MESSAGES.passwordChanged });
        expect(await profileStatus(account.token)).toBe(200);
        expect(await profileStatus(other)).toBe(401);
        expect((await login(account.email, account.password)).status).toBe(401);
        expect((await login(account.email, NEW_PASSWORD)).status).toBe(200);
      });

      it.each([
        [{ newPassword: NEW_PASSWORD }, 'currentPassword', 'Current password is required'],
        [{ currentPassword: PASSWORD }, 'newPassword', 'Password is required'],
        [{ currentPassword: PASSWORD, newPassword: 'abc' }, 'newPassword', 'Password must be at least 6 characters'],
      ])('answers 400 for %j', async (body, field, message) => {
        const account = await register();
        const answer = await call('POST', '/api/users/change-password', { token: account.token, body });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ message: `Invalid field: ${field}`, errors: { [field]: [message] } });
      });
    });

    describe('DELETE /api/users/account', () => {
      it('deletes the account with its personal data and ends every session', async () => {
        const account = await register();
        const other = await signIn(account);
        const userId = account.user.id;
        expect((await call('POST', '/api/paymentmethods', { token: account.token, body: CARD })).status).toBe(201);
        expect(
          (
            await call('PUT', '/api/preferences', {
              token: account.token,
              body: { marketingEmails: true, orderUpdateEmails: false, preferredContactMethod: 'sms' },
            })
          ).status,
        ).toBe(200);
        expect((await call('PUT', `/api/wishlist/${productIds[0]}`, { token: account.token })).status).toBe(204);

        const answer = await call('DELETE', '/api/users/account', {
          token: account.token,
          body: { currentPassword: account.password },
        });
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({ message: 'Your account has been deleted' });
        expect(setCookie(answer)).toContain('harbour_session=; Max-Age=0');

        expect(await profileStatus(account.token)).toBe(401);
        expect(await profileStatus(other)).toBe(401);
        const signIn401 = await login(account.email, account.password);
        expect(signIn401.status).toBe(401);
        expect(signIn401.body).toEqual({ message: ACCOUNT_MESSAGES.invalidCredentials });

        const { db } = shop.database;
        expect(await db.$count(users, eq(users.id, userId))).toBe(0);
        expect(await db.$count(users, eq(users.email, account.email))).toBe(0);
        expect(await db.$count(addresses, eq(addresses.userId, userId))).toBe(0);
        expect(await db.$count(paymentMethods, eq(paymentMethods.userId, userId))).toBe(0);
        expect(await db.$count(userPreferences, eq(userPreferences.userId, userId))).toBe(0);
        expect(await db.$count(wishlistItems, eq(wishlistItems.userId, userId))).toBe(0);
        expect(await db.$count(sessions, eq(sessions.userId, userId))).toBe(0);

        // The e-mail is free again.
        expect(
          (await call('POST', '/api/auth/register', { body: registerBody({ email: account.email }) })).status,
        ).toBe(201);
      });
    });

    describe('/api/addresses', () => {
      let account: Account;
      let other: Account;
      beforeAll(async () => {
        [account, other] = await Promise.all([register(), register({ firstName: 'Bob' })]);
        const [registration] = (await call<Address[]>('GET', '/api/addresses', { token: account.token })).body;
        expect((await call('DELETE', `/api/addresses/${registration?.id}`, { token: account.token })).status).toBe(204);
      });

      const list = async () => {
        const answer = await call<Address[]>('GET', '/api/addresses', { token: account.token });
        expect(answer.status).toBe(200);
        return answer.body;
      };
      const defaults = async () => (await list()).filter((address) => address.isDefault).map((address) => address.id);

      it('adds the first address as the default, and later ones not', async () => {
        expect(await list()).toEqual([]);
        const first = await call<Address>('POST', '/api/addresses', { token: account.token, body: HOME });
        expect(first.status).toBe(201);
        expect(first.body).toEqual({ id: expect.any(Number), ...HOME, addressLine2: null, isDefault: true });
        const second = await call<Address>('POST', '/api/addresses', {
          token: account.token,
          body: { ...HOME, addressType: 'Work', addressLine1: '9 Dock Road', addressLine2: 'Level 2' },
        });
        expect(second.status).toBe(201);
        expect(second.body).toMatchObject({ addressType: 'Work', addressLine2: 'Level 2', isDefault: false });
        expect((await list()).map((address) => address.id)).toEqual([first.body.id, second.body.id]);
      });

      it('moves the default with set-default and with isDefault on add or change', async () => {
        const [first, second] = await list();
        const moved = await call<Address>('POST', `/api/addresses/${second?.id}/set-default`, { token: account.token });
        expect(moved.status).toBe(200);
        expect(moved.body).toEqual({ ...second, isDefault: true });
        expect(await defaults()).toEqual([second?.id]);

        const third = await call<Address>('POST', '/api/addresses', {
          token: account.token,
          body: { ...HOME, addressType: 'Other', isDefault: true },
        });
        expect(third.status).toBe(201);
        expect(third.body.isDefault).toBe(true);
        expect(await defaults()).toEqual([third.body.id]);

        const changed = await call<Address>('PUT', `/api/addresses/${first?.id}`, {
          token: account.token,
          body: { ...HOME, city: 'Parramatta', isDefault: true },
        });
        expect(changed.status).toBe(200);
        expect(changed.body).toMatchObject({ id: first?.id, city: 'Parramatta', isDefault: true });
        expect(await defaults()).toEqual([first?.id]);
        // Default first, then newest.
        expect((await list()).map((address) => address.id)).toEqual([first?.id, third.body.id, second?.id]);
      });

      it('keeps the default when a change does not mention it', async () => {
        const [current] = await list();
        const changed = await call<Address>('PUT', `/api/addresses/${current?.id}`, {
          token: account.token,
          body: { ...HOME, fullName: 'Ann M. Lee' },
        });
        expect(changed.status).toBe(200);
        expect(changed.body).toMatchObject({ fullName: 'Ann M. Lee', isDefault: true });
      });

      it('makes the newest remaining address the default when the default is deleted', async () => {
        const before = await list();
        const [theDefault, ...rest] = before;
        const newestOther = Math.max(...rest.map((address) => address.id));
        const removed = await call('DELETE', `/api/addresses/${theDefault?.id}`, { token: account.token });
        expect(removed.status).toBe(204);
        expect(removed.text).toBe('');
        expect(await defaults()).toEqual([newestOther]);
        expect((await list()).map((address) => address.id).sort()).toEqual(rest.map((address) => address.id).sort());
      });

      it('deletes a non-default address without moving the default', async () => {
        const before = await list();
        const notDefault = before.find((address) => !address.isDefault);
        expect((await call('DELETE', `/api/addresses/${notDefault?.id}`, { token: account.token })).status).toBe(204);
        expect(await defaults()).toEqual([before[0]?.id]);
      });

      it.each(COUNTRIES)('accepts %s', async (country) => {
        const answer = await call<Address>('POST', '/api/addresses', {
          token: other.token,
          body: { ...HOME, country },
        });
        expect(answer.status).toBe(201);
        expect(answer.body.country).toBe(country);
      });

      it.each([
        ['addressType', undefined, 'Address type is required'],
        ['addressType', '', 'Address type is required'],
        ['addressType', 'Castle', 'Address type must be Home, Work or Other'],
        ['fullName', '', 'Full name is required'],
        ['addressLine1', undefined, 'Address is required'],
        ['city', ' ', 'City is required'],
        ['city', 'Syd\u0000ney', 'City contains a character that is not allowed'],
        ['state', undefined, 'State is required'],
        ['postalCode', '', 'Postal code is required'],
        ['country', undefined, 'Country is required'],
        ['country', 'New Zealand', COUNTRY_CHOICES],
        ['phoneNumber', '12', 'Please enter a valid phone number, e.g. 0412 345 678'],
      ])('answers 400 when %s is %j', async (field, value, message) => {
        const body: Record<string, unknown> = { ...HOME };
        if (value === undefined) delete body[field];
        else body[field] = value;
        const before = await shop.database.db.$count(addresses, eq(addresses.userId, account.user.id));
        const answer = await call('POST', '/api/addresses', { token: account.token, body });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ message: `Invalid field: ${field}`, errors: { [field]: [message] } });
        expect(await shop.database.db.$count(addresses, eq(addresses.userId, account.user.id))).toBe(before);
      });

      it('answers 404 for an id that does not exist and 400 for one that is not an id', async () => {
        for (const [method, url] of [
          ['PUT', '/api/addresses/2147483647'],
          ['DELETE', '/api/addresses/2147483647'],
          ['POST', '/api/addresses/2147483647/set-default'],
        ] as const) {
          const answer = await call(method, url, { token: account.token, ...(method === 'PUT' ? { body: HOME } : {}) });
          expect(answer.status).toBe(404);
          expect(answer.body).toEqual({ message: 'Address not found' });
        }
        const notAnId = await call('DELETE', '/api/addresses/abc', { token: account.token });
        expect(notAnId.status).toBe(400);
        expect(notAnId.body).toEqual({
          message: 'Invalid path parameter: id',
          errors: { id: ['Must be a positive whole number'] },
        });
      });

      it('answers 404, never the record, for another shopper’s address, and leaves it as it was', async () => {
        const [theirs] = (await call<Address[]>('GET', '/api/addresses', { token: other.token })).body;
        expect(theirs).toBeDefined();
        const [rowBefore] = await shop.database.db
          .select()
          .from(addresses)
          .where(eq(addresses.id, theirs?.id ?? 0));
        for (const [method, url] of [
          ['PUT', `/api/addresses/${theirs?.id}`],
          ['POST', `/api/addresses/${theirs?.id}/set-default`],
          ['DELETE', `/api/addresses/${theirs?.id}`],
        ] as const) {
          const answer = await call(method, url, {
            token: account.token,
            ...(method === 'PUT' ? { body: { ...HOME, city: 'Hijacked' } } : {}),
          });
          expect(answer.status).toBe(404);
          expect(answer.body).toEqual({ message: 'Address not found' });
        }
        const [rowAfter] = await shop.database.db
          .select()
          .from(addresses)
          .where(eq(addresses.id, theirs?.id ?? 0));
        expect(rowAfter).toEqual(rowBefore);
        expect((await list()).some((address) => address.id === theirs?.id)).toBe(false);
      });
    });

    describe('/api/paymentmethods', () => {
      let account: Account;
      let other: Account;
      beforeAll(async () => {
        [account, other] = await Promise.all([register(), register({ firstName: 'Bob' })]);
      });

      const list = async (token = account.token) => {
        const answer = await call<PaymentMethod[]>('GET', '/api/paymentmethods', { token });
        expect(answer.status).toBe(200);
        return answer.body;
      };
      const storedRows = () =>
        shop.database.db.select().from(paymentMethods).where(eq(paymentMethods.userId, account.user.id));

      it('adds, changes, moves the default and deletes payment methods', async () => {
        expect(await list()).toEqual([]);
        const first = await call<PaymentMethod>('POST', '/api/paymentmethods', { token: account.token, body: CARD });
        expect(first.status).toBe(201);
        expect(first.body).toEqual({ id: expect.any(Number), ...CARD, isDefault: true });

        const { paymentMethodId: _ref, ...withoutRef } = CARD;
        const second = await call<PaymentMethod>('POST', '/api/paymentmethods', {
          token: account.token,
          body: { ...withoutRef, provider: 'MasterCard', last4Digits: '0005', expiryYear: String(THIS_YEAR + 1) },
        });
        expect(second.status).toBe(201);
        expect(second.body).toEqual({
          id: expect.any(Number),
          ...withoutRef,
          provider: 'MasterCard',
          last4Digits: '0005',
          expiryYear: THIS_YEAR + 1,
          paymentMethodId: null,
          isDefault: false,
        });

        const moved = await call<PaymentMethod>('POST', `/api/paymentmethods/${second.body.id}/set-default`, {
          token: account.token,
        });
        expect(moved.status).toBe(200);
        expect(moved.body.isDefault).toBe(true);
        expect((await list()).map((method) => [method.id, method.isDefault])).toEqual([
          [second.body.id, true],
          [first.body.id, false],
        ]);

        const changed = await call<PaymentMethod>('PUT', `/api/paymentmethods/${first.body.id}`, {
          token: account.token,
          body: { ...CARD, expiryMonth: '12', expiryYear: THIS_YEAR + 9 },
        });
        expect(changed.status).toBe(200);
        expect(changed.body).toEqual({ ...first.body, expiryMonth: '12', expiryYear: THIS_YEAR + 9, isDefault: false });

        expect((await call('DELETE', `/api/paymentmethods/${second.body.id}`, { token: account.token })).status).toBe(
          204,
        );
        expect(await list()).toEqual([{ ...changed.body, isDefault: true }]);
      });

      it.each([
        ['last4Digits', undefined, 'Last 4 digits are required'],
        ['last4Digits', '', 'Last 4 digits are required'],
        ['last4Digits', '123', 'Last 4 digits must be exactly 4 digits'],
        ['last4Digits', '12345', 'Last 4 digits must be exactly 4 digits'],
        ['last4Digits', '12a4', 'Last 4 digits must be exactly 4 digits'],
        ['expiryMonth', undefined, 'Expiry month is required'],
        ['expiryMonth', '', 'Expiry month is required'],
        ['expiryMonth', '00', 'Expiry month must be 01 to 12'],
        ['expiryMonth', '13', 'Expiry month must be 01 to 12'],
        ['expiryMonth', '7', 'Expiry month must be 01 to 12'],
        ['expiryYear', undefined, 'Expiry year is required'],
        ['expiryYear', THIS_YEAR - 1, 'Expiry year must be this year or one of the next 9'],
        ['expiryYear', THIS_YEAR + 10, 'Expiry year must be this year or one of the next 9'],
        ['paymentType', undefined, 'Payment type is required'],
        ['paymentType', 'Cheque', 'Payment type must be one of Credit Card, Debit Card, PayPal, Bank Transfer'],
        ['provider', '', 'Provider is required'],
        ['provider', 'Diners', 'Provider must be one of Visa, MasterCard, American Express, Discover, PayPal'],
      ])('answers 400 when %s is %j', async (field, value, message) => {
        const body: Record<string, unknown> = { ...CARD };
        if (value === undefined) delete body[field];
        else body[field] = value;
        const before = (await storedRows()).length;
        const answer = await call('POST', '/api/paymentmethods', { token: account.token, body });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ message: `Invalid field: ${field}`, errors: { [field]: [message] } });
        expect((await storedRows()).length).toBe(before);
      });

      it.each([THIS_YEAR, THIS_YEAR + 9])('accepts the expiry year %i', async (expiryYear) => {
        const answer = await call<PaymentMethod>('POST', '/api/paymentmethods', {
          token: other.token,
          body: { ...CARD, expiryYear, expiryMonth: '01' },
        });
        expect(answer.status).toBe(201);
        expect(answer.body.expiryYear).toBe(expiryYear);
      });

      const CARD_NUMBER = '4242424242424242';
      it.each([
        ['cardNumber', { cardNumber: CARD_NUMBER }],
        ['cvv', { cvv: '123' }],
        ['CVC', { CVC: '123' }],
        ['card_number', { card_number: '4242 4242 4242 4242' }],
        ['securityCode', { securityCode: '123' }],
        ['note', { note: '4242-4242-4242-4242' }],
        ['paymentMethodId', { paymentMethodId: CARD_NUMBER }],
        ['cardData', { cardData: { Number: CARD_NUMBER, Expiry: '07/29', Cvc: '123', Name: 'Ann Lee' } }],
        ['card.number', { card: { number: CARD_NUMBER, cvc: '123' } }],
        ['extra.0', { extra: [CARD_NUMBER] }],
        ['note', { note: 4242424242424242 }],
      ])('refuses a body carrying a card number or security code (%s) and stores nothing', async (field, extra) => {
        const before = await storedRows();
        const added = await call('POST', '/api/paymentmethods', { token: account.token, body: { ...CARD, ...extra } });
        expect(added.status).toBe(400);
        expect(added.body.errors?.[field]).toContain(ACCOUNT_MESSAGES.cardDataRefused);
        expect(added.text).not.toContain(CARD_NUMBER);
        expect(added.text).not.toContain('4242 4242');

        const existing = before[0]?.id ?? 2147483647;
        const changed = await call('PUT', `/api/paymentmethods/${existing}`, {
          token: account.token,
          body: { ...CARD, ...extra },
        });
        expect(changed.status).toBe(400);

        const after = await storedRows();
        expect(after).toEqual(before);
        const everything = JSON.stringify(await shop.database.db.select().from(paymentMethods));
        expect(everything).not.toMatch(/4242\D?4242\D?4242/);
      });

      it('answers 404 for an unknown id and for another shopper’s payment method, leaving it as it was', async () => {
        const [theirs] = await list(other.token);
        expect(theirs).toBeDefined();
        const [rowBefore] = await shop.database.db
          .select()
          .from(paymentMethods)
          .where(eq(paymentMethods.id, theirs?.id ?? 0));
        for (const id of [theirs?.id, 2147483647]) {
          for (const [method, url] of [
            ['PUT', `/api/paymentmethods/${id}`],
            ['POST', `/api/paymentmethods/${id}/set-default`],
            ['DELETE', `/api/paymentmethods/${id}`],
          ] as const) {
            const answer = await call(method, url, {
              token: account.token,
              ...(method === 'PUT' ? { body: { ...CARD, last4Digits: '9999' } } : {}),
            });
            expect(answer.status).toBe(404);
            expect(answer.body).toEqual({ message: 'Payment method not found' });
          }
        }
        const [rowAfter] = await shop.database.db
          .select()
          .from(paymentMethods)
          .where(eq(paymentMethods.id, theirs?.id ?? 0));
        expect(rowAfter).toEqual(rowBefore);
      });
    });

    describe('GET and PUT /api/preferences', () => {
      let account: Account;
      beforeAll(async () => {
        account = await register();
      });

      it('answers the defaults until saved, then the saved choices', async () => {
        const defaults = await call('GET', '/api/preferences', { token: account.token });
        expect(defaults.status).toBe(200);
        expect(defaults.body).toEqual({
          marketingEmails: false,
          orderUpdateEmails: true,
          preferredContactMethod: 'email',
        });

        const choices = { marketingEmails: true, orderUpdateEmails: false, preferredContactMethod: 'phone' };
        const saved = await call('PUT', '/api/preferences', { token: account.token, body: choices });
        expect(saved.status).toBe(200);
        expect(saved.body).toEqual(choices);
        expect((await call('GET', '/api/preferences', { token: account.token })).body).toEqual(choices);

        const again = { ...choices, preferredContactMethod: 'sms' };
        expect((await call('PUT', '/api/preferences', { token: account.token, body: again })).status).toBe(200);
        expect((await call('GET', '/api/preferences', { token: account.token })).body).toEqual(again);
      });

      it.each([
        [
          'preferredContactMethod',
          { preferredContactMethod: 'pigeon' },
          'Preferred contact method must be one of email, phone, sms',
        ],
        [
          'preferredContactMethod',
          { preferredContactMethod: undefined },
          'Preferred contact method must be one of email, phone, sms',
        ],
        ['marketingEmails', { marketingEmails: 'yes' }, 'marketingEmails must be true or false'],
        ['orderUpdateEmails', { orderUpdateEmails: undefined }, 'orderUpdateEmails must be true or false'],
      ])('answers 400 for a bad %s', async (field, change, message) => {
        const before = (await call('GET', '/api/preferences', { token: account.token })).body;
        const body = { marketingEmails: false, orderUpdateEmails: true, preferredContactMethod: 'email', ...change };
        const answer = await call('PUT', '/api/preferences', { token: account.token, body });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ message: `Invalid field: ${field}`, errors: { [field]: [message] } });
        expect((await call('GET', '/api/preferences', { token: account.token })).body).toEqual(before);
      });
    });

    describe('/api/wishlist', () => {
      let account: Account;
      beforeAll(async () => {
        account = await register();
      });
      const ids = async () => {
        const answer = await call<{ id: number; name: string }[]>('GET', '/api/wishlist', { token: account.token });
        expect(answer.status).toBe(200);
        return answer.body.map((product) => product.id);
      };

      it('adds with PUT (twice is once), lists the products oldest first and removes with DELETE', async () => {
        const [first, second] = productIds;
        expect(await ids()).toEqual([]);
        for (const id of [first, second, first]) {
          const answer = await call('PUT', `/api/wishlist/${id}`, { token: account.token });
          expect(answer.status).toBe(204);
          expect(answer.text).toBe('');
        }
        const listed = await call<{ id: number; name: string }[]>('GET', '/api/wishlist', { token: account.token });
        expect(listed.body.map((product) => product.id)).toEqual([first, second]);
        expect(listed.body[0]?.name).toEqual(expect.any(String));

        expect((await call('DELETE', `/api/wishlist/${first}`, { token: account.token })).status).toBe(204);
        expect(await ids()).toEqual([second]);
        // Removing what is not there is not an error.
        expect((await call('DELETE', `/api/wishlist/${first}`, { token: account.token })).status).toBe(204);
      });

      it('merges hearts made while signed out with POST, skipping duplicates and unknown products', async () => {
        const [, second, third, fourth] = productIds;
        const answer = await call('POST', '/api/wishlist', {
          token: account.token,
          body: { productIds: [third, fourth, third, second, 2147483647] },
        });
        expect(answer.status).toBe(204);
        expect((await ids()).sort((a, b) => a - b)).toEqual(
          [second, third, fourth].sort((a, b) => (a ?? 0) - (b ?? 0)),
        );
        expect((await call('POST', '/api/wishlist', { token: account.token, body: { productIds: [] } })).status).toBe(
          204,
        );
      });

      it('answers 404 for an unknown product and 400 for something that is not an id', async () => {
        const before = await ids();
        const unknown = await call('PUT', '/api/wishlist/2147483647', { token: account.token });
        expect(unknown.status).toBe(404);
        expect(unknown.body).toEqual({ message: 'Product not found' });
        const onlyUnknown = await call('POST', '/api/wishlist', {
          token: account.token,
          body: { productIds: [2147483646, 2147483647] },
        });
        expect(onlyUnknown.status).toBe(404);
        expect(onlyUnknown.body).toEqual({ message: 'Product not found' });
        const notAnId = await call('PUT', '/api/wishlist/0', { token: account.token });
        expect(notAnId.status).toBe(400);
        expect(notAnId.body).toEqual({
          message: 'Invalid path parameter: productId',
          errors: { productId: ['Must be a positive whole number'] },
        });
        const badList = await call('POST', '/api/wishlist', { token: account.token, body: { productIds: ['1'] } });
        expect(badList.status).toBe(400);
        expect(badList.body.message).toBe('Invalid field: productIds.0');
        expect(await ids()).toEqual(before);
      });

      it('keeps each shopper’s wishlist to themselves', async () => {
        const someoneElse = await register();
        expect((await call('GET', '/api/wishlist', { token: someoneElse.token })).body).toEqual([]);
        expect((await call('DELETE', `/api/wishlist/${productIds[1]}`, { token: someoneElse.token })).status).toBe(204);
        expect(await ids()).toContain(productIds[1]);
      });
    });

    describe('signed out, revoked and expired sessions', () => {
      const PROTECTED: [Method, string][] = [
        ['POST', '/api/auth/logout'],
        ['GET', '/api/users/profile'],
        ['PUT', '/api/users/profile'],
        ['POST', '/api/users/change-password'],
        ['DELETE', '/api/users/account'],
        ['GET', '/api/preferences'],
        ['PUT', '/api/preferences'],
        ['GET', '/api/wishlist'],
        ['POST', '/api/wishlist'],
        ['PUT', '/api/wishlist/1'],
        ['DELETE', '/api/wishlist/1'],
        ['GET', '/api/addresses'],
        ['POST', '/api/addresses'],
        ['PUT', '/api/addresses/1'],
        ['DELETE', '/api/addresses/1'],
        ['POST', '/api/addresses/1/set-default'],
        ['GET', '/api/paymentmethods'],
        ['POST', '/api/paymentmethods'],
        ['PUT', '/api/paymentmethods/1'],
        ['DELETE', '/api/paymentmethods/1'],
        ['POST', '/api/paymentmethods/1/set-default'],
      ];
      const bodyFor = (method: Method) => (method === 'POST' || method === 'PUT' ? {} : undefined);

      async function expectSignedOut(credentials: {
        token?: string;
        cookie?: string;
        headers?: Record<string, string>;
      }) {
        for (const [method, url] of PROTECTED) {
          const answer = await call(method, url, { ...credentials, body: bodyFor(method) });
          expect(answer.status, `${method} ${url}`).toBe(401);
          expect(answer.body, `${method} ${url}`).toEqual({ message: ACCOUNT_MESSAGES.signedOut });
          expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
        }
      }

      it('answers 401 JSON on every account route without a token', async () => {
        await expectSignedOut({});
      });

      it('answers 401 for a token that is unknown, malformed or sent with another scheme', async () => {
        await expectSignedOut({ token: 'x'.repeat(43) });
        await expectSignedOut({ token: 'short' });
        await expectSignedOut({ headers: { authorization: 'Basic YW5uOnBhc3N3b3Jk' } });
        await expectSignedOut({ cookie: 'x'.repeat(43) });
      });

      it('answers 401 for a revoked token', async () => {
        const account = await register();
        expect((await call('POST', '/api/auth/logout', { token: account.token })).status).toBe(200);
        await expectSignedOut({ token: account.token });
      });

      it('answers 401 for an expired token and forgets the session; an expired cookie is cleared', async () => {
        const account = await register();
        const cookieToken = await signIn(account);
        await shop.database.db
          .update(sessions)
          .set({ expiresAt: new Date(Date.now() - 60_000) })
          .where(inArray(sessions.id, [hashToken(account.token), hashToken(cookieToken)]));

        const bearer = await call('GET', '/api/users/profile', { token: account.token });
        expect(bearer.status).toBe(401);
        expect(bearer.body).toEqual({ message: ACCOUNT_MESSAGES.signedOut });
        const byCookie = await call('GET', '/api/users/profile', { cookie: cookieToken });
        expect(byCookie.status).toBe(401);
        expect(setCookie(byCookie)).toContain('harbour_session=; Max-Age=0');
        expect(await shop.database.db.$count(sessions, eq(sessions.userId, account.user.id))).toBe(0);
        await expectSignedOut({ token: account.token });
      });

      it('extends a session used after a day (sliding expiry) and re-sends the cookie', async () => {
        const account = await register();
        const id = hashToken(account.token);
        const dayAgo = new Date(Date.now() - 25 * 3_600_000);
        const soon = new Date(Date.now() + 5 * 86_400_000);
        await shop.database.db.update(sessions).set({ lastSeenAt: dayAgo, expiresAt: soon }).where(eq(sessions.id, id));

        const answer = await call('GET', '/api/users/profile', { cookie: account.token });
        expect(answer.status).toBe(200);
        expect(setCookie(answer)).toContain(`harbour_session=${account.token};`);
        const [row] = await shop.database.db.select().from(sessions).where(eq(sessions.id, id));
        const days = ((row?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
        expect(days).toBeGreaterThan(29);

        // Used again within the day, by a browser that kept what it was sent: no write, no cookie.
        expect(setCookie(answer)).toContain('harbour_signed_in=1;');
        const next = await shop.app.inject({
          method: 'GET',
          url: '/api/users/profile',
          headers: { cookie: `harbour_session=${account.token}; harbour_signed_in=1` },
        });
        expect(next.statusCode).toBe(200);
        expect(next.headers['set-cookie']).toBeUndefined();
      });
    });
  });
}
