import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router';
import { NotFoundPage } from './not-found-page.tsx';
import { RetryButton } from './retry-button.tsx';

interface RouteErrorProps {
  /** Heading of the 404 state, e.g. 'Brand not found'. */
  notFoundTitle: string;
  notFoundDetail: string;
  /** Heading when loading failed for any other reason (the spec's error text). */
  failureTitle: string;
  failureDetail?: string;
  /** The spec says 'Retry' on some pages and 'Try Again' on others. */
  retryLabel?: string;
}

/** The `{ message, errors }` body a loader throws with a 400. */
function badRequestDetails(error: unknown): string[] {
  if (!isRouteErrorResponse(error) || typeof error.data !== 'object' || error.data === null) return [];
  const { errors } = error.data as { errors?: Record<string, string[]> };
  return Object.entries(errors ?? {}).map(([field, messages]) => `${field}: ${messages.join(', ')}`);
}

/**
 * A catalogue route's error boundary: 404 → the not-found page; 400 (bad filter values
 * typed into the URL) → what was wrong and a way back; anything else → the spec's failure
 * text with Try Again, which reloads the data in place once JavaScript runs.
 */
export function RouteError({
  notFoundTitle,
  notFoundDetail,
  failureTitle,
  failureDetail,
  retryLabel = 'Try Again',
}: RouteErrorProps) {
  const error = useRouteError();
  const location = useLocation();

  if (isRouteErrorResponse(error) && error.status === 404) {
    return <NotFoundPage title={notFoundTitle} detail={notFoundDetail} />;
  }
  if (isRouteErrorResponse(error) && error.status === 400) {
    const details = badRequestDetails(error);
    return (
      <section className="mx-auto max-w-3xl px-4 py-16 text-center">
        <title>Those filters can't be used | Harbour Tools</title>
        <meta name="robots" content="noindex" />
        <h1 className="font-display text-3xl font-bold uppercase">Those filters can't be used</h1>
        <p className="mt-3 text-gray-700">The link has a filter value we don't understand.</p>
        {details.length ? (
          <ul className="mx-auto mt-4 max-w-md list-inside list-disc text-left text-sm text-gray-700">
            {details.map((detail) => (
              <li key={detail}>{detail}</li>
            ))}
          </ul>
        ) : null}
        <Link
          to={location.pathname}
          className="mt-8 inline-block rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark"
        >
          Show all products here
        </Link>
      </section>
    );
  }
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 text-center" aria-live="polite">
      <title>{`${failureTitle} | Harbour Tools`}</title>
      <meta name="robots" content="noindex" />
      <h1 className="font-display text-3xl font-bold uppercase">{failureTitle}</h1>
      <p className="mt-3 text-gray-700">{failureDetail ?? 'Please check your connection and try again.'}</p>
      <RetryButton label={retryLabel} className="mt-8" />
    </section>
  );
}
