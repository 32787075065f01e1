import { useState } from 'react';
import {
  data,
  isRouteErrorResponse,
  Link,
  useFetcher,
  useLocation,
  useNavigate,
  useRouteError,
  useRouteLoaderData,
} from 'react-router';
import type { AccountSummary } from '../../contracts/account-fields.ts';
import type { FullProduct, Variant } from '../../contracts/catalog.ts';
import { formatDollars } from '../../contracts/money.ts';
import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import { idSchema } from '../../contracts/params.ts';
import { toProductCardItem } from '../../contracts/product-card.ts';
import { LOW_STOCK_THRESHOLD } from '../../contracts/stock.ts';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { FrequentlyBought } from '../components/frequently-bought.tsx';
import { Price, WasPrice } from '../components/price.tsx';
import { ProductDescription } from '../components/product-description.tsx';
import { ProductGallery } from '../components/product-gallery.tsx';
import { QuantitySelector } from '../components/quantity-selector.tsx';
import { RatingStars } from '../components/rating-stars.tsx';
import { ReviewList } from '../components/review-list.tsx';
import { SpecTable } from '../components/spec-table.tsx';
import { addToCart, quantityInCart, updateCart, useCart } from '../lib/cart.ts';
import { formatIncGst, incGstDollars, savingIncGst } from '../lib/price-display.ts';
import {
  availableStock,
  canonicalProductPath,
  clampQuantity,
  formatShortDollars,
  guaranteeCard,
  savingsOf,
  specificationRows,
} from '../lib/product-page.ts';
import { absoluteUrl, metaDescription, pageMeta, productJsonLd, publicOrigin, sellingPrice } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/product';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

/** Specifications repeated in the buy box; the full table is further down. */
const KEY_SPECIFICATIONS = 4;

function notFound(): never {
  throw data('Product not found', { status: 404, statusText: 'Not Found' });
}

