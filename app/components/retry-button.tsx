import { useLocation, useRevalidator } from 'react-router';
import { useHydrated } from '../lib/use-hydrated.ts';

const retryClass = 'rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark disabled:opacity-60';

/**
 * Asks the server for the page's data again. Once JavaScript runs it reloads the data in place
 * (the page keeps its scroll and state); before that it is a link to the same address.
 */
export function RetryButton({ label, className = '' }: { label: string; className?: string }) {
  const location = useLocation();
  const revalidator = useRevalidator();
  const hydrated = useHydrated();
  if (!hydrated) {
    return (
      <a href={`${location.pathname}${location.search}`} className={`inline-block ${retryClass} ${className}`}>
        {label}
      </a>
    );
  }
  return (
    <button
      type="button"
      onClick={() => revalidator.revalidate()}
      disabled={revalidator.state === 'loading'}
      className={`${retryClass} ${className}`}
    >
      {revalidator.state === 'loading' ? 'Loading…' : label}
    </button>
  );
}
