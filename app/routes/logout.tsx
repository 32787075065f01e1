import { redirect } from 'react-router';
import { getViewer, redirectSignedOut } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/logout';

/** Signing out is a POST (a link or an image on another page must not sign anyone out); a GET goes home. */
export function loader() {
  return redirect('/');
}

/** Ends this session on the server, clears the cookie, and goes to the home page (spec §2 "Header"). */
export async function action({ context }: Route.ActionArgs) {
  const viewer = getViewer(context);
  if (viewer) await context.get(shopContext).sessions.revoke(viewer.sessionId);
  return redirectSignedOut(context, '/');
}
