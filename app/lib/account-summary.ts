import type { AccountSummary } from '../../contracts/account-fields.ts';

/*
 * Catalogue pages are the same bytes for every shopper, signed in or not: the server keeps one
 * rendered copy and serves it to everyone (server/page-cache.ts), so its frame says nobody is
 * signed in. A signed-in shopper's browser carries a readable hint cookie beside the session
 * (server/session-cookie.ts); on such a page the root's clientLoader asks for the shopper's
 * account part (name, role, wishlist ids, points) and the header, hearts and points fill in.
 */

const HINT = /(?:^|;\s*)(?:__Host-)?harbour_signed_in=1(?:;|$)/;

/** Whether this browser holds a session, by the hint cookie (the session cookie itself is httpOnly). */
export function hasSignedInHint(): boolean {
  return typeof document !== 'undefined' && HINT.test(document.cookie);
}

/** Drops a hint that outlived its session (revoked, or ended on another device). */
function forgetSignedInHint(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from older Safari; this only clears a hint.
  document.cookie = 'harbour_signed_in=; Max-Age=0; Path=/; SameSite=Lax';
  // biome-ignore lint/suspicious/noDocumentCookie: as above, for the hint's https name.
  document.cookie = '__Host-harbour_signed_in=; Max-Age=0; Path=/; SameSite=Lax; Secure';
}

/**
 * Runs before the first paint (an inline script in the head): marks the page while a
 * signed-in shopper's account part is on its way, so the header does not offer 'Login'
 * to someone who is signed in. `markAccountSettled` lifts it.
 */
export const MARK_ACCOUNT_PENDING = `${HINT}.test(document.cookie)&&document.documentElement.setAttribute('data-account','pending')`;

export function markAccountSettled(): void {
  document.documentElement.removeAttribute('data-account');
}

/**
 * The signed-in shopper's account part, or null when the session has ended (the hint is
 * dropped then). A failure to reach the shop leaves the page as it came, signed out.
 */
export async function fetchAccountSummary(): Promise<AccountSummary | null> {
  try {
    const response = await fetch('/api/users/summary', { headers: { accept: 'application/json' } });
    if (response.status === 401) {
      forgetSignedInHint();
      return null;
    }
    return response.ok ? ((await response.json()) as AccountSummary) : null;
  } catch {
    return null;
  }
}
