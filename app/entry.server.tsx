import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import type { EntryContext, RouterContextProvider } from 'react-router';
import { ServerRouter } from 'react-router';
import { PUBLIC_PAGE_CACHE_CONTROL } from '../contracts/page-cache-headers.ts';
import { createDeferredModulesStream } from './lib/deferred-modules.server.ts';
import { NonceProvider } from './lib/nonce.tsx';
import { requestContext } from './lib/request-context.ts';

export { requestContext } from './lib/request-context.ts';
export { shopContext } from './lib/shop-context.ts';

export const streamTimeout = 5_000;

/**
 * A signed-in page carries the shopper's name, cart and orders: never kept by a shared cache
 * or on disk, whatever its route says. Other pages are public only where the route says so
 * (catalogue pages, see app/lib/page-cache-headers.ts), else asked for afresh each time.
 */
function setCacheControl(headers: Headers, loadContext: RouterContextProvider, status: number): void {
  const request = loadContext.get(requestContext);
  if (request.viewer) {
    // Only a page that could be kept (a 404 never is) is worth a copy for nobody.
    if (status === 200 && headers.get('Cache-Control') === PUBLIC_PAGE_CACHE_CONTROL) request.sharedPage();
    headers.set('Cache-Control', 'private, no-store');
  } else if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-cache');
}

/**
 * Every error a loader, action or render threw reaches the server, which logs it (in place of
 * React Router's console.error) and answers 503 rather than 500 when the database was out of
 * reach (server/plugins/storefront.ts).
 */
export function handleError(
  error: unknown,
  { request, context }: { request: Request; context: RouterContextProvider },
): void {
  // A shopper who left is no failure (React Router's own rule for what it logs).
  if (!request.signal.aborted) context.get(requestContext).failed(error);
}

/** Client-side navigations fetch the same loaders' data: the same rule applies to it. */
export function handleDataRequest(response: Response, { context }: { context: RouterContextProvider }): Response {
  setCacheControl(response.headers, context, response.status);
  return response;
}

/** Renders a page. Crawlers get the whole document at once; browsers get the shell as soon as it is ready. */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const waitForAll = isbot(request.headers.get('user-agent') ?? '') || routerContext.isSpaMode;
    // Every inline script React Router writes carries this response's CSP nonce.
    const { nonce } = loadContext.get(requestContext);
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? 'onAllReady' : 'onShellReady']() {
          shellRendered = true;
          // The page's JavaScript is fetched after its first paint (app/lib/deferred-modules.ts).
          const body = createDeferredModulesStream();
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          setCacheControl(responseHeaders, loadContext, responseStatusCode);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1_000);
  });
}
