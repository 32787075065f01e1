import { Link } from 'react-router';
import { ProductCard } from '../components/product-card.tsx';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/home';

export const HOME_FEATURED_COUNT = 4;
export const HOME_COLLECTION_COUNT = 8;
export const HOME_BRAND_COUNT = 8;

/**
 * Home page data: categories with pictures, the first brands, featured products
 * and a collection of new arrivals. All critical: the page is useless without them.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { catalog } = context.get(shopContext);
  const [categories, brands, featured, collection] = await Promise.all([
    catalog.listCategories({ includeImages: true }),
    catalog.listBrands({ includeImages: true }),
    catalog.listProducts({ featured: true, sort: 'featured', page: 1, limit: HOME_FEATURED_COUNT }),
    catalog.listProducts({ sort: 'newest', page: 1, limit: HOME_COLLECTION_COUNT }),
  ]);
  return {
    categories,
    brands: brands.slice(0, HOME_BRAND_COUNT),
    featured: featured.items,
    collection: collection.items,
  };
}

export function meta({ matches }: Route.MetaArgs) {
  const shopName = matches[0]?.loaderData?.shop.name ?? 'Harbour Tools';
  return [
    { title: `${shopName} | Power tools, hand tools and site gear in Sydney` },
    {
      name: 'description',
      content: `${shopName}: power tools, hand tools, measuring, welding, safety gear and more, delivered Australia-wide or ready to collect in Sydney.`,
    },
  ];
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { categories, brands, featured, collection } = loaderData;
  return (
    <>
      <section className="bg-gradient-to-br from-navy-900 to-navy-700 text-white">
        <div className="mx-auto max-w-7xl px-4 py-14 sm:py-20">
          <p className="font-display text-lg font-semibold uppercase tracking-widest text-accent">Trade-grade gear</p>
          <h1 className="mt-2 max-w-2xl font-display text-4xl font-bold uppercase leading-tight sm:text-6xl">
            Tools that turn up to work every day
          </h1>
          <p className="mt-4 max-w-xl text-lg text-gray-200">
            {categories.reduce((sum, category) => sum + (category.productCount ?? 0), 0).toLocaleString('en-AU')}{' '}
            products from {brands.length}+ brands, with same-day dispatch from our Sydney store.
          </p>
          <Link
            to="/products"
            className="mt-8 inline-block rounded bg-accent px-6 py-3 font-semibold text-ink hover:bg-accent-dark"
          >
            Shop all products
          </Link>
        </div>
      </section>

      <section className="mx-auto max-w-7xl px-4 pt-12" aria-labelledby="categories-heading">
        <h2 id="categories-heading" className="font-display text-3xl font-bold uppercase">
          Shop by category
        </h2>
        <ul className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-6">
          {categories.map((category) => (
            <li key={category.id}>
              <Link
                to={`/category/${category.id}`}
                className="block overflow-hidden rounded-lg border border-gray-200 bg-white hover:shadow-md"
              >
                {category.imageUrl ? (
                  <img
                    src={category.imageUrl}
                    alt=""
                    width={300}
                    height={200}
                    loading="lazy"
                    className="aspect-[3/2] w-full object-cover"
                  />
                ) : null}
                <span className="block px-3 py-2 text-sm font-semibold">{category.name}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <ProductSection title="Featured products" products={featured} moreHref="/products?featured=true" />

      <section className="mx-auto max-w-7xl px-4 pt-12" aria-labelledby="brands-heading">
        <h2 id="brands-heading" className="font-display text-3xl font-bold uppercase">
          Top brands
        </h2>
        <ul className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-4 lg:grid-cols-8">
          {brands.map((brand) => (
            <li key={brand.id}>
              <Link
                to={`/brand/${brand.id}`}
                className="flex h-20 items-center justify-center rounded-lg border border-gray-200 bg-white p-2 hover:shadow-md"
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
                  <span className="font-semibold">{brand.name}</span>
                )}
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <ProductSection title="New arrivals" products={collection} moreHref="/new-arrivals" />
    </>
  );
}

function ProductSection({
  title,
  products,
  moreHref,
}: {
  title: string;
  products: Route.ComponentProps['loaderData']['featured'];
  moreHref: string;
}) {
  const headingId = `${title.toLowerCase().replaceAll(' ', '-')}-heading`;
  return (
    <section className="mx-auto max-w-7xl px-4 pt-12" aria-labelledby={headingId}>
      <div className="flex items-baseline justify-between">
        <h2 id={headingId} className="font-display text-3xl font-bold uppercase">
          {title}
        </h2>
        <Link to={moreHref} className="text-sm font-semibold text-navy-700 hover:underline">
          View all
        </Link>
      </div>
      <ul className="mt-6 grid grid-cols-2 gap-4 md:grid-cols-4">
        {products.map((product) => (
          <li key={product.id}>
            <ProductCard product={product} />
          </li>
        ))}
      </ul>
    </section>
  );
}
