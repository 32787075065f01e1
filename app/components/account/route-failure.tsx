import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router';
import { NotFoundPage } from '../not-found-page.tsx';

/**
 * An account page's error boundary: its spec §8 failure text (e.g. 'Failed to fetch
 * addresses') with Try Again and a way home; a 404 shows the not-found page.
 */
export function RouteFailure({ title, message }: { title: string; message: string }) {
  const error = useRouteError();
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const tooLarge = isRouteErrorResponse(error) && (error.status === 413 || error.status === 415);
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 text-center">
      <title>{`${title} | Harbour Tools`}</title>
      <meta name="robots" content="noindex" />
      <h1 className="font-display text-3xl font-bold uppercase">{title}</h1>
      <p role="alert" className="mt-3 text-lg font-semibold text-sale">
        {tooLarge ? 'That form could not be read. Please try again from the page.' : message}
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <a
          href={`${location.pathname}${location.search}`}
          className="inline-block rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark"
        >
          Try Again
        </a>
        <Link
          to="/"
          className="inline-block rounded border border-navy-700 px-5 py-3 font-semibold text-navy-700 hover:bg-navy-100"
        >
          Back to the home page
        </Link>
      </div>
    </section>
  );
}
