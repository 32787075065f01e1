/**
 * Search-engine and link-preview tags for any page, built from data a loader
 * already has. Usage in a route module:
 *
 *   export async function loader({ request, context }) {
 *     const { shop } = context.get(shopContext);
 *     return { …, origin: publicOrigin(shop) };
 *   }
 *   export function meta({ loaderData, matches }) {
 *     return pageMeta({
 *       title: `${name} | ${shopName}`,
 *       description: metaDescription(text),
 *       canonical: absoluteUrl(loaderData.origin, '/brand/7'),
 *       jsonLd: [storeJsonLd(shop, loaderData.origin)],
 *     });
 *
 * BreadcrumbList JSON-LD comes from `<Breadcrumb origin={origin}>` (app/components/breadcrumb.tsx).
 *   }
 *
 * Every helper is pure, so it works in meta() on the server and in the browser.
 */
import type { MetaDescriptor } from 'react-router';
import type { FullProduct, Product, Review } from '../../contracts/catalog.ts';
import type { ShopInfo } from '../../contracts/shop-info.ts';
import { incGstDollars } from './price-display.ts';

/** Longest meta description search engines show before cutting it. */
export const META_DESCRIPTION_LENGTH = 160;
export const CURRENCY = 'AUD';

/**
 * The shop's public origin: PUBLIC_URL, else http://localhost:PORT (server/config.ts). Never
 * the origin a request came in on: its Host header is the client's to write, and a kept page
 * would carry a forged one to every shopper after.
 */
export function publicOrigin(shop: Pick<ShopInfo, 'publicUrl'>): string {
  return shop.publicUrl;
}

/** Path or relative image URL → absolute URL on the shop's origin; absolute URLs pass through. */
export function absoluteUrl(origin: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${origin}${path.startsWith('/') ? '' : '/'}${path}`;
}

/** Collapses whitespace and cuts at a word boundary with an ellipsis, for `<meta name="description">`. */
export function metaDescription(text: string, maxLength = META_DESCRIPTION_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= maxLength) return flat;
  const cut = flat.slice(0, maxLength - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > maxLength / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,.;:–-]+$/, '')}…`;
}

export interface PageSeo {
  /** The whole `<title>`, shop name included. */
  title: string;
  description: string;
  /** Absolute canonical URL; also used as og:url. */
  canonical?: string;
  /** Absolute URL of the preview image. */
  image?: string | null;
  imageAlt?: string;
  /** og:type: 'website' for listings, 'product' for a product page. */
  type?: 'website' | 'product' | 'article';
  siteName?: string;
  /** For pages that must stay out of search results (not-found states, carts). */
  noIndex?: boolean;
  /** schema.org objects, each rendered as its own `<script type="application/ld+json">`. */
  jsonLd?: object[];
}

/** Title, description, canonical link, Open Graph, Twitter card and JSON-LD as React Router meta descriptors. */
export function pageMeta(seo: PageSeo): MetaDescriptor[] {
  const tags: MetaDescriptor[] = [{ title: seo.title }, { name: 'description', content: seo.description }];
  if (seo.noIndex) tags.push({ name: 'robots', content: 'noindex' });
  if (seo.canonical) tags.push({ tagName: 'link', rel: 'canonical', href: seo.canonical });
  tags.push(
    { property: 'og:type', content: seo.type ?? 'website' },
    { property: 'og:title', content: seo.title },
    { property: 'og:description', content: seo.description },
  );
  if (seo.siteName) tags.push({ property: 'og:site_name', content: seo.siteName });
  if (seo.canonical) tags.push({ property: 'og:url', content: seo.canonical });
  tags.push({ property: 'og:locale', content: 'en_AU' });
  if (seo.image) {
    tags.push({ property: 'og:image', content: seo.image });
    if (seo.imageAlt) tags.push({ property: 'og:image:alt', content: seo.imageAlt });
  }
  tags.push({ name: 'twitter:card', content: seo.image ? 'summary_large_image' : 'summary' });
  for (const object of seo.jsonLd ?? []) tags.push({ 'script:ld+json': object });
  return tags;
}

