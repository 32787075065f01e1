import { createElement, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ProductCard } from '../../app/components/product-card.tsx';
import { ProductGallery } from '../../app/components/product-gallery.tsx';
import type { Image, Product } from '../../contracts/catalog.ts';

/* Uploaded pictures reach the storefront in WebP sizes (issue 10); seeded SVGs stay single files. */

/** The element being rendered: renderToString is synchronous, so one slot is enough. */
let shown: ReactElement | null = null;
function Shown(): ReactElement | null {
  return shown;
}
/** The card reads the root loader's data (wishlist), so it needs a data router around it. */
const Stub = createRoutesStub([{ path: '/', Component: Shown }]);

function inRouter(element: ReactElement): ReactElement {
  shown = element;
  return createElement(Stub, { initialEntries: ['/'] });
}

const SRCSET =
  '/media/products/0e1f-400.webp 400w, /media/products/0e1f-800.webp 800w, /media/products/0e1f-1600.webp 1600w';

function product(overrides: Partial<Product> = {}): Product {
  // Only what the card shows; other fields of the shape do not matter here.
  return {
    id: 7,
    name: 'Cordless Drill',
    sku: 'CD-7',
    description: '',
    specifications: {},
    price: 199,
    discountPrice: null,
    stockQuantity: 4,
    brandId: 1,
    brandName: 'Brand',
    categoryId: 1,
    categoryName: 'Power Tools',
    subcategoryId: 1,
    subcategoryName: 'Drills',
    tagLine: null,
    isFeatured: false,
    isRedemption: false,
    isClearance: false,
    isActive: true,
    averageRating: 0,
    rating: 0,
    reviewCount: 0,
    imageUrl: '/media/products/0e1f-800.webp',
    images: [],
    weightKg: null,
    dimensions: null,
    warrantyPeriod: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  } as Product;
}

function imgTags(html: string): string[] {
  return html.match(/<img [^>]*>/g) ?? [];
}

describe('product card picture', () => {
  it('offers the uploaded sizes with srcset and sizes', () => {
    const [img] = imgTags(
      renderToString(inRouter(createElement(ProductCard, { product: product({ imageSrcset: SRCSET }) }))),
    );
    expect(img).toContain(`srcSet="${SRCSET}"`);
    expect(img).toMatch(/sizes="[^"]*50vw"/);
    expect(img).toContain('src="/media/products/0e1f-800.webp"');
  });

  it('keeps a seeded picture exactly as before: src only', () => {
    const [img] = imgTags(
      renderToString(inRouter(createElement(ProductCard, { product: product({ imageUrl: '/media/seed/drill.svg' }) }))),
    );
    expect(img).toContain('src="/media/seed/drill.svg"');
    expect(img).not.toMatch(/srcSet|sizes=/i);
  });
});

describe('product gallery', () => {
  const uploaded: Image = { id: 1, imageUrl: '/media/products/0e1f-800.webp', isPrimary: true, srcset: SRCSET };
  const seeded: Image = { id: 2, imageUrl: '/media/seed/drill-2.svg', isPrimary: false };

  it('gives the main picture and the thumbnails the sizes of an upload, and none to a seeded picture', () => {
    const html = renderToString(createElement(ProductGallery, { images: [uploaded, seeded], productName: 'Drill' }));
    const [main, firstThumbnail, secondThumbnail] = imgTags(html);
    expect(main).toContain(`srcSet="${SRCSET}"`);
    expect(main).toMatch(/sizes="[^"]*100vw"/);
    expect(firstThumbnail).toContain(`srcSet="${SRCSET}"`);
    expect(firstThumbnail).toMatch(/sizes="[^"]*20vw"/);
    expect(secondThumbnail).toContain('src="/media/seed/drill-2.svg"');
    expect(secondThumbnail).not.toMatch(/srcSet|sizes=/i);
  });
});
