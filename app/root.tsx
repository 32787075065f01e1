import barlowBold from '@fontsource/barlow-condensed/files/barlow-condensed-latin-700-normal.woff2?url';
import interLatin from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url';
import { useEffect } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from 'react-router';
import type { AccountSummary } from '../contracts/account-fields.ts';
import type { Route } from './+types/root';
import appStylesheet from './app.css?url';
import { CartSync } from './components/cart-sync.tsx';
import { IconSprite } from './components/icon-sprite.tsx';
import { NotFoundPage } from './components/not-found-page.tsx';
import { SiteFooter } from './components/site-footer.tsx';
import { SiteHeader } from './components/site-header.tsx';
import { WishlistMerge } from './components/wishlist-button.tsx';
import {
  fetchAccountSummary,
  hasSignedInHint,
  MARK_ACCOUNT_PENDING,
  markAccountSettled,
} from './lib/account-summary.ts';
import { DEFINE_MODULE_RESTORE, RESTORE_AFTER_SHELL } from './lib/deferred-modules.ts';
import { useNonce } from './lib/nonce.tsx';
import { requestContext } from './lib/request-context.ts';
import { logRejection } from './lib/section-load.ts';
import { shopContext } from './lib/shop-context.ts';

/**
 * The stylesheet, then the two fonts the first screen uses, fetched with the HTML so text
 * does not reflow when they arrive. `precedence` makes React put the stylesheet at the
 * top of the head, ahead of the module preloads: it is the one file that blocks the first paint.
 */
export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: appStylesheet, precedence: 'default' },
  { rel: 'preload', href: interLatin, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'preload', href: barlowBold, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
];

/**
 * What every page's frame needs: the shop's identity (configuration, no query),
 * the categories for the header menus, and the signed-in shopper (name, role and
 * wishlisted product ids) or null. The categories are not awaited: the shell goes
 * out at once and the menus stream in with the same document ('Loading
 * categories...' until then).
 * `{ shop, categories: Promise<{ id, name, slug }[]>, account: AccountSummary | null }`.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { shop, catalog, accountSummary } = context.get(shopContext);
  const { viewer } = context.get(requestContext);
  const categories = logRejection(
    context,
    catalog.listCategories().then((list) => list.map(({ id, name, slug }) => ({ id, name, slug }))),
  );
  const account: AccountSummary | null = viewer ? await accountSummary(viewer.user) : null;
  return { shop, categories, account };
}

/** Whether this page view knows whose it is: its first load has run to the end. */
let accountSettled = false;

/**
 * A page from the shared cache (rendered for nobody) gets the signed-in shopper's account
 * part from the API when the hint cookie says there is one (app/lib/account-summary.ts).
 * Until that has happened once, every navigation reloads the root (see `shouldRevalidate`),
 * so a click made while the summary was on its way cannot leave the page signed out; a
 * data request then answers for this shopper, account included.
 */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const data = await serverLoader();
  if (accountSettled || data.account || !hasSignedInHint()) {
    accountSettled = true;
    return { ...data, accountSettled: true };
  }
  const account = await fetchAccountSummary();
  accountSettled = true;
  return { ...data, account, accountSettled: true };
}
clientLoader.hydrate = true as const;

/**
 * The frame's data changes only with configuration or the catalogue, so ordinary
 * navigations (including GET searches) keep it; an action (sign in, sign out, a
 * form post) reloads it, as React Router does by default. Until the first load has
 * settled whose page this is, a signed-in shopper's every navigation reloads it.
 */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (!accountSettled && hasSignedInHint()) return true;
  return formMethod !== undefined && formMethod.toUpperCase() !== 'GET' ? defaultShouldRevalidate : false;
}

const ZOD_JITLESS = 'globalThis.__zod_globalConfig={...globalThis.__zod_globalConfig,jitless:true}';

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  const nonce = useNonce();
  // Set once the clientLoader has run: the account part is in, or known not to be coming.
  const settled = !data || (data as { accountSettled?: boolean }).accountSettled === true;
  useEffect(() => {
    if (!settled) return;
    markAccountSettled();
    // Marks the moment React has taken over the page and its account part is in (error pages
    // too): browser tests wait for it.
    document.documentElement.dataset.hydrated = 'true';
  }, [settled]);
  return (
    <html lang="en-AU">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f1f36" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/*
          Before any module runs: zod probes `new Function('')` to decide whether to compile
          validators, and under this CSP (no 'unsafe-eval') the caught probe is still reported as
          a violation. jitless skips the probe; set through the global zod reads when it loads.
        */}
        <script nonce={nonce}>{ZOD_JITLESS}</script>
        {/* Before the first paint: a signed-in shopper's shared page hides 'Login' until their account part is in. */}
        <script nonce={nonce}>{MARK_ACCOUNT_PENDING}</script>
        {/* Fetches the page's modules once it has painted (app/lib/deferred-modules.ts). */}
        <script nonce={nonce}>{DEFINE_MODULE_RESTORE}</script>
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-accent focus:px-3 focus:py-2 focus:font-semibold"
        >
          Skip to content
        </a>
        <IconSprite />
        {data ? <SiteHeader shop={data.shop} categories={data.categories} account={data.account} /> : null}
        {/* Not before the account part is in: a kept page first says nobody is signed in, which would empty the cart. */}
        {settled && data?.account ? <WishlistMerge /> : null}
        {settled && data ? <CartSync userKey={data.account ? String(data.account.id) : null} /> : null}
        <main id="main" className="flex-1">
          {children}
        </main>
        {data ? <SiteFooter shop={data.shop} /> : null}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
        <script nonce={nonce}>{RESTORE_AFTER_SHELL}</script>
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <section className="mx-auto max-w-3xl px-4 py-20 text-center">
      <title>Something went wrong | Harbour Tools</title>
      <p className="font-display text-6xl font-bold text-navy-700" aria-hidden="true">
        {isRouteErrorResponse(error) ? error.status : 500}
      </p>
      <h1 className="mt-2 font-display text-3xl font-bold uppercase">Something went wrong</h1>
      <p className="mt-3 text-gray-700">We could not load this page. Please try again in a moment.</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <a
          href={`${location.pathname}${location.search}`}
          className="inline-block rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark"
        >
          Try again
        </a>
        <a
          href="/"
          className="inline-block rounded border border-navy-700 px-5 py-3 font-semibold text-navy-700 hover:bg-navy-100"
        >
          Back to the home page
        </a>
      </div>
    </section>
  );
}
