import { data, redirect } from 'react-router';
import { idSchema } from '../../contracts/params.ts';
import { RouteError } from '../components/route-error.tsx';
import { nullIfNotFound } from '../lib/not-found.ts';
import { pageUrl } from '../lib/page-url.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/subcategory-redirect';

/**
 * `/subcategory/:id` → 301 to the canonical `/category/:categoryId/subcategory/:id`
 * (spec-decisions "Catalogue and pages"), keeping any filters in the query.
 * 404 for a malformed or unknown id.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = idSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const { catalog } = context.get(shopContext);
  const subcategory = await catalog.getSubcategory(id.data).catch(nullIfNotFound);
  if (!subcategory) throw data(null, { status: 404 });
  // From the page's address: a client-side navigation arrives as `/subcategory/3.data?_routes=…`.
  return redirect(`/category/${subcategory.categoryId}/subcategory/${subcategory.id}${pageUrl(request).search}`, 301);
}

export function meta() {
  return [{ title: 'Subcategory not found | Harbour Tools' }];
}

/** Never rendered: the loader always redirects or throws. */
export default function SubcategoryRedirect() {
  return null;
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Subcategory not found"
      notFoundDetail="This subcategory does not exist or has moved. Try a search, or start from one of these."
      failureTitle="Failed to fetch subcategories"
    />
  );
}
