import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, count, eq, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import {
  brands,
  categories,
  productImages,
  products,
  productVariants,
  reviews,
  subcategories,
} from '../../db/schema.ts';
import { BASE_DATE } from '../../db/seed/product-generator.ts';
import { isCatalogueEmpty, type SeedCatalogueResult, seedCatalogue } from '../../db/seed/seed-catalogue.ts';

const PRODUCTS = 200;
/** Below PRODUCTS, so the last products share pictures as a large catalogue's do. */
const OWN_PICTURES = 150;
const SLOW = 120_000;

async function seededDatabase(
  products: number,
  mediaDir: string | null,
): Promise<{ handle: DatabaseHandle; result: SeedCatalogueResult; emptyBefore: boolean }> {
  const handle = await openDatabase({ kind: 'pglite' });
  await handle.migrate();
  const emptyBefore = await isCatalogueEmpty(handle.db);
  const result = await seedCatalogue(handle.db, { products, mediaDir, ownPictures: OWN_PICTURES });
  return { handle, result, emptyBefore };
}

async function snapshot(handle: DatabaseHandle) {
  const { db } = handle;
  return {
    categories: await db.select().from(categories).orderBy(asc(categories.id)),
    subcategories: await db.select().from(subcategories).orderBy(asc(subcategories.id)),
    brands: await db.select().from(brands).orderBy(asc(brands.id)),
    products: await db.select().from(products).orderBy(asc(products.id)),
    images: await db.select().from(productImages).orderBy(asc(productImages.id)),
    variants: await db.select().from(productVariants).orderBy(asc(productVariants.id)),
    reviews: await db.select().from(reviews).orderBy(asc(reviews.id)),
  };
}

