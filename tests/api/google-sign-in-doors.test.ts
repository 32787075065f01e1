import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../contracts/account-fields.ts';
import { sessions, users } from '../../db/schema.ts';
import { hashToken } from '../../server/domain/tokens.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/*
 * Issue 21 through the real "Continue with Google" pages (needs `npm run build`), against a
 * local OpenID Connect provider: a Google sign-in takes an e-mail back from whoever registered
 * it first, and "Confirm with Google" proves the current session again without a new one.
 */

const built = existsSync(resolve('build/server/index.js'));
const GOOGLE_EMAIL = `google.doors.${Date.now()}@example.com`;
const PUBLIC_URL = 'http://localhost:4581';

/** The value of one cookie among a response's Set-Cookie headers, or undefined. */
function cookieValue(setCookie: string | string[] | undefined, name: string): string | undefined {
  const lines = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  for (const line of lines) {
    const [pair = ''] = line.split(';');
    const [key, ...rest] = pair.split('=');
    if (key?.trim() === name) return rest.join('=');
  }
  return undefined;
}

describe.skipIf(!built)('Google sign-in and the account doors (needs `npm run build`)', () => {
  let shop: TestShop;
  let provider: OAuth2Server;

  beforeAll(async () => {
    provider = new OAuth2Server();
    await provider.issuer.keys.generate('RS256');
    provider.service.on('beforeTokenSigning', (token) => {
      token.payload.email = GOOGLE_EMAIL;
      token.payload.email_verified = true;
      token.payload.given_name = 'Gale';
      token.payload.family_name = 'Owner';
    });
    await provider.start(0, '127.0.0.1');
    shop = await createTestShop('pglite', {
      products: 1,
      storefront: true,
      env: {
        PUBLIC_URL,
        GOOGLE_CLIENT_ID: 'harbour-doors-client',
        GOOGLE_CLIENT_SECRET: 'harbour-doors-secret',
        GOOGLE_ISSUER_URL: provider.issuer.url ?? '',
      },
    });
  });
  afterAll(async () => {
    await shop?.app.services.mailer.idle();
    await shop?.close();
    await provider?.stop();
  });

  /**
   * Runs the whole flow as a browser would: /auth/google, the provider's authorize endpoint
   * (which answers at once for its one user), then the shop's callback. Returns the callback's answer.
   */
  async function googleFlow(redirectTo: string, sessionToken?: string) {
    const cookie = sessionToken ? `harbour_session=${sessionToken}` : '';
    const start = await shop.app.inject({
      method: 'GET',
      url: `/auth/google?redirectTo=${encodeURIComponent(redirectTo)}`,
      headers: cookie ? { cookie } : {},
    });
    expect(start.statusCode).toBe(302);
    const oauth = cookieValue(start.headers['set-cookie'], 'harbour_oauth');
    expect(oauth).toBeTruthy();
    const authorize = await fetch(String(start.headers.location), { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location') ?? '');
    expect(back.pathname).toBe('/auth/google/callback');
    return shop.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: [cookie, `harbour_oauth=${oauth}`].filter(Boolean).join('; ') },
    });
  }

  const api = (method: 'GET' | 'DELETE', url: string, token: string, body?: Record<string, unknown>) =>
    shop.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(body ? { payload: body } : {}),
    });

  let googleSession = '';

  it("takes the e-mail back from whoever registered it first: the attacker's session and password stop working", async () => {
    const registered = await shop.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        firstName: 'Gale',
        lastName: 'Owner',
        email: GOOGLE_EMAIL,
        password: 'Attacker-Chose-This-1',
        phoneNumber: '0412 345 678',
        address: { addressLine1: '1 Any St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'Australia' },
      },
    });
    expect(registered.statusCode).toBe(201);
    const attacker = (registered.json() as { token: string }).token;

    const callback = await googleFlow('/profile');
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/profile');
    googleSession = cookieValue(callback.headers['set-cookie'], 'harbour_session') ?? '';
    expect(googleSession).toBeTruthy();

    expect((await api('GET', '/api/users/profile', attacker)).statusCode).toBe(401);
    const attackerSignIn = await shop.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: GOOGLE_EMAIL, password: 'Attacker-Chose-This-1' },
    });
    expect(attackerSignIn.statusCode).toBe(401);
    expect((await api('GET', '/api/users/profile', googleSession)).statusCode).toBe(200);
    const [row] = await shop.database.db.select().from(users).where(eq(users.email, GOOGLE_EMAIL));
    expect(row?.passwordHash).toBeNull();
  });

  it('"Confirm with Google" proves this session again (no new one) so a Google-only account can delete itself', async () => {
    expect(googleSession).toBeTruthy();
    await shop.database.db
      .update(sessions)
      .set({ provenAt: new Date(Date.now() - 20 * 60_000) })
      .where(eq(sessions.id, hashToken(googleSession)));
    const stale = await api('DELETE', '/api/users/account', googleSession, {});
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ message: ACCOUNT_MESSAGES.confirmWithGoogle });

    const page = await shop.app.inject({
      method: 'GET',
      url: '/account-settings?tab=danger',
      headers: { cookie: `harbour_session=${googleSession}` },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Confirm with Google');
    expect(page.body).toContain('Set a password');
    expect(page.body).not.toContain('Delete My Account');

    const callback = await googleFlow('/account-settings?tab=danger', googleSession);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/account-settings?tab=danger');
    expect(cookieValue(callback.headers['set-cookie'], 'harbour_session')).toBeUndefined();

    const confirmed = await shop.app.inject({
      method: 'GET',
      url: '/account-settings?tab=danger',
      headers: { cookie: `harbour_session=${googleSession}` },
    });
    expect(confirmed.body).toContain('Delete My Account');
    expect((await api('DELETE', '/api/users/account', googleSession, {})).statusCode).toBe(200);
  });
});
