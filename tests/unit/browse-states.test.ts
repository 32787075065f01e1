import { type ComponentType, createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { describe, expect, it } from 'vitest';
import { InfiniteProductList } from '../../app/components/infinite-product-list.tsx';
import BrandPage from '../../app/routes/brand.tsx';
import CategoryPage from '../../app/routes/category.tsx';
import ShopByBrandPage from '../../app/routes/shop-by-brand.tsx';
import type { Brand, Category, ProductPage } from '../../contracts/catalog.ts';

/**
 * The empty states the demo catalogue never reaches (every category has subcategories, every
 * brand has products), rendered the way the server renders them: through a data router with the
 * loader data already in place.
 */
function renderRoute(path: string, url: string, Component: ComponentType<never>, loaderData: unknown): string {
  const Stub = createRoutesStub([{ id: 'page', path, Component: Component as ComponentType, loader: () => null }]);
  return renderToString(
    createElement(Stub, { initialEntries: [url], hydrationData: { loaderData: { page: loaderData } } }),
  );
}

const emptyPage: ProductPage = { items: [], page: 1, limit: 20, totalCount: 0, totalPages: 0 };

const category: Category = {
  id: 3,
  name: 'Measuring & Layout',
  slug: 'measuring-layout',
  description: 'Tapes, levels and lasers.',
  imageUrl: null,
};

const brand: Brand = {
  id: 7,
  name: 'Voltrex',
  slug: 'voltrex',
  description: 'Cordless power for the trade.',
  imageUrl: null,
  logoUrl: null,
};

describe('category page', () => {
  it("says 'No subcategories found for this category.' when it has none", () => {
    const html = renderRoute('/category/:categoryId', '/category/3', CategoryPage as ComponentType<never>, {
      category,
      brands: [],
      subcategories: [],
      topProducts: [],
      productCount: 0,
      origin: 'https://shop.example',
      shopName: 'Harbour Tools',
    });
    expect(html).toContain('No subcategories found for this category.');
    expect(html).toContain('Measuring &amp; Layout');
    expect(html).not.toContain('Popular in');
  });
});

describe('brand page', () => {
  it("says 'No products found for {brand}' with a way to ask again", () => {
    const html = renderRoute('/brand/:id', '/brand/7', BrandPage as ComponentType<never>, {
      brand,
      listing: { state: { brandIds: [], sort: 'featured', page: 1 }, products: emptyPage, brands: [] },
      origin: 'https://shop.example',
      shopName: 'Harbour Tools',
    });
    expect(html).toContain('No products found for Voltrex');
    // Before hydration the refetch is a link to the same URL; afterwards a button that revalidates.
    expect(html).toMatch(/<a href="\/brand\/7"[^>]*>Check again<\/a>/);
    expect(html).toMatch(/<strong[^>]*>0<\/strong> <!-- -->products<!-- --> found/);
  });
});

describe('shop by brand page', () => {
  it("says 'No products available' when there are no featured products", () => {
    const html = renderRoute('/shop-by-brand', '/shop-by-brand', ShopByBrandPage as ComponentType<never>, {
      brands: [{ id: 7, name: 'Voltrex', logoUrl: null, productCount: 0 }],
      topBrands: [{ id: 7, name: 'Voltrex', logoUrl: null, productCount: 0 }],
      featured: [],
      query: '',
      origin: 'https://shop.example',
      shopName: 'Harbour Tools',
    });
    expect(html).toContain('No products available');
    expect(html).toContain('placeholder="Search brands..."');
  });

  it('filters the brand list on the server too, from ?q= (for browsers without JavaScript)', () => {
    const brands = [
      { id: 1, name: 'Voltrex', logoUrl: null, productCount: 4 },
      { id: 2, name: 'Dravik', logoUrl: null, productCount: 3 },
    ];
    const html = renderRoute('/shop-by-brand', '/shop-by-brand?q=DRA', ShopByBrandPage as ComponentType<never>, {
      brands,
      topBrands: brands,
      featured: [],
      query: 'DRA',
      origin: 'https://shop.example',
      shopName: 'Harbour Tools',
    });
    const allBrands = html.slice(html.indexOf('id="all-brands"'), html.indexOf('id="featured-products"'));
    expect(allBrands).toContain('Dravik');
    expect(allBrands).not.toContain('Voltrex');
  });
});

function EmptyRedemptionList() {
  return createElement(InfiniteProductList, {
    initial: emptyPage,
    batches: 1,
    endpoint: '/api/products/redemption',
    label: 'Redemption products',
    moreHref: (next: number) => `/redemption?page=${next}`,
    texts: {
      end: "You've viewed all redemption products",
      empty: 'No redemption products available at the moment',
      emptyDetail: 'Check back later for new arrivals',
      error: 'Failed to fetch redemption products',
    },
  });
}

describe('infinite product lists', () => {
  it('show the empty texts and a way on when there is nothing to list', () => {
    const Stub = createRoutesStub([{ path: '/redemption', Component: EmptyRedemptionList }]);
    const html = renderToString(createElement(Stub, { initialEntries: ['/redemption'] }));
    expect(html).toContain('No redemption products available at the moment');
    expect(html).toContain('Check back later for new arrivals');
    expect(html).toContain('href="/products"');
  });
});
