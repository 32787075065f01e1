import type { User } from './account.ts';

/*
 * What the server hands a page's loaders and actions about one request. Here, below both the
 * server (server/plugins/storefront.ts fills it) and the storefront (app/lib/request-context.ts
 * carries it), so neither imports the other.
 */

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
  /** Told of every error a loader, action or render threw (React Router's handleError): the server decides its status. */
  failed: (error: unknown) => void;
  /**
   * Called when a signed-in shopper's page is one every signed-out shopper sees alike (its route
   * says public): the server then keeps a signed-out copy, which it serves to everyone after.
   */
  sharedPage: () => void;
  /**
   * Called by a kept page's loaders with the product cards whose stock lines it shows. A page
   * whose every stock line was reported this way is, past its TTL, checked against the
   * database and kept while none of them would read differently; a page that reports none is
   * rendered again. A page that shows stock lines must report all of them or none.
   */
  showsStock: (items: readonly { id: number; stockQuantity: number }[]) => void;
}