/**
 * The product page, for `/product/:id` and `/category/:c/subcategory/:s/product/:id`
 * (listing pages link to the nested one; both render the same page and name
 * `/product/:id` as canonical). Returns the full product (gallery, variants,
 * brand, category, subcategory, related items, reviews) plus the shop facts the
 * promo cards and SEO tags need. A malformed or unknown id is a 404
 * ('Product not found'); any other failure reaches the ErrorBoundary.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = idSchema.safeParse(params.id);
  if (!id.success) notFound();
  for (const extra of [params.categoryId, params.subcategoryId]) {
    if (extra !== undefined && !idSchema.safeParse(extra).success) notFound();
  }
  const { catalog, shop } = context.get(shopContext);
  let full: FullProduct;
  try {
    full = await catalog.getFullProduct(id.data);
  } catch (error) {
    // Matched by status, not instanceof: the services come from the server process, not this bundle.
    if ((error as { statusCode?: unknown }).statusCode === 404) notFound();
    throw error;
  }
  return {
    full: { ...full, relatedProducts: full.relatedProducts.map(toProductCardItem) },
    origin: publicOrigin(shop),
    shop: {
      name: shop.name,
      phone: shop.phone,
      freeShippingThreshold: shop.shipping.freeThreshold,
    },
  };
}

export function meta({ loaderData, error, matches }: Route.MetaArgs) {
  if (!loaderData) {
    const missing = isRouteErrorResponse(error) && error.status === 404;
    const shopName = matches[0]?.loaderData?.shop.name ?? 'Harbour Tools';
    return pageMeta({
      title: `${missing ? 'Product not found' : 'Failed to load product'} | ${shopName}`,
      description: missing ? 'This product does not exist or is no longer sold.' : 'This product could not be loaded.',
      noIndex: true,
    });
  }
  const { full, origin, shop } = loaderData;
  const { product } = full;
  const canonical = absoluteUrl(origin, canonicalProductPath(product.id));
  const price = `${formatIncGst(sellingPrice(product))} inc GST`;
  const summary = [product.tagLine, product.description].filter(Boolean).join('. ');
  return pageMeta({
    title: `${product.name} | ${full.brand.name} | ${shop.name}`,
    description: metaDescription(`${product.name} — ${price}. ${summary}`),
    canonical,
    type: 'product',
    siteName: shop.name,
    image: product.imageUrl ? absoluteUrl(origin, product.imageUrl) : null,
    imageAlt: product.name,
    // A discontinued product still answers (old links, past orders) but should leave search results.
    noIndex: !product.isActive,
    jsonLd: [productJsonLd(origin, full, { canonical, sellerName: shop.name })],
  }).concat([
    // The price a shopper pays, GST included (Australian listings quote prices with tax).
    { property: 'product:price:amount', content: incGstDollars(sellingPrice(product)).toFixed(2) },
    { property: 'product:price:currency', content: 'AUD' },
    { property: 'product:availability', content: product.stockQuantity > 0 ? 'in stock' : 'out of stock' },
  ]);
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { full, origin, shop } = loaderData;
  const { product, brand, category, subcategory, images, variants, relatedProducts, reviews } = full;
  const [announcement, setAnnouncement] = useState('');
  const specs = specificationRows(product);

  return (
    <div className="bg-gray-50 pb-16">
      <div className="mx-auto max-w-7xl px-4 pt-5">
        <Breadcrumb
          origin={origin}
          items={[
            { label: category.name, href: `/category/${category.id}` },
            { label: subcategory.name, href: `/category/${category.id}/subcategory/${subcategory.id}` },
            { label: product.name },
          ]}
        />
      </div>

      <div className="mx-auto mt-4 grid max-w-7xl gap-6 px-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] lg:gap-10">
        <ProductGallery images={images} productName={product.name} />
        <BuyBox full={full} shop={shop} onAnnounce={setAnnouncement} />
      </div>

      {/* One polite live region for every "added to cart" message on the page. */}
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>

      {relatedProducts.length > 0 ? (
        <section aria-labelledby="together-heading" className="mx-auto mt-12 max-w-7xl px-4">
          <h2 id="together-heading" className="font-display text-2xl font-bold uppercase tracking-wide">
            Frequently Purchased Together
          </h2>
          <div className="mt-4">
            <FrequentlyBought products={relatedProducts} onAdded={setAnnouncement} />
          </div>
        </section>
      ) : null}

      <div className="mx-auto mt-12 grid max-w-7xl gap-10 px-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <section aria-labelledby="description-heading">
          <h2 id="description-heading" className="font-display text-2xl font-bold uppercase tracking-wide">
            Description
          </h2>
          <div className="mt-4 rounded-lg border border-gray-200 bg-white p-5">
            <ProductDescription description={product.description} />
          </div>
        </section>
        <section aria-labelledby="specs-heading">
          <h2 id="specs-heading" className="scroll-mt-4 font-display text-2xl font-bold uppercase tracking-wide">
            Technical Specifications
          </h2>
          <div className="mt-4 bg-white">
            <SpecTable rows={specs} caption={`Technical specifications of ${product.name}`} />
          </div>
        </section>
      </div>

      {variants.length > 0 ? (
        <section aria-labelledby="variants-heading" className="mx-auto mt-12 max-w-7xl px-4">
          <h2 id="variants-heading" className="font-display text-2xl font-bold uppercase tracking-wide">
            Available Options
          </h2>
          <VariantTable variants={variants} basePrice={sellingPrice(product)} />
        </section>
      ) : null}

      <section aria-labelledby="reviews-heading" id="reviews" className="mx-auto mt-12 max-w-7xl scroll-mt-4 px-4">
        <h2 id="reviews-heading" className="font-display text-2xl font-bold uppercase tracking-wide">
          Customer Reviews
        </h2>
        <div className="mt-4 rounded-lg border border-gray-200 bg-white p-5">
          <ReviewList reviews={reviews} averageRating={product.averageRating} reviewCount={product.reviewCount} />
        </div>
      </section>

      <p className="mx-auto mt-8 max-w-7xl px-4 text-sm text-gray-600">
        Looking for something similar? See more from{' '}
        <Link to={`/brand/${brand.id}`} className="font-semibold text-navy-700 underline">
          {brand.name}
        </Link>{' '}
        or browse{' '}
        <Link
          to={`/category/${category.id}/subcategory/${subcategory.id}`}
          className="font-semibold text-navy-700 underline"
        >
          all {subcategory.name}
        </Link>
        .
      </p>
    </div>
  );
}

