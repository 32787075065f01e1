import { data, isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { idSchema } from '../../contracts/params.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/category';

/**
 * One category: its brands (TOP BRANDS) and its subcategories (SHOP BY SUBCATEGORY).
 * 404 when the id is malformed or unknown.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = idSchema.safeParse(params.categoryId);
  if (!id.success) throw data(null, { status: 404 });
  const { catalog } = context.get(shopContext);
  const category = await catalog.getCategory(id.data).catch(() => null);
  if (!category) throw data(null, { status: 404 });
  const [brands, subcategories] = await Promise.all([
    catalog.listBrands({ categoryId: category.id, includeImages: true }),
    catalog.listSubcategories({ categoryId: category.id, includeImages: true }),
  ]);
  return { category, brands, subcategories };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Category not found | Harbour Tools' }];
  const { category } = loaderData;
  return [
    { title: `${category.name} | Harbour Tools` },
    { name: 'description', content: category.description || `Shop ${category.name} at Harbour Tools.` },
  ];
}

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const { category, brands, subcategories } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <nav aria-label="Breadcrumb" className="text-sm text-gray-600">
        <ol className="flex gap-2">
          <li>
            <Link to="/" className="hover:underline">
              Home
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page" className="font-semibold text-ink">
            {category.name}
          </li>
        </ol>
      </nav>
      <h1 className="mt-4 font-display text-4xl font-bold uppercase">{category.name}</h1>
      {category.description ? <p className="mt-2 max-w-3xl text-gray-700">{category.description}</p> : null}

      <section aria-labelledby="top-brands" className="mt-10">
        <h2 id="top-brands" className="font-display text-2xl font-bold uppercase">
          Top Brands
        </h2>
        <ul className="mt-4 flex gap-4 overflow-x-auto pb-2">
          {brands.map((brand) => (
            <li key={brand.id} className="shrink-0">
              <Link
                to={`/brand/${brand.id}`}
                className="flex h-20 w-40 items-center justify-center rounded-lg border border-gray-200 bg-white p-2 hover:shadow-md"
              >
                {brand.logoUrl ? (
                  <img
                    src={brand.logoUrl}
                    alt={brand.name}
                    width={160}
                    height={64}
                    loading="lazy"
                    className="max-h-14 w-auto"
                  />
                ) : (
                  brand.name
                )}
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="shop-by-subcategory" className="mt-10">
        <h2 id="shop-by-subcategory" className="font-display text-2xl font-bold uppercase">
          Shop by Subcategory
        </h2>
        {subcategories.length === 0 ? (
          <p className="mt-4 text-gray-700">No subcategories found for this category.</p>
        ) : (
          <ul className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
            {subcategories.map((subcategory) => (
              <li key={subcategory.id}>
                <Link
                  to={`/category/${category.id}/subcategory/${subcategory.id}`}
                  className="block overflow-hidden rounded-lg border border-gray-200 bg-white hover:shadow-md"
                >
                  {subcategory.imageUrl ? (
                    <img
                      src={subcategory.imageUrl}
                      alt=""
                      width={300}
                      height={200}
                      loading="lazy"
                      className="aspect-[3/2] w-full object-cover"
                    />
                  ) : null}
                  <span className="block px-3 pt-2 font-semibold">{subcategory.name}</span>
                  <span className="block px-3 pb-2 text-sm text-gray-600">{subcategory.productCount} products</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <section className="mx-auto max-w-3xl px-4 py-20 text-center">
        <h1 className="font-display text-3xl font-bold">Category not found</h1>
        <p className="mt-3 text-gray-600">
          This category does not exist. Browse all our categories from the home page.
        </p>
        <Link to="/" className="mt-6 inline-block rounded bg-accent px-5 py-3 font-semibold text-ink">
          Back to the home page
        </Link>
      </section>
    );
  }
  return (
    <section className="mx-auto max-w-3xl px-4 py-20 text-center">
      <h1 className="font-display text-3xl font-bold">Failed to load category data</h1>
      <p className="mt-3 text-gray-600">Please check your connection and try again.</p>
    </section>
  );
}
