import { data, isRouteErrorResponse, useRouteError } from 'react-router';
import { NotFoundPage } from '../components/not-found-page.tsx';

/** Any URL no other route claims: always a 404 status, never data. */
export function loader() {
  throw data(null, { status: 404, statusText: 'Not Found' });
}

/** Never rendered: the loader always throws, and the boundary below shows the page. */
export default function NotFound() {
  return null;
}

/** The 404 page inside the shop's frame: search, helpful links and the main categories. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  throw error;
}