type LoaderData = Route.ComponentProps['loaderData'];

/** Tag line, brand, name, rating, price, stock, quantity, the two buttons and the promo cards. */
function BuyBox({
  full,
  shop,
  onAnnounce,
}: {
  full: LoaderData['full'];
  shop: LoaderData['shop'];
  onAnnounce: (message: string) => void;
}) {
  const { product, brand, variants } = full;
  const navigate = useNavigate();
  const cart = useCart();
  // The option being bought: the product itself, or one of its variants (own stock, price, SKU).
  const [variantId, setVariantId] = useState<number | null>(null);
  const variant = variants.find((candidate) => candidate.id === variantId) ?? null;
  const inCart = quantityInCart(cart, product.id, variant?.id ?? null);
  const stockOfChoice = variant ? variant.stockQuantity : product.stockQuantity;
  const available = product.isActive ? availableStock(stockOfChoice, inCart) : 0;
  const [requested, setRequested] = useState(1);
  const quantity = clampQuantity(requested, available);
  const price = variant?.price ?? sellingPrice(product);
  const savings = variant?.price != null ? 0 : savingsOf(product);
  const sku = variant?.sku ?? product.sku;
  const soldOut = available < 1;
  // The product's own specifications (not SKU or brand, shown above), the first few at a glance.
  const highlights = Object.entries(product.specifications)
    .filter(([label, value]) => label.trim() && String(value).trim() && label.toLowerCase() !== 'model')
    .slice(0, KEY_SPECIFICATIONS);

  const add = (): boolean => {
    if (soldOut || quantity > available) return false;
    updateCart((current) =>
      addToCart(
        current,
        {
          id: product.id,
          variantId: variant?.id ?? null,
          variantName: variant?.name ?? null,
          name: product.name,
          price,
          originalPrice: variant?.price ?? product.price,
          image: product.imageUrl,
          sku,
          maxQuantity: stockOfChoice,
        },
        quantity,
      ),
    );
    setRequested(1);
    onAnnounce(`Added ${quantity} × ${product.name}${variant ? ` (${variant.name})` : ''} to your cart.`);
    return true;
  };

  return (
    <div className="flex flex-col gap-4 rounded-lg border border-gray-200 bg-white p-5 lg:p-6">
      {product.tagLine ? (
        <p className="-mx-5 -mt-5 rounded-t-lg bg-accent px-5 py-2 text-sm font-bold uppercase tracking-wide text-ink lg:-mx-6 lg:-mt-6 lg:px-6">
          {product.tagLine}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Link
          to={`/brand/${brand.id}`}
          className="rounded border border-navy-700 px-2 py-0.5 text-xs font-bold uppercase tracking-wider text-navy-700 hover:bg-navy-700 hover:text-white"
        >
          {brand.name}
        </Link>
        {product.isClearance ? (
          <span className="rounded bg-navy-900 px-2 py-0.5 text-xs font-bold uppercase text-white">Clearance</span>
        ) : null}
      </div>
      <h1 className="font-display text-3xl font-bold leading-tight sm:text-4xl">{product.name}</h1>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-gray-700">
        {product.reviewCount > 0 ? (
          <a href="#reviews" className="flex items-center gap-2 hover:underline">
            <RatingStars rating={product.averageRating} count={product.reviewCount} />
            <span aria-hidden="true">{product.averageRating.toFixed(1)} out of 5</span>
          </a>
        ) : (
          <span>No reviews yet</span>
        )}
        <span>
          SKU: <span className="tabular font-medium text-ink">{sku}</span>
        </span>
      </div>

      <div className="flex flex-wrap items-end gap-x-3 gap-y-2 border-y border-gray-100 py-4">
        <p>
          <Price
            exGst={price}
            size="page"
            onSale={savings > 0}
            srPrefix={savings > 0 ? 'Now' : undefined}
            testId="product-price"
          />
        </p>
        {savings > 0 ? (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 pb-1">
            <p>
              <WasPrice exGst={product.price} className="text-lg" />
            </p>
            <p className="tabular rounded bg-sale px-2 py-1 text-sm font-bold text-white">
              Save {formatDollars(savingIncGst(product.price, price))}
            </p>
          </div>
        ) : null}
      </div>

      {variants.length > 0 && product.isActive ? (
        <fieldset>
          <legend className="mb-1 text-sm font-semibold text-gray-700">Option</legend>
          <div className="flex flex-wrap gap-2">
            {[null, ...variants].map((option) => {
              const id = option?.id ?? null;
              const outOfStock = (option ? option.stockQuantity : product.stockQuantity) < 1;
              return (
                <label
                  key={id ?? 'standard'}
                  className={`cursor-pointer rounded-md border px-3 py-2 text-sm font-semibold has-[:checked]:border-navy-800 has-[:checked]:bg-navy-900 has-[:checked]:text-white has-[:focus-visible]:outline has-[:focus-visible]:outline-2 ${
                    outOfStock
                      ? 'border-gray-200 text-gray-500 line-through'
                      : 'border-gray-300 text-ink hover:border-navy-700'
                  }`}
                >
                  <input
                    type="radio"
                    name="variant"
                    className="sr-only"
                    checked={variantId === id}
                    onChange={() => {
                      setVariantId(id);
                      setRequested(1);
                    }}
                  />
                  {option ? option.name : 'Standard'}
                  {outOfStock ? <span className="sr-only"> (out of stock)</span> : null}
                </label>
              );
            })}
          </div>
        </fieldset>
      ) : null}

      {product.isActive ? (
        <ProductStock available={available} inCart={inCart} />
      ) : (
        <p className="font-semibold text-stock-out" data-testid="product-stock">
          This product has been discontinued and can no longer be ordered.
        </p>
      )}

      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <QuantitySelector value={quantity} max={available} onChange={setRequested} />
        <div className="grid flex-1 grid-cols-2 gap-3">
          <button
            type="button"
            disabled={soldOut}
            onClick={add}
            className="h-12 whitespace-nowrap rounded-md bg-accent px-3 font-bold uppercase tracking-wide text-ink hover:bg-accent-dark disabled:cursor-not-allowed disabled:bg-gray-200 disabled:text-gray-600"
          >
            Add to Cart
          </button>
          <button
            type="button"
            disabled={soldOut}
            onClick={() => {
              if (add()) navigate('/cart');
            }}
            className="h-12 whitespace-nowrap rounded-md bg-navy-900 px-3 font-bold uppercase tracking-wide text-white hover:bg-navy-700 disabled:cursor-not-allowed disabled:bg-gray-200 disabled:text-gray-600"
          >
            Buy Now
          </button>
        </div>
      </div>

      {product.isRedemption && product.pointsCost ? (
        <RedeemWithPoints productId={product.id} pointsCost={product.pointsCost} />
      ) : null}

      <ul className="grid grid-cols-3 gap-2 sm:gap-3">
        <PromoCard
          icon="truck"
          title="Free Shipping"
          detail={`On orders over ${formatShortDollars(shop.freeShippingThreshold)} before GST`}
        />
        <PromoCard icon="shield" {...guaranteeCard(product.warrantyPeriod)} />
        <PromoCard
          icon="phone"
          title="Expert Advice"
          detail={`Call ${shop.phone}`}
          href={`tel:${shop.phone.replace(/[^\d+]/g, '')}`}
        />
      </ul>

      {highlights.length > 0 ? (
        <div className="border-t border-gray-100 pt-4">
          <h2 className="text-sm font-bold uppercase tracking-wide text-gray-700">Key specifications</h2>
          <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
            {highlights.map(([label, value]) => (
              <div key={label} className="min-w-0">
                <dt className="text-gray-600">{label}</dt>
                <dd className="font-semibold">{value}</dd>
              </div>
            ))}
          </dl>
          <a href="#specs-heading" className="mt-3 inline-block text-sm font-semibold text-navy-700 hover:underline">
            See all specifications
          </a>
        </div>
      ) : null}
    </div>
  );
}

/** Stock the shopper can still add, so it drops as they add to the cart (spec §4). */
function ProductStock({ available, inCart }: { available: number; inCart: number }) {
  const inCartNote = inCart > 0 ? ` (${inCart} in your cart)` : '';
  let text: string;
  let tone: string;
  if (available < 1) {
    text = inCart > 0 ? `No more stock available${inCartNote}` : 'Out of stock';
    tone = 'text-stock-out';
  } else if (available <= LOW_STOCK_THRESHOLD) {
    text = `Only ${available} left in stock${inCartNote}`;
    tone = 'text-stock-low';
  } else {
    text = `In stock: ${available} available${inCartNote}`;
    tone = 'text-stock-in';
  }
  return (
    <p className={`flex items-center gap-2 font-semibold ${tone}`} data-testid="product-stock">
      <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-full bg-current" />
      {text}
    </p>
  );
}

const PROMO_ICONS = {
  truck:
    'M3 6h11v9H3zM14 9h4l3 3v3h-7zM7.5 18.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM17.5 18.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3z',
  shield: 'M12 3l7 3v5c0 4.5-3 8.3-7 10-4-1.7-7-5.5-7-10V6zM8.5 12l2.5 2.5 4.5-5',
  phone: 'M5 4h3l2 5-2.5 1.5a11 11 0 0 0 6 6L15 14l5 2v3a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2z',
} as const;

function PromoCard({
  icon,
  title,
  detail,
  href,
}: {
  icon: keyof typeof PROMO_ICONS;
  title: string;
  detail: string;
  href?: string;
}) {
  return (
    <li className="flex flex-col items-center gap-1.5 rounded-md bg-navy-100 p-2.5 text-center xl:flex-row xl:gap-3 xl:p-3 xl:text-left">
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-7 w-7 shrink-0 text-navy-800 xl:h-8 xl:w-8"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d={PROMO_ICONS[icon]} />
      </svg>
      <div className="min-w-0 text-xs leading-tight sm:text-sm">
        <p className="font-bold text-navy-900">{title}</p>
        {href ? (
          <a href={href} className="text-gray-700 hover:underline">
            {detail}
          </a>
        ) : (
          <p className="text-gray-700">{detail}</p>
        )}
      </div>
    </li>
  );
}

function VariantTable({ variants, basePrice }: { variants: Variant[]; basePrice: number }) {
  return (
    <div className="mt-4 overflow-x-auto rounded-lg border border-gray-200 bg-white">
      <table className="w-full text-sm">
        <caption className="sr-only">Options of this product with their price and stock</caption>
        <thead className="bg-gray-50 text-left text-gray-700">
          <tr>
            <th scope="col" className="px-4 py-2.5">
              Option
            </th>
            <th scope="col" className="px-4 py-2.5">
              Details
            </th>
            <th scope="col" className="px-4 py-2.5">
              SKU
            </th>
            <th scope="col" className="px-4 py-2.5 text-right">
              Price
            </th>
            <th scope="col" className="px-4 py-2.5 text-right">
              Stock
            </th>
          </tr>
        </thead>
        <tbody>
          {variants.map((variant) => (
            <tr key={variant.id} className="border-t border-gray-200">
              <th scope="row" className="px-4 py-2.5 text-left font-semibold">
                {variant.name}
              </th>
              <td className="px-4 py-2.5 text-gray-700">
                {Object.entries(variant.attributes)
                  .map(([key, value]) => `${key}: ${value}`)
                  .join(', ') || '—'}
              </td>
              <td className="tabular px-4 py-2.5">{variant.sku}</td>
              <td className="px-4 py-2.5 text-right">
                <Price exGst={variant.price ?? basePrice} size="line" align="end" />
              </td>
              <td
                className={`px-4 py-2.5 text-right font-semibold ${variant.stockQuantity > 0 ? 'text-stock-in' : 'text-stock-out'}`}
              >
                {variant.stockQuantity > 0 ? `${variant.stockQuantity} in stock` : 'Out of stock'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <section className="mx-auto max-w-3xl px-4 py-20 text-center">
        <p className="font-display text-6xl font-bold text-navy-800">404</p>
        <h1 className="mt-2 font-display text-3xl font-bold">Product not found</h1>
        <p className="mt-3 text-gray-700">
          This product does not exist or is no longer sold. Try searching for it, or browse the range.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to="/products" className="rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark">
            Browse all products
          </Link>
          <Link to="/" className="rounded border border-gray-300 px-5 py-3 font-semibold hover:bg-gray-50">
            Back to the home page
          </Link>
        </div>
      </section>
    );
  }
  return (
    <section className="mx-auto max-w-3xl px-4 py-20 text-center">
      <h1 className="font-display text-3xl font-bold">Failed to load product</h1>
      <p className="mt-3 text-gray-700">Please check your connection and try again.</p>
      <a
        href={`${location.pathname}${location.search}`}
        className="mt-8 inline-block rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark"
      >
        Try again
      </a>
    </section>
  );
}

/**
 * 'Redeem for N points' on a redemption product: one unit, shipped to the default address,
 * paid with points (the /redeem action). Signed out, it leads to sign-in first.
 */
function RedeemWithPoints({ productId, pointsCost }: { productId: number; pointsCost: number }) {
  const fetcher = useFetcher<{ message?: string }>();
  const root = useRouteLoaderData('root') as { account?: AccountSummary | null } | undefined;
  const account = root?.account ?? null;
  const label = `Redeem for ${pointsCost.toLocaleString('en-AU')} points`;
  if (!account) {
    return (
      <Link
        to={`/login?redirectTo=${encodeURIComponent(`/product/${productId}`)}`}
        data-signed-out-only=""
        className="flex h-12 items-center justify-center rounded-md border-2 border-navy-900 font-bold uppercase tracking-wide text-navy-900 hover:bg-navy-100"
      >
        Sign in to redeem for {pointsCost.toLocaleString('en-AU')} points
      </Link>
    );
  }
  return (
    <div>
      <fetcher.Form method="post" action="/redeem">
        <input type="hidden" name="productId" value={productId} />
        <input type="hidden" name="quantity" value="1" />
        <button
          type="submit"
          disabled={fetcher.state !== 'idle' || account.points < pointsCost}
          className="h-12 w-full rounded-md border-2 border-navy-900 font-bold uppercase tracking-wide text-navy-900 hover:bg-navy-100 disabled:cursor-not-allowed disabled:border-gray-300 disabled:text-gray-500"
        >
          {fetcher.state !== 'idle' ? 'Redeeming…' : label}
        </button>
      </fetcher.Form>
      <p className="mt-1 text-sm text-gray-700">
        You have {account.points.toLocaleString('en-AU')} points.
        {account.points < pointsCost ? ' Not enough points yet.' : ''}
      </p>
      {fetcher.data?.message ? (
        <p role="alert" className="mt-1 text-sm font-semibold text-sale">
          {fetcher.data.message}
        </p>
      ) : null}
    </div>
  );
}