/** Enough of an XML check to catch a broken tag or an unescaped ampersand. */
function isWellFormedSvg(text: string): boolean {
  if (!text.startsWith('<svg xmlns="http://www.w3.org/2000/svg"') || !text.trimEnd().endsWith('</svg>')) return false;
  if (/&(?!amp;|lt;|gt;|quot;|#\d+;)/.test(text)) return false;
  const stack: string[] = [];
  for (const [tag] of text.matchAll(/<[^>]+>/g)) {
    if (tag.endsWith('/>')) continue;
    const name = /^<\/?([\w:-]+)/.exec(tag)?.[1];
    if (!name) return false;
    if (tag.startsWith('</')) {
      if (stack.pop() !== name) return false;
    } else stack.push(name);
  }
  return stack.length === 0;
}

describe('seedCatalogue', () => {
  // Two databases from the same options: one without pictures, one writing them to a temp
  // folder, which also shows that writing pictures does not change the data.
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  let result: SeedCatalogueResult;
  let emptyBefore: boolean;
  let mediaDir: string;
  let data: Awaited<ReturnType<typeof snapshot>>;
  let secondData: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    ({ handle: first, result, emptyBefore } = await seededDatabase(PRODUCTS, null));
    data = await snapshot(first);
    mediaDir = mkdtempSync(join(tmpdir(), 'seed-media-'));
    ({ handle: second } = await seededDatabase(PRODUCTS, mediaDir));
    secondData = await snapshot(second);
  }, SLOW);

  afterAll(async () => {
    await first?.close();
    await second?.close();
    if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  });

  it('reports what it inserted', () => {
    expect(result).toEqual({
      categories: data.categories.length,
      subcategories: data.subcategories.length,
      brands: data.brands.length,
      products: PRODUCTS,
      reviews: data.reviews.length,
    });
    expect(data.products).toHaveLength(PRODUCTS);
  });

  it('has a full category tree and enough invented brands', () => {
    expect(data.categories.length).toBeGreaterThanOrEqual(12);
    expect(data.subcategories.length).toBeGreaterThanOrEqual(60);
    expect(data.brands.length).toBeGreaterThanOrEqual(25);
    for (const category of data.categories) {
      expect(data.subcategories.filter((s) => s.categoryId === category.id).length).toBeGreaterThanOrEqual(5);
      expect(category.description.length).toBeGreaterThan(20);
    }
    for (const subcategory of data.subcategories) expect(subcategory.description.length).toBeGreaterThan(20);
    const slugs = [...data.categories.map((c) => c.slug), ...data.subcategories.map((s) => s.slug)];
    expect(new Set(slugs).size).toBe(slugs.length);

    const realBrands = /dewalt|makita|milwaukee|bosch|ryobi|stanley|festool|hilti|metabo|ozito|stihl|husqvarna|knipex/i;
    for (const brand of data.brands) {
      expect(brand.name).not.toMatch(realBrands);
      expect(brand.description.split('. ').length).toBeGreaterThanOrEqual(2);
    }
  });

  it('covers every subcategory and every brand with products', () => {
    expect(new Set(data.products.map((p) => p.subcategoryId)).size).toBe(data.subcategories.length);
    expect(new Set(data.products.map((p) => p.brandId)).size).toBe(data.brands.length);
    for (const product of data.products) {
      const subcategory = data.subcategories.find((s) => s.id === product.subcategoryId);
      expect(subcategory?.categoryId).toBe(product.categoryId);
    }
  });

  it('gives every product and variant a unique SKU', () => {
    const skus = [...data.products.map((p) => p.sku), ...data.variants.map((v) => v.sku)];
    expect(new Set(skus).size).toBe(skus.length);
    expect(data.products.some((p) => /\s/.test(p.sku))).toBe(true);
    expect(data.products.some((p) => /^[A-Z]{2}-[A-Z]{2}-\d{3}/.test(p.sku))).toBe(true);
  });

  it('writes plausible product details', () => {
    for (const product of data.products) {
      expect(product.name).toContain(product.specifications.Model);
      expect(product.description.split('\n').length).toBeGreaterThanOrEqual(2);
      expect(Object.keys(product.specifications).length).toBeGreaterThanOrEqual(3);
      for (const value of Object.values(product.specifications)) expect(typeof value).toBe('string');
      expect(product.priceCents).toBeGreaterThan(0);
      expect(product.weightGrams).toBeGreaterThan(0);
      expect(product.dimensions).toMatch(/^\d+ x \d+ x \d+ mm$/);
      expect(product.warrantyPeriod).toBeTruthy();
      expect(product.createdAt.getTime()).toBeLessThan(BASE_DATE);
      expect(product.createdAt.getTime()).toBeGreaterThan(BASE_DATE - 731 * 86_400_000);
    }
    expect(data.products.some((p) => p.tagLine)).toBe(true);
    expect(data.variants.length).toBeGreaterThan(0);
  });

  it('has out-of-stock, low-stock, featured, redemption, clearance and discounted products', () => {
    const ps = data.products;
    expect(ps.some((p) => p.stockQuantity === 0)).toBe(true);
    expect(ps.some((p) => p.stockQuantity >= 1 && p.stockQuantity <= 5)).toBe(true);
    expect(ps.some((p) => p.stockQuantity > 5)).toBe(true);
    expect(ps.some((p) => p.isFeatured)).toBe(true);
    expect(ps.some((p) => p.isRedemption)).toBe(true);
    expect(ps.some((p) => p.isClearance)).toBe(true);
    const discounted = ps.filter((p) => p.discountPriceCents !== null);
    expect(discounted.length).toBeGreaterThan(PRODUCTS * 0.1);
    for (const p of discounted) {
      expect(p.discountPriceCents).toBeLessThan(p.priceCents);
      expect(p.effectivePriceCents).toBe(p.discountPriceCents);
    }
  });

  it('gives everything a picture and each product exactly one primary image', () => {
    for (const row of [...data.categories, ...data.subcategories, ...data.brands]) {
      expect(row.imageUrl).toMatch(/^\/media\/[a-z]+\/[a-z0-9-]+\.svg$/);
    }
    for (const brand of data.brands) expect(brand.logoUrl).toBe(`/media/brands/${brand.slug}-logo.svg`);
    for (const product of data.products) {
      const images = data.images.filter((i) => i.productId === product.id);
      expect(images.length).toBeGreaterThanOrEqual(2);
      expect(images.length).toBeLessThanOrEqual(4);
      expect(images.filter((i) => i.isPrimary)).toHaveLength(1);
      expect(images.find((i) => i.isPrimary)?.sortOrder).toBe(0);
      for (const image of images) expect(image.altText).toContain(product.name);
    }
  });

  it('keeps review aggregates equal to the reviews table and leaves the trigger on', async () => {
    const totals = await first.db
      .select({ productId: reviews.productId, reviewCount: count(), ratingTotal: sum(reviews.rating) })
      .from(reviews)
      .groupBy(reviews.productId);
    const byProduct = new Map(totals.map((t) => [t.productId, t]));
    for (const product of data.products) {
      const t = byProduct.get(product.id);
      expect(product.reviewCount).toBe(t?.reviewCount ?? 0);
      expect(product.ratingTotal).toBe(Number(t?.ratingTotal ?? 0));
    }
    const ratings = data.reviews.map((r) => r.rating);
    expect(ratings.filter((r) => r >= 4).length / ratings.length).toBeGreaterThan(0.6);
    expect(ratings.some((r) => r <= 2)).toBe(true);

    const target = data.products[0];
    if (!target) throw new Error('no products');
    await first.db
      .insert(reviews)
      .values({ productId: target.id, rating: 5, title: 'Trigger check', body: 'Counted.', authorName: 'Test T.' });
    const [after] = await first.db
      .select({ reviewCount: products.reviewCount, ratingTotal: products.ratingTotal })
      .from(products)
      .where(eq(products.id, target.id));
    expect(after).toEqual({ reviewCount: target.reviewCount + 1, ratingTotal: target.ratingTotal + 5 });
  });

  it('reports an empty catalogue only before seeding', async () => {
    expect(emptyBefore).toBe(true);
    expect(await isCatalogueEmpty(first.db)).toBe(false);
  });

  it('is deterministic: the same options give identical rows', () => {
    // `data` was captured before the trigger test added its review, so every table must match.
    expect(secondData.products).toEqual(data.products);
    expect(secondData.reviews).toEqual(data.reviews);
    expect(secondData.images).toEqual(data.images);
    expect(secondData.variants).toEqual(data.variants);
    expect(secondData.categories).toEqual(data.categories);
    expect(secondData.subcategories).toEqual(data.subcategories);
    expect(secondData.brands).toEqual(data.brands);
  });

  it('shares the pictures of a similar earlier product past the own-picture limit', () => {
    const urlsOf = (productId: number) => data.images.filter((i) => i.productId === productId).map((i) => i.imageUrl);
    const own = data.products.slice(0, OWN_PICTURES);
    const shared = data.products.slice(OWN_PICTURES);
    for (const product of own) {
      for (const url of urlsOf(product.id)) expect(url).toMatch(/^\/media\/products\/[a-z0-9-]+-\d\.svg$/);
    }
    const ownUrls = new Set(own.flatMap((p) => urlsOf(p.id)));
    for (const product of shared) {
      const urls = urlsOf(product.id);
      expect(new Set(urls).size).toBe(urls.length);
      const owner = own.find((p) => urlsOf(p.id)[0] === urls[0]);
      expect(owner?.subcategoryId).toBe(product.subcategoryId);
      for (const url of urls) expect(ownUrls.has(url)).toBe(true);
    }
    const files = readdirSync(join(mediaDir, 'products'));
    expect(files).toHaveLength(ownUrls.size);
  });

  it('writes every referenced picture as a small, well-formed SVG', () => {
    const urls = [
      ...secondData.categories.map((r) => r.imageUrl),
      ...secondData.subcategories.map((r) => r.imageUrl),
      ...secondData.brands.flatMap((r) => [r.imageUrl, r.logoUrl]),
      ...secondData.images.map((r) => r.imageUrl),
    ];
    expect(urls.length).toBeGreaterThan(500);
    for (const url of urls) {
      expect(url).toMatch(/^\/media\//);
      const file = join(mediaDir, (url ?? '').replace(/^\/media\//, ''));
      expect(existsSync(file), file).toBe(true);
      expect(statSync(file).size, file).toBeLessThan(4096);
      expect(isWellFormedSvg(readFileSync(file, 'utf8')), file).toBe(true);
    }
  });
});
