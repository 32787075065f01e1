import { data, redirect } from 'react-router';
import type { PendingGoogleSignIn } from '../../server/domain/google-sign-in.ts';
import { clearedOauthCookie, readOauthCookie, sessionCookie } from '../../server/session-cookie.ts';
import { requestContext } from '../lib/request-context.ts';
import { publicOrigin } from '../lib/seo.ts';
import { returnTarget } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/auth-google-callback';

function readPending(cookieHeader: string | null): PendingGoogleSignIn | null {
  const raw = readOauthCookie(cookieHeader);
  if (!raw) return null;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<PendingGoogleSignIn>;
    if (typeof value.state !== 'string' || typeof value.nonce !== 'string' || typeof value.codeVerifier !== 'string') {
      return null;
    }
    return {
      state: value.state,
      nonce: value.nonce,
      codeVerifier: value.codeVerifier,
      redirectTo: String(value.redirectTo ?? ''),
    };
  } catch {
    return null;
  }
}

/**
 * Where Google sends the browser back: checks state, nonce and PKCE, finds or creates the
 * account (linked by Google's subject, else by the verified e-mail, which removes a password
 * someone else may have set: accounts.findOrCreateGoogleUser) and signs it in. A shopper
 * already signed in as that account came to confirm a step ("Confirm with Google"): the
 * session is marked as proven by Google now, and no new one starts.
 * Any failure goes back to /login with a notice; nothing half-done is kept.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { googleSignIn, accounts, shop } = context.get(shopContext);
  if (!googleSignIn) throw data('Google sign-in is not available', { status: 404 });
  const { secureCookies, viewer, clientAddress } = context.get(requestContext);
  const pending = readPending(request.headers.get('cookie'));
  const headers = new Headers({ 'Set-Cookie': clearedOauthCookie(secureCookies) });
  if (!pending) return redirect('/login?notice=google', { headers });
  try {
    const url = new URL(request.url);
    const callback = new URL(`${publicOrigin(shop)}/auth/google/callback${url.search}`);
    const claims = await googleSignIn.finish(callback, pending);
    const userId = await accounts.findOrCreateGoogleUser(claims, { address: clientAddress });
    // Linking a password account by its e-mail ends its sessions, this one included: then a
    // new session starts below rather than leaving the shopper signed out.
    if (viewer?.user.id === userId && (await accounts.proveSessionWithGoogle(userId, viewer.sessionId))) {
      return redirect(returnTarget(pending.redirectTo), { headers });
    }
    const signedIn = await accounts.startSession(
      userId,
      { userAgent: request.headers.get('user-agent') ?? undefined, address: clientAddress },
      'google',
    );
    headers.append('Set-Cookie', sessionCookie(signedIn.token, signedIn.expiresAt, secureCookies));
    return redirect(returnTarget(pending.redirectTo), { headers });
  } catch (error) {
    console.error('Google sign-in failed', error instanceof Error ? error.message : error);
    return redirect('/login?notice=google', { headers });
  }
}
