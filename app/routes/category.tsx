import { data, Link, redirect } from 'react-router';
import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import { idSchema } from '../../contracts/params.ts';
import { toProductCardItem } from '../../contracts/product-card.ts';
import type { ShopServices } from '../../server/services.ts';
import { BrandCard } from '../components/brand-card.tsx';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { PageHero } from '../components/page-hero.tsx';
import { ProductGrid } from '../components/product-grid.tsx';
import { RouteError } from '../components/route-error.tsx';
import { ScrollRow } from '../components/scroll-row.tsx';
import { SectionError } from '../components/section-error.tsx';
import { useListScopeChanging } from '../lib/list-scope-change.ts';
import { brandsByProductCount } from '../lib/listing.ts';
import { nullIfNotFound } from '../lib/not-found.ts';
import { pageUrl } from '../lib/page-url.ts';
import { requestContext } from '../lib/request-context.ts';
import { loadSection } from '../lib/section-load.ts';
import { absoluteUrl, metaDescription, pageMeta, publicOrigin } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/category';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

/** Best sellers shown under the subcategories. */
export const CATEGORY_TOP_PRODUCTS = 8;

/**
 * `/category/power-tools` (spec §2 links categories by name): 301 to the category's canonical
 * `/category/:id`, query kept (spec-decisions "Catalogue and pages"); an unknown slug is a 404.
 * Looked up in the category list every page's header already reads, so it is served from cache.
 */
async function redirectFromSlug(slug: string, request: Request, catalog: ShopServices['catalog']): Promise<never> {
  const wanted = slug.toLowerCase();
  const category = (await catalog.listCategories()).find((candidate) => candidate.slug === wanted);
  if (!category) throw data(null, { status: 404 });
  // From the page's address: a client-side navigation arrives as `/category/power-tools.data?_routes=…`.
  throw redirect(`/category/${category.id}${pageUrl(request).search}`, 301);
}

