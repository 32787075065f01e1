import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from 'react-router';
import type { Route } from './+types/root';
import './app.css';
import { SiteFooter } from './components/site-footer.tsx';
import { SiteHeader } from './components/site-header.tsx';
import { shopContext } from './lib/shop-context.ts';

/**
 * Loads what every page's frame shows: the shop's identity and the category
 * list for the navigation. Both are small and change rarely.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { shop, catalog } = context.get(shopContext);
  const categories = await catalog.listCategories();
  return {
    shop,
    categories: categories.map(({ id, name, slug }) => ({ id, name, slug })),
  };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  return (
    <html lang="en-AU">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f1f36" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
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
        {data ? <SiteHeader shop={data.shop} categories={data.categories} /> : null}
        <main id="main" className="flex-1">
          {children}
        </main>
        {data ? <SiteFooter shop={data.shop} /> : null}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const title = notFound ? 'Page not found' : 'Something went wrong';
  const detail = notFound
    ? 'The page you were looking for has moved or no longer exists.'
    : 'We could not load this page. Please try again in a moment.';
  return (
    <section className="mx-auto max-w-3xl px-4 py-20 text-center">
      <title>{`${title} | Harbour Tools`}</title>
      <p className="font-display text-6xl font-bold text-navy-800">
        {isRouteErrorResponse(error) ? error.status : 500}
      </p>
      <h1 className="mt-2 font-display text-3xl font-bold">{title}</h1>
      <p className="mt-3 text-gray-600">{detail}</p>
      <a href="/" className="mt-8 inline-block rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark">
        Back to the home page
      </a>
    </section>
  );
}
