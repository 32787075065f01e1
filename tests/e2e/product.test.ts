import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FullProduct, Product, ProductPage } from '../../contracts/catalog.ts';
import { centsToDollars, dollarsToCents, formatDollars } from '../../contracts/money.ts';
import { displayPrice } from '../../contracts/pricing.ts';
import { injectAxe } from './axe.ts';
import { waitForHydration } from './browse-helpers.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

const baseUrl = inject('baseUrl');

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`);
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  return (await response.json()) as T;
}

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/** Every JSON-LD block of a page, parsed (a block that is not valid JSON fails the test). */
function jsonLdBlocks(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1]!) as Record<string, unknown>,
  );
}

function nestedPath(product: Product): string {
  return `/category/${product.categoryId}/subcategory/${product.subcategoryId}/product/${product.id}`;
}

interface CartSnapshot {
  items: { id: number; quantity: number }[];
}

async function storedCart(page: Page): Promise<CartSnapshot> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('harbour-tools.cart.v1') ?? '{"items":[]}'));
}

/**
 * Waits until React has hydrated the page, so clicks reach event handlers: the root marks
 * `data-hydrated` once it has (the route modules are registered before that, and under load
 * the old 5-second poll on them ran out).
 */
async function hydrated(page: Page): Promise<void> {
  await waitForHydration(page);
  await page.waitForLoadState('networkidle');
}

describe('product page', () => {
  let browser: Browser;
  /** In stock, discounted, several pictures, reviews, related items and a multi-paragraph description. */
  let rich: FullProduct;
  let soldOut: Product;
  let lowStock: Product;

  beforeAll(async () => {
    browser = await launchBrowser();
    const onSale = await getJson<ProductPage>('/api/products?onSale=true&inStock=true&limit=100');
    for (const candidate of onSale.items) {
      if (candidate.stockQuantity < 8 || candidate.reviewCount === 0) continue;
      const full = await getJson<FullProduct>(`/api/products/full/${candidate.id}`);
      const paragraphs = full.product.description.split('\n').filter((line) => line.trim());
      if (full.images.length >= 3 && full.relatedProducts.length > 0 && paragraphs.length > 1) {
        rich = full;
        break;
      }
    }
    expect(rich, 'a demo product with pictures, reviews, related items and a long description').toBeDefined();
    const outOfStock = await getJson<ProductPage>('/api/products?inStock=false&limit=1');
    soldOut = outOfStock.items[0]!;
    expect(soldOut.stockQuantity).toBe(0);
    const all = await getJson<ProductPage>('/api/products?inStock=true&limit=1000');
    lowStock = all.items.find((item) => item.stockQuantity >= 2 && item.stockQuantity <= 5)!;
    expect(lowStock).toBeDefined();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openProduct(path: string): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    const response = await page.goto(`${baseUrl}${path}`);
    expect(response?.status()).toBe(200);
    await hydrated(page);
    return { page, errors };
  }

  it('arrives from the server with the name, price and breadcrumb, on both URLs, naming /product/:id as canonical', async () => {
    const { product, category, subcategory } = rich;
    for (const path of [`/product/${product.id}`, nestedPath(product)]) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toMatch(
        new RegExp(`<h1[^>]*>${escapeHtml(product.name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</h1>`),
      );
      // GST-inclusive headline, Was and Save (issue 22), the ex-GST price beside the headline.
      const now = displayPrice(dollarsToCents(product.discountPrice!)).incGstCents;
      const was = displayPrice(dollarsToCents(product.price)).incGstCents;
      expect(html).toContain(formatDollars(centsToDollars(now)));
      expect(html).toContain(`${formatDollars(product.discountPrice!)}<!-- --> ex GST`);
      expect(html).toContain(`Was <s>${formatDollars(centsToDollars(was))}</s>`);
      expect(html).toContain(`Save <!-- -->${formatDollars(centsToDollars(was - now))}`);
      expect(html).not.toContain('excluding GST');
      const breadcrumb = /<nav aria-label="Breadcrumb"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
      expect(breadcrumb).toContain('>Home<');
      expect(breadcrumb).toContain(`href="/category/${category.id}"`);
      expect(breadcrumb).toContain(escapeHtml(category.name));
      expect(breadcrumb).toContain(`href="/category/${category.id}/subcategory/${subcategory.id}"`);
      expect(breadcrumb).toContain(escapeHtml(subcategory.name));
      expect(html).toContain(`<link rel="canonical" href="${baseUrl}/product/${product.id}"/>`);
      expect(html).toContain('Frequently Purchased Together');
      expect(html).toContain('Technical Specifications');
    }
  });

  it('carries valid Product and BreadcrumbList JSON-LD with the real price, stock and rating', async () => {
    const { product } = rich;
    const blocks = jsonLdBlocks(await (await fetch(`${baseUrl}/product/${product.id}`)).text());
    const ld = blocks.find((block) => block['@type'] === 'Product');
    expect(ld).toMatchObject({
      name: product.name,
      sku: product.sku,
      offers: {
        // What the shopper pays, GST included, as the page headlines it.
        price: centsToDollars(displayPrice(dollarsToCents(product.discountPrice!)).incGstCents).toFixed(2),
        priceCurrency: 'AUD',
        availability: 'https://schema.org/InStock',
      },
      aggregateRating: { ratingValue: product.averageRating, reviewCount: product.reviewCount },
    });
    const trail = blocks.find((block) => block['@type'] === 'BreadcrumbList') as {
      itemListElement: { name: string }[];
    };
    expect(trail.itemListElement.map((item) => item.name)).toEqual([
      'Home',
      rich.category.name,
      rich.subcategory.name,
      product.name,
    ]);

    const soldOutLd = jsonLdBlocks(await (await fetch(`${baseUrl}/product/${soldOut.id}`)).text()).find(
      (block) => block['@type'] === 'Product',
    );
    expect(soldOutLd).toMatchObject({ offers: { availability: 'https://schema.org/OutOfStock' } });
  });

  it('switches the main picture from the thumbnails, by mouse and by keyboard', async () => {
    const { page, errors } = await openProduct(`/product/${rich.product.id}`);
    const main = page.getByTestId('gallery-main-image');
    expect(await main.getAttribute('src')).toBe(rich.images[0]!.imageUrl);
    const thumbnails = page.getByRole('toolbar', { name: 'Product pictures' }).getByRole('button');
    expect(await thumbnails.count()).toBe(rich.images.length);

    await thumbnails.nth(1).click();
    await expect.poll(() => main.getAttribute('src')).toBe(rich.images[1]!.imageUrl);
    expect(await thumbnails.nth(1).getAttribute('aria-pressed')).toBe('true');
    expect(await main.getAttribute('alt')).toBeTruthy();

    await page.keyboard.press('ArrowRight');
    await expect.poll(() => main.getAttribute('src')).toBe(rich.images[2]!.imageUrl);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      `Show picture 3 of ${rich.images.length}`,
    );
    await page.keyboard.press('Home');
    await expect.poll(() => main.getAttribute('src')).toBe(rich.images[0]!.imageUrl);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('keeps the quantity between 1 and the stock', async () => {
    const stock = rich.product.stockQuantity;
    const { page } = await openProduct(`/product/${rich.product.id}`);
    const input = page.getByLabel('Quantity', { exact: true });
    const decrease = page.getByRole('button', { name: 'Decrease quantity' });
    const increase = page.getByRole('button', { name: 'Increase quantity' });
    expect(await input.inputValue()).toBe('1');
    expect(await decrease.isDisabled()).toBe(true);

    await increase.click();
    await increase.click();
    expect(await input.inputValue()).toBe('3');
    await decrease.click();
    expect(await input.inputValue()).toBe('2');

    await input.fill('999');
    await expect.poll(() => input.inputValue()).toBe(String(stock));
    expect(await increase.isDisabled()).toBe(true);

    await input.fill('0');
    await expect.poll(() => input.inputValue()).toBe('1');

    await input.fill('');
    await input.blur();
    await expect.poll(() => input.inputValue()).toBe('1');
    await page.context().close();
  });

  it('adds the chosen quantity to the cart: the header count goes up, the shown stock down, the selector back to 1', async () => {
    const { product } = rich;
    const { page, errors } = await openProduct(nestedPath(product));
    const count = page.getByTestId('cart-count');
    const stock = page.getByTestId('product-stock');
    await expect.poll(() => count.textContent()).toBe('0');
    expect(await stock.textContent()).toContain(`${product.stockQuantity} available`);

    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();

    await expect.poll(() => count.textContent()).toBe('2');
    await expect.poll(() => stock.textContent()).toContain(`${product.stockQuantity - 2} available`);
    expect(await page.getByLabel('Quantity', { exact: true }).inputValue()).toBe('1');
    expect((await storedCart(page)).items).toEqual([expect.objectContaining({ id: product.id, quantity: 2 })]);
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`Added 2 × ${product.name}`);

    // A reload keeps the cart, and the page still counts it against the stock.
    await page.reload();
    await hydrated(page);
    await expect.poll(() => stock.textContent()).toContain(`${product.stockQuantity - 2} available`);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('disables both buttons once the cart holds the whole stock', async () => {
    const { page } = await openProduct(`/product/${lowStock.id}`);
    const input = page.getByLabel('Quantity', { exact: true });
    await input.fill('999');
    await expect.poll(() => input.inputValue()).toBe(String(lowStock.stockQuantity));
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe(String(lowStock.stockQuantity));
    expect(await page.getByRole('button', { name: 'Add to Cart', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Buy Now' }).isDisabled()).toBe(true);
    expect(await input.isDisabled()).toBe(true);
    expect(await page.getByTestId('product-stock').textContent()).toContain('No more stock available');
    await page.context().close();
  });

  it('disables ADD TO CART and BUY NOW for a product out of stock', async () => {
    const { page } = await openProduct(`/product/${soldOut.id}`);
    expect(await page.getByRole('button', { name: 'Add to Cart', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Buy Now' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('product-stock').textContent()).toContain('Out of stock');
    await page.context().close();
  });

  it('still answers for a discontinued product, but it cannot be ordered and stays out of search results', async () => {
    // Inactive products are left out of listings: the first id missing from the full listing is one.
    const active = await getJson<ProductPage>('/api/products?limit=1000&sort=newest');
    const ids = new Set(active.items.map((item) => item.id));
    const inactiveId = Array.from({ length: Math.max(...ids) }, (_, index) => index + 1).find((id) => !ids.has(id));
    expect(inactiveId, 'the demo catalogue has a discontinued product').toBeDefined();
    const html = await (await fetch(`${baseUrl}/product/${inactiveId}`)).text();
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(jsonLdBlocks(html).find((block) => block['@type'] === 'Product')).toMatchObject({
      offers: { availability: 'https://schema.org/Discontinued' },
    });
    const { page } = await openProduct(`/product/${inactiveId}`);
    expect(await page.getByTestId('product-stock').textContent()).toContain('discontinued');
    expect(await page.getByRole('button', { name: 'Add to Cart', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Buy Now' }).isDisabled()).toBe(true);
    await page.context().close();
  });

  it('BUY NOW adds to the cart and goes to /cart', async () => {
    const { page } = await openProduct(`/product/${rich.product.id}`);
    await page.getByRole('button', { name: 'Buy Now' }).click();
    await page.waitForURL(`${baseUrl}/cart`);
    expect((await storedCart(page)).items).toEqual([expect.objectContaining({ id: rich.product.id, quantity: 1 })]);
    await page.context().close();
  });

  it('folds the description with Read More / Show Less', async () => {
    const { page } = await openProduct(`/product/${rich.product.id}`);
    const paragraphs = rich.product.description.split('\n').filter((line) => line.trim());
    const lastParagraph = page.getByText(paragraphs.at(-1)!.trim(), { exact: true });
    const toggle = page.getByRole('button', { name: 'Read More' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await lastParagraph.isVisible()).toBe(false);

    await toggle.click();
    await expect.poll(() => lastParagraph.isVisible()).toBe(true);
    const showLess = page.getByRole('button', { name: 'Show Less' });
    expect(await showLess.getAttribute('aria-expanded')).toBe('true');

    await showLess.click();
    await expect.poll(() => lastParagraph.isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Read More' }).isVisible()).toBe(true);
    await page.context().close();
  });

  it('lists up to 4 related items, each added to the cart with + ADD', async () => {
    const { page } = await openProduct(`/product/${rich.product.id}`);
    const section = page.getByRole('region', { name: 'Frequently Purchased Together' });
    const related = rich.relatedProducts;
    expect(related.length).toBeLessThanOrEqual(4);
    expect(await section.getByRole('listitem').count()).toBe(related.length);
    const first = related[0]!;
    const add = section.getByRole('button', { name: `Add ${first.name} to cart` });
    expect(await add.textContent()).toBe('+ ADD');
    await add.click();
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('1');
    expect((await storedCart(page)).items).toEqual([expect.objectContaining({ id: first.id, quantity: 1 })]);
    await page.context().close();
  });

  it('shows the real rating, review count and reviews', async () => {
    const { page } = await openProduct(`/product/${rich.product.id}`);
    const reviews = page.getByRole('region', { name: 'Customer Reviews' });
    expect(await reviews.textContent()).toContain(`Based on ${rich.product.reviewCount} review`);
    const articles = reviews.getByRole('article');
    expect(await articles.count()).toBe(Math.min(5, rich.reviews.length));
    expect(await articles.first().getByRole('img').getAttribute('aria-label')).toBe(
      `${rich.reviews[0]!.rating} out of 5 stars`,
    );
    expect(await reviews.textContent()).toContain(rich.reviews[0]!.title);
    if (rich.reviews.length > 5) {
      await reviews.getByRole('button', { name: /Show more reviews/ }).click();
      await expect.poll(() => articles.count()).toBe(rich.reviews.length);
    }
    await page.context().close();
  });

  it('answers an unknown or malformed id with a 404 and the not-found state', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const path of [
      '/product/99999999',
      '/product/abc',
      '/product/1.5',
      `/category/x/subcategory/1/product/${rich.product.id}`,
    ]) {
      const response = await page.goto(`${baseUrl}${path}`);
      expect(response?.status(), path).toBe(404);
      expect(await page.getByRole('heading', { name: 'Product not found' }).isVisible()).toBe(true);
      expect(await page.title()).toBe('Product not found | Harbour Tools');
    }
    const html = await (await fetch(`${baseUrl}/product/99999999`)).text();
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    await context.close();
  });

  it('has no serious or critical axe-core violations, on a phone and on a desktop', async () => {
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${baseUrl}/product/${rich.product.id}`);
      await hydrated(page);
      await page.getByRole('button', { name: 'Read More' }).click();
      await injectAxe(page);
      const violations = await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: {
              run: (
                context: string,
              ) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
            };
          }
        ).axe;
        // The page's own content; the shared header and footer are checked by the layout's tests.
        const result = await axe.run('main');
        return result.violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
      });
      expect(violations, `at ${width} px`).toEqual([]);
      await context.close();
    }
  });
});