/* ---------------- schema.org JSON-LD ---------------- */

/** The price a shopper pays: the discount price when there is one. */
export function sellingPrice(product: Pick<Product, 'price' | 'discountPrice'>): number {
  return product.discountPrice ?? product.price;
}

/**
 * schema.org Product with its offer (price in AUD, availability from stock),
 * brand, images and — only when reviews exist — aggregateRating and reviews.
 */
export function productJsonLd(
  origin: string,
  full: Pick<FullProduct, 'product' | 'images' | 'brand' | 'category'> & { reviews?: Review[] },
  options: { canonical: string; sellerName: string },
): object {
  const { product } = full;
  const images = (full.images.length > 0 ? full.images.map((image) => image.imageUrl) : [product.imageUrl])
    .filter((url): url is string => Boolean(url))
    .map((url) => absoluteUrl(origin, url));
  const object: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    '@id': `${options.canonical}#product`,
    name: product.name,
    sku: product.sku,
    description: metaDescription(product.description, 5000),
    url: options.canonical,
    category: full.category.name,
    brand: { '@type': 'Brand', name: full.brand.name },
    offers: {
      '@type': 'Offer',
      url: options.canonical,
      // What the shopper pays, GST included, as the page headlines it (spec-decisions "Money").
      price: incGstDollars(sellingPrice(product)).toFixed(2),
      priceCurrency: CURRENCY,
      priceSpecification: {
        '@type': 'PriceSpecification',
        price: incGstDollars(sellingPrice(product)).toFixed(2),
        priceCurrency: CURRENCY,
        valueAddedTaxIncluded: true,
      },
      availability: !product.isActive
        ? 'https://schema.org/Discontinued'
        : product.stockQuantity > 0
          ? 'https://schema.org/InStock'
          : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
      seller: { '@type': 'Organization', name: options.sellerName },
    },
  };
  if (images.length > 0) object.image = images;
  if (product.reviewCount > 0) {
    object.aggregateRating = {
      '@type': 'AggregateRating',
      ratingValue: product.averageRating,
      reviewCount: product.reviewCount,
      bestRating: 5,
      worstRating: 1,
    };
    const reviews = full.reviews ?? [];
    if (reviews.length > 0) {
      object.review = reviews.slice(0, 5).map((review) => ({
        '@type': 'Review',
        name: review.title,
        reviewBody: review.body,
        datePublished: review.createdAt.slice(0, 10),
        author: { '@type': 'Person', name: review.authorName },
        reviewRating: { '@type': 'Rating', ratingValue: review.rating, bestRating: 5, worstRating: 1 },
      }));
    }
  }
  return object;
}

/**
 * The shop as a schema.org HardwareStore (a LocalBusiness) with its address,
 * coordinates, phone and opening hours — for the store-locations and contact pages.
 */
export function storeJsonLd(
  shop: Pick<ShopInfo, 'name' | 'phone' | 'email' | 'address' | 'location' | 'openingHours' | 'social'>,
  origin: string,
): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'HardwareStore',
    '@id': `${origin}/#store`,
    name: shop.name,
    url: `${origin}/`,
    telephone: shop.phone,
    email: shop.email,
    image: absoluteUrl(origin, '/favicon.svg'),
    priceRange: '$$',
    currenciesAccepted: CURRENCY,
    address: {
      '@type': 'PostalAddress',
      streetAddress: shop.address.street,
      addressLocality: shop.address.suburb,
      addressRegion: shop.address.state,
      postalCode: shop.address.postcode,
      addressCountry: shop.address.country === 'Australia' ? 'AU' : shop.address.country,
    },
    geo: { '@type': 'GeoCoordinates', latitude: shop.location.latitude, longitude: shop.location.longitude },
    // Closed days are left out: schema.org reads a day without a specification as closed.
    openingHoursSpecification: shop.openingHours
      .filter((hours) => hours.opens !== null && hours.closes !== null)
      .map((hours) => ({
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: hours.days.map((day) => `https://schema.org/${day}`),
        opens: hours.opens,
        closes: hours.closes,
      })),
    sameAs: Object.values(shop.social),
  };
}
