import { Suspense } from 'react';
import { Await, Link, useRouteLoaderData } from 'react-router';
import type { loader as rootLoader } from '../root.tsx';
import { SearchBox } from './search-box.tsx';
import { CATEGORIES_FAILED, CATEGORY_MENU_LIMIT, sortCategories } from './shop-links.ts';

const HELP_LINKS = [
  { to: '/', label: 'Home page' },
  { to: '/products', label: 'All products' },
  { to: '/shop-by-brand', label: 'Shop by brand' },
  { to: '/deals', label: 'Current deals' },
  { to: '/contact', label: 'Contact us' },
] as const;

interface NotFoundPageProps {
  title?: string;
  detail?: string;
}

/**
 * What a shopper sees for a missing page, product, category or brand: what went
 * wrong and where to go next (search, the main sections, the categories).
 * The route that renders it is responsible for the 404 status.
 */
export function NotFoundPage({
  title = 'Page not found',
  detail = 'The page you were looking for has moved or no longer exists. Try a search, or start from one of these.',
}: NotFoundPageProps) {
  const root = useRouteLoaderData<typeof rootLoader>('root');
  return (
    <section className="mx-auto max-w-4xl px-4 py-14 sm:py-20">
      <title>{`${title} | ${root?.shop.name ?? 'Harbour Tools'}`}</title>
      <meta name="robots" content="noindex" />
      <div className="text-center">
        <p className="font-display text-7xl font-bold text-navy-700" aria-hidden="true">
          404
        </p>
        <h1 className="mt-2 font-display text-4xl font-bold uppercase">{title}</h1>
        <p className="mx-auto mt-3 max-w-xl text-gray-700">{detail}</p>
        <div className="mx-auto mt-8 max-w-xl rounded-lg bg-navy-900 p-2">
          <SearchBox />
        </div>
      </div>
      <div className="mt-12 grid gap-8 sm:grid-cols-2">
        <nav aria-labelledby="not-found-help">
          <h2 id="not-found-help" className="font-display text-xl font-bold uppercase">
            Helpful links
          </h2>
          <ul className="mt-3 space-y-2">
            {HELP_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="font-semibold text-navy-700 underline-offset-2 hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {root ? (
          <nav aria-labelledby="not-found-categories">
            <h2 id="not-found-categories" className="font-display text-xl font-bold uppercase">
              Popular categories
            </h2>
            <Suspense fallback={<p className="mt-3 text-gray-600">Loading categories...</p>}>
              {/* Not null: an Await without an errorElement rethrows, and a 404 page must not fail. */}
              <Await
                resolve={root.categories}
                errorElement={<p className="mt-3 text-sm text-stock-out">{CATEGORIES_FAILED}</p>}
              >
                {(categories) => (
                  <ul className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2">
                    {sortCategories(categories)
                      .slice(0, CATEGORY_MENU_LIMIT)
                      .map((category) => (
                        <li key={category.id}>
                          <Link
                            to={`/category/${category.id}`}
                            className="text-navy-700 underline-offset-2 hover:underline"
                          >
                            {category.name}
                          </Link>
                        </li>
                      ))}
                  </ul>
                )}
              </Await>
            </Suspense>
          </nav>
        ) : null}
      </div>
    </section>
  );
}
