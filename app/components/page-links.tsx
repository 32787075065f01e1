import { Link } from 'react-router';

/** 'Previous · Page N of M · Next' under a back-office or account list; nothing when there is one page. */
export function PageLinks({
  page,
  totalPages,
  hrefFor,
  previous = 'Previous',
  next = 'Next',
}: {
  page: number;
  totalPages: number;
  hrefFor: (page: number) => string;
  previous?: string;
  next?: string;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center gap-3 text-sm">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} className="font-semibold text-navy-800 underline">
          {previous}
        </Link>
      ) : null}
      <span>
        Page {page} of {totalPages}
      </span>
      {page < totalPages ? (
        <Link to={hrefFor(page + 1)} className="font-semibold text-navy-800 underline">
          {next}
        </Link>
      ) : null}
    </nav>
  );
}
