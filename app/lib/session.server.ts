import { data, redirect } from 'react-router';
import { safeRedirectPath } from '../../contracts/account-fields.ts';
import type { Viewer } from '../../contracts/page-request.ts';
import type { SignedIn } from '../../server/domain/accounts.ts';
import { clearedSessionCookie, sessionCookie } from '../../server/session-cookie.ts';
import { pageUrl } from './page-url.ts';
import { requestContext } from './request-context.ts';

type Context = { get: <T>(key: import('react-router').RouterContext<T>) => T };

/** The signed-in shopper, or null. */
export function getViewer(context: Context): Viewer | null {
  return context.get(requestContext).viewer;
}

/**
 * The signed-in shopper; a signed-out visitor is sent to `/login?redirectTo=<this page>`
 * and comes back here after signing in (spec-decisions "Accounts and access").
 */
export function requireViewer(request: Request, context: Context): Viewer {
  const viewer = getViewer(context);
  if (viewer) return viewer;
  const url = pageUrl(request);
  throw redirect(`/login?redirectTo=${encodeURIComponent(`${url.pathname}${url.search}`)}`);
}

/** Where to go after signing in: the `redirectTo` of the form or URL when it is a path on this site, else `fallback`. */
export function returnTarget(value: FormDataEntryValue | string | null | undefined, fallback = '/profile'): string {
  return safeRedirectPath(typeof value === 'string' ? value : null, fallback);
}

/** A redirect that carries the new session's cookie. */
export function redirectSignedIn(context: Context, signedIn: SignedIn, to: string): Response {
  const { secureCookies } = context.get(requestContext);
  return redirect(to, { headers: { 'Set-Cookie': sessionCookie(signedIn.token, signedIn.expiresAt, secureCookies) } });
}

/** A redirect that clears the session cookie (sign-out, account deleted). */
export function redirectSignedOut(context: Context, to: string): Response {
  const { secureCookies } = context.get(requestContext);
  return redirect(to, { headers: { 'Set-Cookie': clearedSessionCookie(secureCookies) } });
}

/**
 * A member of staff: signed out → /login?redirectTo=…; a customer → 403, which the admin
 * pages' error boundary shows as a plain 'not allowed' page.
 */
export function requireAdmin(request: Request, context: Context): Viewer {
  const viewer = requireViewer(request, context);
  if (viewer.user.role !== 'admin') throw data('This page is for the shop’s staff only.', { status: 403 });
  return viewer;
}

/** Who did it, for the audit log. */
export function actorOf(viewer: Viewer): { userId: number; email: string } {
  return { userId: viewer.user.id, email: viewer.user.email };
}
