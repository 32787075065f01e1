import { createElement, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { cartLabel } from '../../app/components/cart-link.tsx';
import { CategoryMenuContent } from '../../app/components/category-menu.tsx';
import { CATEGORY_SKELETON_COUNT, CategorySlider, type CategoryTile } from '../../app/components/category-slider.tsx';
import { toCartItem } from '../../app/components/product-card.tsx';
import { arrowsFor, SCROLL_ARROW_THRESHOLD } from '../../app/components/scroll-row.tsx';
import { CATEGORY_MENU_LIMIT } from '../../app/components/shop-links.ts';
import type { Product } from '../../contracts/catalog.ts';

const inRouter = (element: ReactElement) => createElement(MemoryRouter, null, element);

/** Renders and waits for every Suspense boundary, as a crawler gets the page. */
async function renderComplete(element: ReactElement): Promise<string> {
  const { prelude } = await prerender(inRouter(element));
  return new Response(prelude).text();
}

const categories = Array.from({ length: 14 }, (_, index) => ({
  id: index + 1,
  // Given out of order: the menu sorts by name itself.
  name: `Category ${String.fromCharCode(90 - index)}`,
}));

const noop = () => {};

describe('the category menu (spec §2 header)', () => {
  it("shows 'Loading categories...' while the list is on its way", () => {
    const pending = new Promise<typeof categories>(noop);
    const html = renderToString(
      inRouter(createElement(CategoryMenuContent, { categories: pending, expanded: false, onExpand: noop })),
    );
    expect(html).toContain('Loading categories...');
    expect(html).not.toContain('/category/');
  });

  it("shows spec §8's 'Failed to fetch categories' when the list did not load", async () => {
    const html = await renderComplete(
      createElement(CategoryMenuContent, {
        categories: Promise.reject(new Error('Database unavailable')),
        expanded: false,
        onExpand: noop,
      }),
    );
    expect(html).toMatch(/role="alert"[^>]*>Failed to fetch categories</);
    expect(html).not.toContain('Database unavailable');
  });

  it("shows 'No categories available' for an empty list", async () => {
    const html = await renderComplete(
      createElement(CategoryMenuContent, { categories: Promise.resolve([]), expanded: false, onExpand: noop }),
    );
    expect(html).toContain('No categories available');
  });

  it("lists the first 10 by name, then 'View All Categories (N)'", async () => {
    const html = await renderComplete(
      createElement(CategoryMenuContent, { categories: Promise.resolve(categories), expanded: false, onExpand: noop }),
    );
    const names = [...html.matchAll(/href="\/category\/\d+"[^>]*>(Category \w)/g)].map((match) => match[1]);
    expect(names).toHaveLength(CATEGORY_MENU_LIMIT);
    expect(names).toEqual(
      categories
        .map((category) => category.name)
        .sort()
        .slice(0, CATEGORY_MENU_LIMIT),
    );
    expect(html).toContain('View All Categories (<!-- -->14<!-- -->)');
  });

  it('lists every category once expanded, and no button', async () => {
    const html = await renderComplete(
      createElement(CategoryMenuContent, { categories, expanded: true, onExpand: noop }),
    );
    expect(html.match(/href="\/category\/\d+"/g)).toHaveLength(14);
    expect(html).not.toContain('View All Categories');
  });

  it('needs no button for 10 or fewer categories', async () => {
    const html = await renderComplete(
      createElement(CategoryMenuContent, { categories: categories.slice(0, 10), expanded: false, onExpand: noop }),
    );
    expect(html.match(/href="\/category\/\d+"/g)).toHaveLength(10);
    expect(html).not.toContain('View All Categories');
  });
});

describe('the category slider (spec §2)', () => {
  it('shows 8 skeleton tiles while loading', () => {
    const html = renderToString(
      inRouter(createElement(CategorySlider, { categories: new Promise<CategoryTile[]>(noop) })),
    );
    const skeletons = html.slice(html.indexOf('data-testid="category-skeletons"'));
    expect(skeletons.match(/<li /g)).toHaveLength(CATEGORY_SKELETON_COUNT);
  });

  it("says 'Error loading categories: Failed to fetch categories' when loading failed, never the reason", async () => {
    const failed = Promise.reject(new Error('Database unavailable'));
    const html = await renderComplete(createElement(CategorySlider, { categories: failed }));
    expect(html).toContain('Error loading categories: Failed to fetch categories');
    expect(html).not.toContain('Database unavailable');
  });

  it('links each tile to its category page', async () => {
    const html = await renderComplete(
      createElement(CategorySlider, {
        categories: Promise.resolve([{ id: 7, name: 'Welding', imageUrl: '/media/w.svg', productCount: 12 }]),
      }),
    );
    expect(html).toContain('href="/category/7"');
    expect(html).toContain('Welding');
    expect(html).toContain('12<!-- --> products');
  });
});

describe('scroll row arrows (spec §9: threshold 10 px)', () => {
  const row = { scrollWidth: 2000, clientWidth: 1000 };
  it('hides the left arrow until scrolled more than the threshold', () => {
    expect(arrowsFor({ ...row, scrollLeft: 0 })).toEqual({ left: false, right: true });
    expect(arrowsFor({ ...row, scrollLeft: SCROLL_ARROW_THRESHOLD })).toEqual({ left: false, right: true });
    expect(arrowsFor({ ...row, scrollLeft: SCROLL_ARROW_THRESHOLD + 1 })).toEqual({ left: true, right: true });
  });
  it('hides the right arrow within the threshold of the end', () => {
    expect(arrowsFor({ ...row, scrollLeft: 989 })).toEqual({ left: true, right: true });
    expect(arrowsFor({ ...row, scrollLeft: 990 })).toEqual({ left: true, right: false });
    expect(arrowsFor({ ...row, scrollLeft: 1000 })).toEqual({ left: true, right: false });
  });
  it('shows no arrows when everything fits', () => {
    expect(arrowsFor({ scrollWidth: 800, clientWidth: 1000, scrollLeft: 0 })).toEqual({ left: false, right: false });
  });
});

describe('header cart label and card cart line', () => {
  it('says how many items the cart holds', () => {
    expect(cartLabel(0)).toBe('Cart, 0 items');
    expect(cartLabel(1)).toBe('Cart, 1 item');
    expect(cartLabel(3)).toBe('Cart, 3 items');
  });

  it('adds a product at the price the shopper pays, capped at its stock', () => {
    const product = {
      id: 9,
      name: 'Drill',
      sku: 'VX-1',
      price: 199,
      discountPrice: 149.5,
      stockQuantity: 4,
      imageUrl: '/media/p.svg',
    } as Product;
    expect(toCartItem(product)).toEqual({
      id: 9,
      name: 'Drill',
      sku: 'VX-1',
      price: 149.5,
      originalPrice: 199,
      image: '/media/p.svg',
      maxQuantity: 4,
    });
    expect(toCartItem({ ...product, discountPrice: null }).price).toBe(199);
  });
});
