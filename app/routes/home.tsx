import { Suspense } from 'react';
import { Await, isRouteErrorResponse, Link, useRouteError, useRouteLoaderData } from 'react-router';
import type { ProductPage } from '../../contracts/catalog.ts';
import { categoryPictureUrl } from '../../contracts/category-picture.ts';
import { formatDollars } from '../../contracts/money.ts';
import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import { type ProductCardItem, toProductCardItem } from '../../contracts/product-card.ts';
import { BRANDS_FAILED, BrandSlider } from '../components/brand-slider.tsx';
import { CategorySlider } from '../components/category-slider.tsx';
import { type HeroSlide, HeroSlider } from '../components/hero-slider.tsx';
import { ProductCard } from '../components/product-card.tsx';
import { MemberDealsBanner, PromoBanner } from '../components/promo-banner.tsx';
import { SectionError } from '../components/section-error.tsx';
import { CATEGORIES_FAILED } from '../components/shop-links.ts';
import { formatIncGst, savingIncGst } from '../lib/price-display.ts';
import { loadSection, logRejection } from '../lib/section-load.ts';
import { absoluteUrl, metaDescription, pageMeta, publicOrigin, storeJsonLd } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { loader as rootLoader } from '../root.tsx';
import type { Route } from './+types/home';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

export const HOME_FEATURED_COUNT = 4;
export const HOME_COLLECTION_COUNT = 8;
export const HOME_BRAND_COUNT = 8;
/** Subcategory links under each department in the main category navigation. */
export const HOME_SUBCATEGORY_LINKS = 5;

interface Department {
  id: number;
  name: string;
  imageUrl: string | null;
  productCount: number;
  subcategories: { id: number; name: string; productCount: number }[];
  subcategoryCount: number;
}

/**
 * Home page data. Awaited (the page is built around them): the first 8 brands,
 * 4 featured products, the 8 newest products and one product each for the deal,
 * clearance and redemption promotions with their counts. The brands load on their own:
 * when they fail (`brands: null`) the brand slider shows the spec's failure text and the
 * rest of the page still renders. Streamed (`departments`,
 * a promise): every category with its picture, product count and busiest
 * subcategories, for the category slider and the main category navigation,
 * which show skeletons until it arrives. `origin` is for the canonical URL.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { catalog, shop } = context.get(shopContext);
  const departments: Promise<Department[]> = logRejection(
    context,
    Promise.all([catalog.listCategories(), catalog.listSubcategories()]),
  ).then(([categories, subcategories]) =>
    categories.map((category) => {
      const own = subcategories.filter((subcategory) => subcategory.categoryId === category.id);
      return {
        id: category.id,
        name: category.name,
        imageUrl: categoryPictureUrl(category),
        productCount: category.productCount ?? 0,
        subcategoryCount: own.length,
        subcategories: own
          .toSorted((a, b) => b.productCount - a.productCount || a.name.localeCompare(b.name))
          .slice(0, HOME_SUBCATEGORY_LINKS)
          .map(({ id, name, productCount }) => ({ id, name, productCount })),
      };
    }),
  );
  const first = { page: 1, limit: 1, sort: 'featured' } as const;
  const [brands, featured, collection, deals, clearance, redemption] = await Promise.all([
    loadSection(context, () => catalog.listBrands()),
    catalog.listProducts({ featured: true, sort: 'featured', page: 1, limit: HOME_FEATURED_COUNT }),
    catalog.listProducts({ sort: 'newest', page: 1, limit: HOME_COLLECTION_COUNT }),
    catalog.listProducts({ ...first, onSale: true, inStock: true }),
    catalog.listProducts({ ...first, isClearance: true, inStock: true }),
    catalog.listProducts({ ...first, isRedemption: true, inStock: true }),
  ]);
  return {
    origin: publicOrigin(shop),
    departments,
    brandCount: brands?.length ?? 0,
    brands:
      brands
        ?.slice(0, HOME_BRAND_COUNT)
        .map(({ id, name, logoUrl, productCount }) => ({ id, name, logoUrl, productCount })) ?? null,
    featured: featured.items.map(toProductCardItem),
    collection: collection.items.map(toProductCardItem),
    deal: promo(deals),
    clearance: promo(clearance),
    redemption: promo(redemption),
  };
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const shop = matches[0]?.loaderData?.shop;
  const shopName = shop?.name ?? 'Harbour Tools';
  return pageMeta({
    title: `${shopName} | Power tools, hand tools and site gear in Sydney`,
    description: metaDescription(
      `${shopName}: power tools, hand tools, measuring, welding, safety gear and more from trusted trade brands, delivered Australia-wide or ready to collect in Sydney.`,
    ),
    canonical: loaderData ? absoluteUrl(loaderData.origin, '/') : undefined,
    siteName: shopName,
    jsonLd: shop && loaderData ? [storeJsonLd(shop, loaderData.origin)] : [],
  });
}

/** A promo slide's product (the page's first, as a card) and how many more the page holds. */
function promo(page: ProductPage): { product: ProductCardItem | null; count: number } {
  const first = page.items[0];
  return { product: first ? toProductCardItem(first) : null, count: page.totalCount };
}

