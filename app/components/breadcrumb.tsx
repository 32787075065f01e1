import { Link } from 'react-router';

export interface Crumb {
  label: string;
  /** Left out for the current page, which is the last crumb. */
  href?: string;
}

/**
 * "Home › Power Tools › Drills" on every catalogue page. With `origin`, it also emits a
 * schema.org BreadcrumbList so search results show the same trail.
 */
export function Breadcrumb({ items, origin }: { items: Crumb[]; origin?: string }) {
  const trail: Crumb[] = [{ label: 'Home', href: '/' }, ...items];
  const jsonLd = origin
    ? {
        '@context': 'https://schema.org',
        '@type': 'BreadcrumbList',
        itemListElement: trail.map((crumb, index) => ({
          '@type': 'ListItem',
          position: index + 1,
          name: crumb.label,
          ...(crumb.href ? { item: `${origin}${crumb.href}` } : {}),
        })),
      }
    : null;
  return (
    <nav aria-label="Breadcrumb" className="text-sm text-gray-600">
      <ol className="flex flex-wrap items-center gap-x-1.5 gap-y-1">
        {trail.map((crumb, index) => {
          const last = index === trail.length - 1;
          return (
            <li key={`${index}-${crumb.label}`} className="flex items-center gap-1.5">
              {index > 0 ? (
                <span aria-hidden="true" className="text-gray-400">
                  ›
                </span>
              ) : null}
              {last || !crumb.href ? (
                <span aria-current={last ? 'page' : undefined} className="font-semibold text-ink">
                  {crumb.label}
                </span>
              ) : (
                <Link to={crumb.href} className="hover:text-ink hover:underline">
                  {crumb.label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
      {jsonLd ? (
        <script
          type="application/ld+json"
          // JSON.stringify output cannot close the script tag once "<" is escaped.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: structured data built from our own catalogue names
          dangerouslySetInnerHTML={{ __html: JSON.stringify(jsonLd).replaceAll('<', '\\u003c') }}
        />
      ) : null}
    </nav>
  );
}
