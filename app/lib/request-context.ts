import { createContext } from 'react-router';
import type { User } from '../../contracts/account.ts';

/** The signed-in shopper of this request, as the server found them from the session cookie. */
export interface Viewer {
  user: User;
  sessionId: string;
}

/** What the server knows about one page request, handed to loaders and actions with the services. */
export interface RequestInfo {
  viewer: Viewer | null;
  /**
   * The client's address as the server trusts it (TRUST_PROXY decides how much of
   * X-Forwarded-For counts): page actions hand it to the domain's per-address limits.
   */
  clientAddress: string;
  /** The Content-Security-Policy nonce this response's inline scripts must carry. */
  nonce: string;
  /** Whether session cookies are Secure/__Host- (the shop is served over https). */
  secureCookies: boolean;
  /** Called when a part of the page failed to load and shows its error text: the page is not kept. */
  partFailed: () => void;
  /**
   * Called when a signed-in shopper's page is one every signed-out shopper sees alike (its route
   * says public): the server then keeps a signed-out copy, which it serves to everyone after.
   */
  sharedPage: () => void;
}

export const requestContext = createContext<RequestInfo>({
  viewer: null,
  clientAddress: '',
  nonce: '',
  secureCookies: false,
  partFailed: () => {},
  sharedPage: () => {},
});
