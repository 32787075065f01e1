import { data, redirect } from 'react-router';
import { oauthCookie } from '../../server/session-cookie.ts';
import { pageUrl } from '../lib/page-url.ts';
import { requestContext } from '../lib/request-context.ts';
import { publicOrigin } from '../lib/seo.ts';
import { returnTarget } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/auth-google';

/**
 * Starts "Continue with Google": remembers state, nonce and the PKCE verifier in a
 * ten-minute httpOnly cookie and sends the browser to Google. 404 when Google sign-in is
 * not configured.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { googleSignIn, shop } = context.get(shopContext);
  if (!googleSignIn) throw data('Google sign-in is not available', { status: 404 });
  const redirectTo = returnTarget(pageUrl(request).searchParams.get('redirectTo'), '/profile');
  try {
    const { url, pending } = await googleSignIn.start(`${publicOrigin(shop)}/auth/google/callback`, redirectTo);
    const value = Buffer.from(JSON.stringify(pending)).toString('base64url');
    return redirect(url, { headers: { 'Set-Cookie': oauthCookie(value, context.get(requestContext).secureCookies) } });
  } catch (error) {
    console.error('Google sign-in could not start', error);
    return redirect('/login?notice=google');
  }
}
