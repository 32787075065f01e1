import { Link } from 'react-router';
import { pageWindow } from '../lib/listing.ts';

interface PaginationProps {
  page: number;
  totalPages: number;
  hrefFor: (page: number) => string;
}

const item =
  'inline-flex h-10 min-w-10 items-center justify-center rounded border px-3 text-sm font-semibold tabular transition-colors';

/** Previous · 1 … 4 5 6 … 12 · Next, as plain links so paging works before (and without) JavaScript. */
export function Pagination({ page, totalPages, hrefFor }: PaginationProps) {
  if (totalPages <= 1) return null;
  const links = pageWindow(page, totalPages);
  return (
    <nav aria-label="Pagination" className="mt-8 flex flex-wrap items-center justify-center gap-2">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} rel="prev" className={`${item} border-gray-300 bg-white hover:border-navy-700`}>
          <span aria-hidden="true">‹</span>
          <span className="ml-1">Previous</span>
        </Link>
      ) : (
        <span aria-disabled="true" className={`${item} border-gray-200 text-gray-500`}>
          <span aria-hidden="true">‹</span>
          <span className="ml-1">Previous</span>
        </span>
      )}
      <ol className="flex flex-wrap items-center gap-2">
        {links.map((link) =>
          link.type === 'gap' ? (
            <li key={link.key} aria-hidden="true" className="px-1 text-gray-500">
              …
            </li>
          ) : (
            <li key={link.page}>
              {link.page === page ? (
                <span aria-current="page" className={`${item} border-navy-900 bg-navy-900 text-white`}>
                  <span className="sr-only">Page </span>
                  {link.page}
                </span>
              ) : (
                <Link
                  to={hrefFor(link.page)}
                  className={`${item} border-gray-300 bg-white hover:border-navy-700`}
                  aria-label={`Page ${link.page}`}
                >
                  {link.page}
                </Link>
              )}
            </li>
          ),
        )}
      </ol>
      {page < totalPages ? (
        <Link to={hrefFor(page + 1)} rel="next" className={`${item} border-gray-300 bg-white hover:border-navy-700`}>
          <span className="mr-1">Next</span>
          <span aria-hidden="true">›</span>
        </Link>
      ) : (
        <span aria-disabled="true" className={`${item} border-gray-200 text-gray-500`}>
          <span className="mr-1">Next</span>
          <span aria-hidden="true">›</span>
        </span>
      )}
    </nav>
  );
}