/**
 * One category: its brands by product count (TOP BRANDS), its subcategories
 * (SHOP BY SUBCATEGORY) and its best sellers. A slug instead of an id redirects to the id;
 * 404 when neither matches. The best sellers load on their own: when they fail the page still
 * shows the category with 'Failed to fetch category products' (spec §8) in their place
 * (`topProducts: null`); any other failure is 'Failed to load category data' (error boundary).
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { catalog, shop } = context.get(shopContext);
  const id = idSchema.safeParse(params.categoryId);
  if (!id.success) return redirectFromSlug(params.categoryId, request, catalog);
  const category = await catalog.getCategory(id.data).catch(nullIfNotFound);
  if (!category) throw data(null, { status: 404 });
  const [allBrands, brandCounts, subcategories, topProducts] = await Promise.all([
    catalog.listBrands(),
    catalog.countProductsByBrand({ categoryId: category.id }),
    catalog.listSubcategories({ categoryId: category.id, includeImages: true }),
    loadSection(context, () =>
      catalog.listProducts({ categoryId: category.id, sort: 'featured', page: 1, limit: CATEGORY_TOP_PRODUCTS }),
    ),
  ]);
  // Its only stock lines are the top products': the server checks those when the kept page ages.
  if (topProducts) context.get(requestContext).showsStock(topProducts.items);
  return {
    category,
    // Counted from the products (grouped), biggest range in this category first; brands without any are left out.
    brands: brandsByProductCount(
      allBrands.map(({ id, name, logoUrl }) => ({ id, name, logoUrl })),
      brandCounts,
    ).filter((brand) => brand.productCount > 0),
    subcategories,
    topProducts: topProducts?.items.map(toProductCardItem) ?? null,
    productCount: topProducts?.totalCount ?? null,
    origin: publicOrigin(shop),
    shopName: shop.name,
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Category not found | Harbour Tools' }];
  const { category, origin, shopName, subcategories } = loaderData;
  const names = subcategories.map((subcategory) => subcategory.name.toLowerCase()).join(', ');
  return pageMeta({
    title: `${category.name} | ${shopName}`,
    description: metaDescription(
      `${category.description || `Shop ${category.name} at ${shopName}.`}${names ? ` Shop ${names}.` : ''}`,
    ),
    canonical: absoluteUrl(origin, `/category/${category.id}`),
    image: category.imageUrl ? absoluteUrl(origin, category.imageUrl) : null,
    siteName: shopName,
  });
}

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const { category, brands, subcategories, topProducts, productCount, origin } = loaderData;
  const scopeChanging = useListScopeChanging();
  return (
    <div className="mx-auto max-w-7xl px-4 pt-4 pb-12">
      <Breadcrumb origin={origin} items={[{ label: category.name }]} />
      <div className="mt-4">
        <PageHero title={category.name} description={category.description} imageUrl={category.imageUrl}>
          <p className="mt-4 text-sm text-gray-200">
            {productCount === null ? null : (
              <>
                <strong className="tabular text-white">{productCount.toLocaleString('en-AU')}</strong> products ·{' '}
              </>
            )}
            <strong className="tabular text-white">{subcategories.length}</strong> subcategories ·{' '}
            <strong className="tabular text-white">{brands.length}</strong> brands
          </p>
          <Link
            to={`/products?category=${category.id}`}
            className="mt-5 inline-block rounded bg-accent px-5 py-2.5 font-semibold text-ink hover:bg-accent-dark"
          >
            Shop all {category.name}
          </Link>
        </PageHero>
      </div>

      <section aria-labelledby="top-brands" className="mt-10">
        <h2 id="top-brands" className="font-display text-2xl font-bold uppercase sm:text-3xl">
          Top Brands
        </h2>
        {brands.length === 0 ? (
          <p className="mt-4 text-gray-700">No brands are listed in {category.name} yet.</p>
        ) : (
          <ScrollRow label={`${category.name} brands`} className="mt-4">
            {brands.map((brand) => (
              <li key={brand.id} className="w-40 shrink-0 snap-start sm:w-48">
                <BrandCard
                  brand={brand}
                  href={`/products?category=${category.id}&brand=${brand.id}`}
                  countSuffix={`in ${category.name}`}
                />
              </li>
            ))}
          </ScrollRow>
        )}
      </section>

      <section aria-labelledby="shop-by-subcategory" className="mt-10">
        <h2 id="shop-by-subcategory" className="font-display text-2xl font-bold uppercase sm:text-3xl">
          Shop by Subcategory
        </h2>
        {subcategories.length === 0 ? (
          <p className="mt-4 rounded-lg border border-dashed border-gray-300 bg-gray-50 px-6 py-10 text-center text-gray-700">
            No subcategories found for this category.
          </p>
        ) : (
          <ul className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4">
            {subcategories.map((subcategory) => (
              <li key={subcategory.id}>
                <Link
                  to={`/category/${category.id}/subcategory/${subcategory.id}`}
                  className="group flex h-full flex-col overflow-hidden rounded-lg border border-gray-200 bg-white transition-shadow hover:border-gray-300 hover:shadow-md"
                >
                  {subcategory.imageUrl ? (
                    <img
                      src={subcategory.imageUrl}
                      alt=""
                      width={1200}
                      height={800}
                      loading="lazy"
                      decoding="async"
                      className="aspect-[3/2] w-full bg-gray-100 object-cover"
                    />
                  ) : (
                    <span className="block aspect-[3/2] w-full bg-gray-100" />
                  )}
                  <span className="flex flex-1 flex-col gap-0.5 border-t border-gray-100 px-3 py-2.5">
                    <span className="font-semibold leading-snug group-hover:underline">{subcategory.name}</span>
                    <span className="text-sm text-gray-600">
                      <span className="tabular">{subcategory.productCount}</span>{' '}
                      {subcategory.productCount === 1 ? 'product' : 'products'}
                    </span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      {topProducts === null || topProducts.length > 0 ? (
        <section aria-labelledby="category-best-sellers" className="mt-12">
          <div className="flex items-baseline justify-between gap-4">
            <h2 id="category-best-sellers" className="font-display text-2xl font-bold uppercase sm:text-3xl">
              Popular in {category.name}
            </h2>
            <Link
              to={`/products?category=${category.id}`}
              className="shrink-0 text-sm font-semibold text-navy-700 hover:underline"
            >
              View all <span className="sr-only">{category.name}</span>
            </Link>
          </div>
          <div className="mt-4">
            {scopeChanging ? (
              <div aria-busy="true">
                <p className="sr-only">Loading products…</p>
                <ProductGrid products={[]} skeletons={CATEGORY_TOP_PRODUCTS} />
              </div>
            ) : topProducts === null ? (
              <SectionError message="Failed to fetch category products" />
            ) : (
              <ProductGrid
                products={topProducts}
                hrefFor={(product) =>
                  `/category/${category.id}/subcategory/${product.subcategoryId}/product/${product.id}`
                }
              />
            )}
          </div>
        </section>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Category not found"
      notFoundDetail="This category does not exist or has moved. Try a search, or start from one of these."
      failureTitle="Failed to load category data"
    />
  );
}
