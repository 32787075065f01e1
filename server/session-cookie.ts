import { parseCookie, parseSetCookie, stringifySetCookie } from 'cookie';

/**
 * The web storefront's carrier for the session token: httpOnly (scripts cannot read it),
 * SameSite=Lax (not sent on cross-site posts), Secure and `__Host-` prefixed when the shop
 * is served over https. API clients send the same token as `Authorization: Bearer`.
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-harbour_session' : 'harbour_session';
}

export function isSecureOrigin(publicUrl: string | undefined): boolean {
  return publicUrl?.startsWith('https:') === true;
}

export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  return stringifySetCookie({
    name: sessionCookieName(secure),
    value: token,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    expires: expiresAt,
  });
}

/** An httpOnly cookie of the shop's, removed. */
function clearedCookie(name: string, secure: boolean, path = '/'): string {
  return stringifySetCookie({ name, value: '', httpOnly: true, sameSite: 'lax', secure, path, maxAge: 0 });
}

export function clearedSessionCookie(secure: boolean): string {
  return clearedCookie(sessionCookieName(secure), secure);
}

/**
 * A cookie the page's scripts may read, sent beside the session cookie: `1` for as long as the
 * session cookie lives, cleared with it. It holds no secret and grants nothing. Catalogue pages
 * are served to everyone from the shared page cache, signed in or not (app/lib/account-summary.ts):
 * this is how such a page knows to ask for its shopper's account menu, points and hearts.
 */
export function signedInHintName(secure: boolean): string {
  return secure ? '__Host-harbour_signed_in' : 'harbour_signed_in';
}

/**
 * The hint to send with these Set-Cookie values: set with the session cookie's expiry when
 * they set it, cleared when they clear it, null when they do not touch it (or already carry it).
 */
export function signedInHintFor(setCookies: readonly string[], secure: boolean): string | null {
  const session = `${sessionCookieName(secure)}=`;
  const hint = signedInHintName(secure);
  if (setCookies.some((value) => value.startsWith(`${hint}=`))) return null;
  const sessionCookie = setCookies.find((value) => value.startsWith(session));
  if (!sessionCookie) return null;
  const { value, expires, maxAge } = parseSetCookie(sessionCookie);
  const signedIn = value !== '' && maxAge !== 0;
  return stringifySetCookie({
    name: hint,
    value: signedIn ? '1' : '',
    sameSite: 'lax',
    secure,
    path: '/',
    ...(signedIn ? { ...(expires ? { expires } : {}), ...(maxAge !== undefined ? { maxAge } : {}) } : { maxAge: 0 }),
  });
}

/** Whether a request's Cookie header carries the signed-in hint. */
export function carriesSignedInHint(cookieHeader: string | undefined, secure: boolean): boolean {
  return cookieHeader !== undefined && parseCookie(cookieHeader)[signedInHintName(secure)] === '1';
}

/** The hint for a live session that arrived without one (a session older than the hint, say). */
export function signedInHint(expiresAt: Date, secure: boolean): string {
  return stringifySetCookie({
    name: signedInHintName(secure),
    value: '1',
    sameSite: 'lax',
    secure,
    path: '/',
    expires: expiresAt,
  });
}

/** The session token a request carries: the bearer token if it sends one, else the cookie. */
export function readSessionToken(
  headers: { authorization?: string | undefined; cookie?: string | undefined },
  secure: boolean,
): {
  token: string;
  carrier: 'bearer' | 'cookie';
} | null {
  const authorization = headers.authorization;
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1] ? { token: match[1], carrier: 'bearer' } : null;
  }
  if (!headers.cookie) return null;
  const token = parseCookie(headers.cookie)[sessionCookieName(secure)];
  return token ? { token, carrier: 'cookie' } : null;
}

/** The short-lived cookie that carries a Google sign-in's state, nonce and PKCE verifier to the callback. */
const OAUTH_COOKIE = 'harbour_oauth';

export function oauthCookie(value: string, secure: boolean): string {
  return stringifySetCookie({
    name: OAUTH_COOKIE,
    value,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/auth/google',
    maxAge: 600,
  });
}

export function clearedOauthCookie(secure: boolean): string {
  return clearedCookie(OAUTH_COOKIE, secure, '/auth/google');
}

export function readOauthCookie(cookieHeader: string | null): string | undefined {
  return cookieHeader ? parseCookie(cookieHeader)[OAUTH_COOKIE] : undefined;
}

/**
 * Between a right password and the second factor's code (staff with two-step sign-in): the
 * challenge token, httpOnly, for the 5 minutes the challenge lives. Useless without a code.
 */
export function secondFactorCookieName(secure: boolean): string {
  return secure ? '__Host-harbour_second_factor' : 'harbour_second_factor';
}

export function secondFactorCookie(challenge: string, expiresAt: Date, secure: boolean): string {
  return stringifySetCookie({
    name: secondFactorCookieName(secure),
    value: challenge,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    expires: expiresAt,
  });
}

export function clearedSecondFactorCookie(secure: boolean): string {
  return clearedCookie(secondFactorCookieName(secure), secure);
}

export function readSecondFactorCookie(cookieHeader: string | null, secure: boolean): string | undefined {
  return cookieHeader ? parseCookie(cookieHeader)[secondFactorCookieName(secure)] : undefined;
}