function picture(product: ProductCardItem | null): HeroSlide['image'] {
  return product?.imageUrl ? { src: product.imageUrl, alt: product.name } : null;
}

/** The hero's slides, each built from live catalogue data and linking into it. */
function heroSlides(data: Route.ComponentProps['loaderData']): HeroSlide[] {
  const { deal, clearance, collection, featured, brands, brandCount } = data;
  const slides: HeroSlide[] = [];
  const dealProduct = deal.product;
  if (dealProduct && dealProduct.discountPrice !== null) {
    slides.push({
      key: 'deals',
      eyebrow: 'On sale now',
      title: 'Trade deals on the tools you use',
      text: `${dealProduct.name}, now ${formatIncGst(dealProduct.discountPrice)} inc GST, and ${deal.count} more products marked down.`,
      cta: { to: '/deals', label: 'Shop Deals' },
      secondary: { to: `/product/${dealProduct.id}`, label: 'View this deal' },
      image: picture(dealProduct),
      badge: `Save ${formatDollars(savingIncGst(dealProduct.price, dealProduct.discountPrice)).replace(/\.00$/, '')}`,
      tone: 'navy',
    });
  }
  const newest = collection[0];
  if (newest) {
    slides.push({
      key: 'new',
      eyebrow: 'Just landed',
      title: 'New gear for the job',
      text: `The latest lines are in, starting with the ${newest.name} from ${newest.brandName}.`,
      cta: { to: '/new-arrivals', label: 'Shop New Arrivals' },
      secondary: { to: `/product/${newest.id}`, label: 'See what’s new' },
      image: picture(newest),
      tone: 'steel',
    });
  }
  // When the brands failed to load there is nothing true to say on this slide.
  if (brands) {
    const brandNames = brands.map((brand) => brand.name);
    slides.push({
      key: 'brands',
      eyebrow: `${brandCount} trade brands`,
      title: 'The brands the trades trust',
      text: `${brandNames.slice(0, 3).join(', ')} and more: cordless platforms, hand tools and site gear under one roof.`,
      cta: { to: '/shop-by-brand', label: 'Shop by Brand' },
      image: picture(featured[0] ?? newest ?? null),
      tone: 'navy',
    });
  }
  if (clearance.product) {
    slides.push({
      key: 'clearance',
      eyebrow: 'Clearance',
      title: 'Last chance prices',
      text: `${clearance.count} lines marked down to clear. When they are gone, they are gone.`,
      cta: { to: '/clearance', label: 'Shop Clearance' },
      image: picture(clearance.product),
      tone: 'red',
    });
  }
  return slides;
}

function SectionHeading({ id, title, more }: { id: string; title: string; more?: { to: string; label: string } }) {
  return (
    <div className="flex items-end justify-between gap-4 border-b-2 border-gray-200">
      <h2
        id={id}
        className="-mb-0.5 border-b-4 border-accent pb-2 font-display text-2xl font-bold uppercase sm:text-3xl"
      >
        {title}
      </h2>
      {more ? (
        <Link
          to={more.to}
          className="mb-2 flex shrink-0 items-center gap-1 text-sm font-semibold text-navy-700 hover:underline"
        >
          {more.label}
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
            <path d="M7.3 4.3a1 1 0 0 1 1.4 0l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 1 1-1.4-1.4L11.6 10 7.3 5.7a1 1 0 0 1 0-1.4z" />
          </svg>
        </Link>
      ) : null}
    </div>
  );
}

function ProductGrid({ products }: { products: ProductCardItem[] }) {
  if (products.length === 0) {
    return <p className="mt-6 text-gray-600">No products available at the moment. Check back soon.</p>;
  }
  return (
    <ul className="mt-6 grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4">
      {products.map((product) => (
        <li key={product.id}>
          <ProductCard product={product} />
        </li>
      ))}
    </ul>
  );
}

