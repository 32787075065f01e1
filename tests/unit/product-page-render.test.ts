import { createElement, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { describe, expect, it } from 'vitest';
import ProductPage from '../../app/routes/product.tsx';
import type { FullProduct, Product } from '../../contracts/catalog.ts';

/* The product page as the server renders it, from loader data made here (no database). */

let shown: ReactElement | null = null;
function Shown(): ReactElement | null {
  return shown;
}
/** The page reads the root loader's data and uses fetchers, so it needs a data router around it. */
const Stub = createRoutesStub([{ path: '/', Component: Shown }]);

function product(overrides: Partial<Product> = {}): Product {
  return {
    id: 7,
    name: 'Cordless Drill',
    sku: 'CD-7',
    description: 'Drills holes.',
    specifications: {},
    price: 89,
    discountPrice: null,
    stockQuantity: 20,
    brandId: 1,
    brandName: 'Brand',
    categoryId: 1,
    categoryName: 'Power Tools',
    subcategoryId: 1,
    subcategoryName: 'Drills',
    tagLine: null,
    isFeatured: false,
    isRedemption: false,
    pointsCost: null,
    isClearance: false,
    isActive: true,
    averageRating: 0,
    rating: 0,
    reviewCount: 0,
    imageUrl: null,
    images: [],
    weightKg: null,
    dimensions: null,
    warrantyPeriod: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function renderPage(overrides: Partial<Product> = {}): string {
  const full: FullProduct = {
    product: product(overrides),
    images: [],
    variants: [],
    brand: { id: 1, name: 'Brand', slug: 'brand', description: '', imageUrl: null, logoUrl: null },
    category: { id: 1, name: 'Power Tools', slug: 'power-tools', description: '', imageUrl: null },
    subcategory: {
      id: 1,
      name: 'Drills',
      slug: 'drills',
      description: '',
      categoryId: 1,
      categoryName: 'Power Tools',
      imageUrl: null,
      productCount: 1,
    },
    relatedProducts: [],
    reviews: [],
  };
  const loaderData = {
    full,
    origin: 'http://shop.test',
    shop: { name: 'Harbour Tools', phone: '(02) 9000 0000', freeShippingThreshold: 100 },
  };
  // biome-ignore lint/suspicious/noExplicitAny: the route's generated props type is not needed to render it.
  shown = createElement(ProductPage as any, { loaderData, params: {}, matches: [] });
  return renderToString(createElement(Stub, { initialEntries: ['/'] }));
}

/** The page's text without tags, spaces collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('the product page warranty card (issue 22 "Warranty as entered")', () => {
  it('shows the product’s own warranty period', () => {
    const text = textOf(renderPage({ warrantyPeriod: '5 years' }));
    expect(text).toContain('5-Year Warranty');
    expect(text).not.toContain('3-Year Warranty');
  });

  it('never invents a warranty when the owner left it empty: the returns promise instead', () => {
    for (const empty of [null, '', '   ']) {
      const text = textOf(renderPage({ warrantyPeriod: empty }));
      expect(text, JSON.stringify(empty)).not.toMatch(/Warranty/);
      expect(text, JSON.stringify(empty)).toContain('30-Day Returns');
    }
  });
});

describe('the product page price (issue 22 "GST-inclusive display")', () => {
  it('headlines the GST-inclusive price with "inc GST" and the ex-GST price beside it, smaller', () => {
    const html = renderPage({ price: 89 });
    const text = textOf(html);
    expect(text).toContain('$97.90 inc GST');
    expect(text).toContain('$89.00 ex GST');
    expect(text).not.toMatch(/excluding GST|added at checkout/);
    // The headline is the bigger type: the ex-GST figure sits in small print.
    const price = /data-testid="product-price"[\s\S]*?ex GST/.exec(html)?.[0] ?? '';
    expect(price).toMatch(/class="[^"]*text-5xl[^"]*"[^>]*>\$97\.90</);
    expect(price).toMatch(/class="[^"]*text-sm[^"]*"[^>]*>\$89\.00<!-- --> ex GST/);
  });

  it('says Was and Save GST-inclusive too', () => {
    const text = textOf(renderPage({ price: 100, discountPrice: 89 }));
    expect(text).toContain('Now $97.90 inc GST');
    expect(text).toContain('Was $110.00');
    expect(text).toContain('Save $12.10');
    expect(text).not.toContain('Save $11.00');
  });

  it('explains the free-delivery threshold as before GST', () => {
    expect(textOf(renderPage())).toContain('On orders over $100 before GST');
  });
});
