import { describe, expect, it } from 'vitest';
import {
  absoluteUrl,
  metaDescription,
  pageMeta,
  productJsonLd,
  publicOrigin,
  sellingPrice,
  storeJsonLd,
} from '../../app/lib/seo.ts';
import type { FullProduct, Product } from '../../contracts/catalog.ts';
import { loadConfig } from '../../server/config.ts';

/** The hours a shop with no SHOP_HOURS shows: spec §2's. */
const OPENING_HOURS = loadConfig({}).shop.openingHours;

const product = {
  id: 7,
  name: 'Cordless Drill Driver 18V',
  sku: 'MAK-DDF485',
  description: 'Brushless motor.\nTwo-speed gearbox.',
  price: 249,
  discountPrice: 199.5,
  stockQuantity: 12,
  isActive: true,
  averageRating: 4.3,
  reviewCount: 3,
  imageUrl: '/media/products/7-1.svg',
} as Product;

const full = {
  product,
  images: [
    { imageUrl: '/media/products/7-1.svg', isPrimary: true },
    { imageUrl: '/media/products/7-2.svg', isPrimary: false },
  ],
  brand: { name: 'Makita' },
  category: { name: 'Power Tools' },
  reviews: [
    {
      id: 1,
      rating: 5,
      title: 'Solid',
      body: 'Great drill',
      authorName: 'Sam',
      createdAt: '2026-01-02T03:04:05.000Z',
    },
  ],
} as unknown as FullProduct;

describe('seo helpers', () => {
  it('names the configured origin, which no request can change (PUBLIC_URL, else http://localhost:PORT)', () => {
    expect(publicOrigin({ publicUrl: 'https://shop.example' })).toBe('https://shop.example');
    expect(publicOrigin({ publicUrl: 'http://localhost:3000' })).toBe('http://localhost:3000');
  });

  it('makes relative paths absolute and leaves absolute URLs alone', () => {
    expect(absoluteUrl('https://shop.example', '/brand/3')).toBe('https://shop.example/brand/3');
    expect(absoluteUrl('https://shop.example', 'media/a.svg')).toBe('https://shop.example/media/a.svg');
    expect(absoluteUrl('https://shop.example', 'https://cdn.example/a.png')).toBe('https://cdn.example/a.png');
  });

  it('cuts long descriptions at a word boundary within 160 characters', () => {
    const long = `${'Heavy duty '.repeat(30)}end`;
    const cut = metaDescription(long);
    expect(cut.length).toBeLessThanOrEqual(160);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).not.toMatch(/\s…$/);
    expect(metaDescription('  Short\n text ')).toBe('Short text');
  });

  it('builds title, description, canonical, Open Graph and JSON-LD descriptors', () => {
    const tags = pageMeta({
      title: 'Drill | Harbour Tools',
      description: 'A drill',
      canonical: 'https://shop.example/product/7',
      image: 'https://shop.example/media/7.svg',
      type: 'product',
      siteName: 'Harbour Tools',
      jsonLd: [{ '@type': 'Thing' }],
    });
    expect(tags).toContainEqual({ title: 'Drill | Harbour Tools' });
    expect(tags).toContainEqual({ name: 'description', content: 'A drill' });
    expect(tags).toContainEqual({ tagName: 'link', rel: 'canonical', href: 'https://shop.example/product/7' });
    expect(tags).toContainEqual({ property: 'og:url', content: 'https://shop.example/product/7' });
    expect(tags).toContainEqual({ property: 'og:type', content: 'product' });
    expect(tags).toContainEqual({ property: 'og:image', content: 'https://shop.example/media/7.svg' });
    expect(tags).toContainEqual({ 'script:ld+json': { '@type': 'Thing' } });
    expect(tags).not.toContainEqual({ name: 'robots', content: 'noindex' });
    expect(pageMeta({ title: 'x', description: 'y', noIndex: true })).toContainEqual({
      name: 'robots',
      content: 'noindex',
    });
  });

  it('describes a product with its offer, images and real rating', () => {
    const ld = productJsonLd('https://shop.example', full, {
      canonical: 'https://shop.example/product/7',
      sellerName: 'Harbour Tools',
    });
    expect(ld).toMatchObject({
      '@type': 'Product',
      // The price a shopper pays, GST included: $199.50 ex GST is $219.45 (spec-decisions "Money").
      offers: {
        price: '219.45',
        priceCurrency: 'AUD',
        priceSpecification: { price: '219.45', priceCurrency: 'AUD', valueAddedTaxIncluded: true },
        availability: 'https://schema.org/InStock',
      },
      image: ['https://shop.example/media/products/7-1.svg', 'https://shop.example/media/products/7-2.svg'],
      brand: { '@type': 'Brand', name: 'Makita' },
      aggregateRating: { ratingValue: 4.3, reviewCount: 3 },
      review: [{ author: { name: 'Sam' }, reviewRating: { ratingValue: 5 } }],
    });
    expect(sellingPrice(product)).toBe(199.5);
  });

  it('marks a product without stock OutOfStock and leaves out the rating without reviews', () => {
    const soldOut = { ...full, product: { ...product, stockQuantity: 0, reviewCount: 0, averageRating: 0 } };
    const ld = productJsonLd('https://shop.example', soldOut, {
      canonical: 'https://shop.example/product/7',
      sellerName: 'Harbour Tools',
    });
    expect(ld).toMatchObject({ offers: { availability: 'https://schema.org/OutOfStock' } });
    const discontinued = productJsonLd(
      'https://shop.example',
      { ...full, product: { ...product, isActive: false } },
      { canonical: 'https://shop.example/product/7', sellerName: 'Harbour Tools' },
    );
    expect(discontinued).toMatchObject({ offers: { availability: 'https://schema.org/Discontinued' } });
    expect(ld).not.toHaveProperty('aggregateRating');
    expect(ld).not.toHaveProperty('review');
  });

  it('describes the store with its address and opening hours, closed days left out', () => {
    const ld = storeJsonLd(
      {
        name: 'Harbour Tools',
        phone: '(02) 9000 0000',
        email: 'hello@harbourtools.example',
        address: {
          street: '14 Boundary Lane',
          suburb: 'Silverwater',
          state: 'NSW',
          postcode: '2128',
          country: 'Australia',
        },
        location: { latitude: -33.8356, longitude: 151.0466 },
        openingHours: OPENING_HOURS,
        social: {
          facebook: 'https://facebook.com/x',
          instagram: 'https://instagram.com/x',
          youtube: 'https://youtube.com/x',
        },
      },
      'https://shop.example',
    );
    expect(ld).toMatchObject({
      '@type': 'HardwareStore',
      address: { addressLocality: 'Silverwater', postalCode: '2128', addressCountry: 'AU' },
    });
    expect((ld as { openingHoursSpecification: unknown }).openingHoursSpecification).toEqual([
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'].map((day) => `https://schema.org/${day}`),
        opens: '08:00',
        closes: '17:00',
      },
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['https://schema.org/Saturday'],
        opens: '09:00',
        closes: '16:00',
      },
    ]);
  });
});