/** The main category navigation: every department with its busiest subcategories. */
function DepartmentGrid({ departments }: { departments: Department[] }) {
  if (departments.length === 0) return <p className="mt-6 text-gray-600">No categories available</p>;
  return (
    <ul className="mt-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
      {departments.map((department) => (
        <li key={department.id} className="flex flex-col rounded-lg border border-gray-200 bg-white p-3 sm:p-4">
          <h3 className="font-display text-lg leading-tight font-bold uppercase sm:text-xl">
            <Link to={`/category/${department.id}`} className="hover:text-navy-700 hover:underline">
              {department.name}
            </Link>
          </h3>
          <p className="tabular text-xs text-gray-600">{department.productCount} products</p>
          {/* On a phone the department names are enough; the subcategory lists would make the page endless. */}
          <ul className="mt-3 hidden flex-1 space-y-1.5 text-sm sm:block">
            {department.subcategories.map((subcategory) => (
              <li key={subcategory.id}>
                <Link
                  to={`/category/${department.id}/subcategory/${subcategory.id}`}
                  className="text-gray-800 hover:text-navy-700 hover:underline"
                >
                  {subcategory.name}
                </Link>
              </li>
            ))}
          </ul>
          <Link
            to={`/category/${department.id}`}
            className="mt-3 hidden text-sm font-semibold text-navy-700 hover:underline sm:block"
          >
            All {department.subcategoryCount}
            <span className="sr-only"> {department.name}</span> subcategories
            <span aria-hidden="true"> →</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function DepartmentSkeleton() {
  return (
    <ul aria-hidden="true" className="mt-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
      {Array.from({ length: 8 }, (_, index) => (
        <li key={index} className="h-24 animate-pulse rounded-lg border border-gray-200 bg-gray-100 sm:h-[15.5rem]" />
      ))}
    </ul>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { departments, brands, featured, collection, clearance, redemption } = loaderData;
  const shopName = useRouteLoaderData<typeof rootLoader>('root')?.shop.name ?? 'Harbour Tools';
  return (
    <>
      <h1 className="sr-only">{`${shopName}: tools and trade supplies for Sydney and Australia`}</h1>
      <HeroSlider slides={heroSlides(loaderData)} />

      <div className="mx-auto max-w-7xl space-y-12 px-4 pt-10 sm:space-y-14">
        <section aria-labelledby="brands-heading">
          <SectionHeading id="brands-heading" title="Top Brands" more={{ to: '/shop-by-brand', label: 'All brands' }} />
          <div className="mt-5">
            {brands ? <BrandSlider brands={brands} /> : <SectionError message={BRANDS_FAILED} />}
          </div>
        </section>

        <section aria-labelledby="categories-heading">
          <SectionHeading id="categories-heading" title="Shop by Category" />
          <div className="mt-5">
            <CategorySlider categories={departments} />
          </div>
        </section>

        <section aria-labelledby="departments-heading" id="categories">
          <SectionHeading
            id="departments-heading"
            title="Browse Departments"
            more={{ to: '/products', label: 'All products' }}
          />
          <Suspense fallback={<DepartmentSkeleton />}>
            {/* Not null: an Await without an errorElement rethrows, which took the whole home page down. */}
            <Await
              resolve={departments}
              errorElement={<p className="mt-6 text-sm text-stock-out">{CATEGORIES_FAILED}</p>}
            >
              {(list) => <DepartmentGrid departments={list} />}
            </Await>
          </Suspense>
        </section>

        <section aria-labelledby="collection-heading">
          <SectionHeading
            id="collection-heading"
            title="New Arrivals"
            more={{ to: '/new-arrivals', label: 'View all' }}
          />
          <ProductGrid products={collection} />
        </section>

        <section aria-label="Promotions" className="grid gap-4 md:grid-cols-2">
          <PromoBanner
            tone="red"
            eyebrow="While stocks last"
            title="Clearance"
            text={`${clearance.count} lines marked down to clear. Grab them before they are gone.`}
            cta={{ to: '/clearance', label: 'Shop Clearance' }}
            image={picture(clearance.product)}
          />
          <PromoBanner
            tone="yellow"
            eyebrow="Rewards"
            title="Redeem your points"
            text={`Turn member points into tools: ${redemption.count} products ready to redeem.`}
            cta={{ to: '/redemption', label: 'Browse Rewards' }}
            image={picture(redemption.product)}
          />
        </section>

        <section aria-labelledby="featured-heading">
          <SectionHeading
            id="featured-heading"
            title="Featured Products"
            more={{ to: '/featured', label: 'View all' }}
          />
          <ProductGrid products={featured} />
        </section>

        <MemberDealsBanner shopName={shopName} />
      </div>
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <section className="mx-auto max-w-3xl px-4 py-20 text-center">
      <title>Something went wrong | Harbour Tools</title>
      <h1 className="font-display text-3xl font-bold uppercase">We could not load the home page</h1>
      <p className="mt-3 text-gray-700">
        Something went wrong on our side ({status}). Please try again in a moment, or browse all products.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <a href="/" className="rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark">
          Try again
        </a>
        <a href="/products" className="rounded border border-navy-700 px-5 py-3 font-semibold text-navy-700">
          All products
        </a>
      </div>
    </section>
  );
}
