import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { brands, categories, productImages, products, productVariants, reviews, subcategories } from '../schema.ts';
import { bulkInsert } from './bulk-insert.ts';
import { BRANDS } from './catalogue-brands.ts';
import { CATEGORIES } from './catalogue-categories.ts';
import { CATALOGUE_START, createProductGenerator, DEFAULT_SEED, type GeneratedProduct } from './product-generator.ts';
import type { IconKey } from './svg-icons.ts';
import {
  type BrandPicture,
  type ProductView,
  renderBrandBanner,
  renderBrandLogo,
  renderCategoryPicture,
  renderProductPicture,
  renderSubcategoryPicture,
} from './svg-images.ts';

export interface SeedCatalogueOptions {
  products: number;
  /** Folder served as /media; null stores the same URLs but writes no files (tests). */
  mediaDir: string | null;
  seed?: number;
  /** How many products get picture files of their own (default OWN_PICTURE_LIMIT). */
  ownPictures?: number;
  log?: (message: string) => void;
}

export interface SeedCatalogueResult {
  categories: number;
  subcategories: number;
  brands: number;
  products: number;
  reviews: number;
}

/**
 * Beyond this many products, pictures are shared: a 100,000-product benchmark catalogue would
 * otherwise write hundreds of thousands of files for no visual gain. Later products reuse the
 * files of an earlier product of the same subcategory (and brand, where one exists).
 */
export const OWN_PICTURE_LIMIT = 3000;

/** Products per transaction; their images, variants and reviews go in the same one. */
const PRODUCT_BATCH = 1000;

const MEDIA_FOLDERS = ['products', 'categories', 'subcategories', 'brands'] as const;

export const categoryImageUrl = (slug: string): string => `/media/categories/${slug}.svg`;
export const subcategoryImageUrl = (slug: string): string => `/media/subcategories/${slug}.svg`;
export const brandImageUrl = (slug: string): string => `/media/brands/${slug}.svg`;
export const brandLogoUrl = (slug: string): string => `/media/brands/${slug}-logo.svg`;
export const productImageUrl = (stem: string, n: number): string => `/media/products/${stem}-${n}.svg`;

/** The media folders the seed owns, for a reset to clear without touching uploads. */
export function seededMediaFolders(mediaDir: string): string[] {
  return MEDIA_FOLDERS.map((folder) => join(mediaDir, folder));
}

export async function isCatalogueEmpty(db: Database): Promise<boolean> {
  const [category] = await db.select({ id: categories.id }).from(categories).limit(1);
  const [brand] = await db.select({ id: brands.id }).from(brands).limit(1);
  const [product] = await db.select({ id: products.id }).from(products).limit(1);
  return !category && !brand && !product;
}

interface Picture {
  view: ProductView;
  url: string;
}

function writeMedia(mediaDir: string | null, url: string, svg: string): void {
  if (!mediaDir) return;
  writeFileSync(join(mediaDir, url.replace(/^\/media\//, '')), svg);
}

function brandPicture(index: number): BrandPicture {
  const brand = BRANDS[index];
  if (!brand) throw new Error(`No brand ${index}`);
  return {
    name: brand.name,
    monogram: brand.prefix,
    colour: brand.colour,
    wordmark: brand.wordmark,
    strapline: brand.strapline,
  };
}

export async function seedCatalogue(db: Database, options: SeedCatalogueOptions): Promise<SeedCatalogueResult> {
  const log = options.log ?? (() => {});
  const seed = options.seed ?? DEFAULT_SEED;
  const { mediaDir } = options;
  const ownPictures = options.ownPictures ?? OWN_PICTURE_LIMIT;
  const started = performance.now();
  const elapsed = (): string => `${((performance.now() - started) / 1000).toFixed(1)} s`;

  if (mediaDir) for (const folder of seededMediaFolders(mediaDir)) mkdirSync(folder, { recursive: true });

  const generator = createProductGenerator(seed);
  const flat = generator.subcategories;

  // Fixed timestamps: "now" would make two seeds of the same options differ.
  const structureTimes = { createdAt: CATALOGUE_START, updatedAt: CATALOGUE_START };

  const categoryRows = await db
    .insert(categories)
    .values(
      CATEGORIES.map((c) => ({
        name: c.name,
        slug: c.slug,
        description: c.description,
        imageUrl: categoryImageUrl(c.slug),
        ...structureTimes,
      })),
    )
    .returning({ id: categories.id, slug: categories.slug });
  const categoryId = new Map(categoryRows.map((r) => [r.slug, r.id]));

  const subcategoryRows = await db
    .insert(subcategories)
    .values(
      flat.map((s) => ({
        categoryId: categoryId.get(s.category.slug) as number,
        name: s.def.name,
        slug: s.def.slug,
        description: s.def.description,
        imageUrl: subcategoryImageUrl(s.def.slug),
        ...structureTimes,
      })),
    )
    .returning({ id: subcategories.id, slug: subcategories.slug });
  const subcategoryId = new Map(subcategoryRows.map((r) => [r.slug, r.id]));

  const brandRows = await db
    .insert(brands)
    .values(
      BRANDS.map((b) => ({
        name: b.name,
        slug: b.slug,
        description: b.description,
        imageUrl: brandImageUrl(b.slug),
        logoUrl: brandLogoUrl(b.slug),
        ...structureTimes,
      })),
    )
    .returning({ id: brands.id, slug: brands.slug });
  const brandId = new Map(brandRows.map((r) => [r.slug, r.id]));

  if (mediaDir) {
    for (const category of CATEGORIES) {
      const icons = [...new Set(category.subcategories.map((s) => s.icon))].slice(0, 3) as IconKey[];
      writeMedia(mediaDir, categoryImageUrl(category.slug), renderCategoryPicture(icons));
    }
    for (const s of flat) writeMedia(mediaDir, subcategoryImageUrl(s.def.slug), renderSubcategoryPicture(s.def.icon));
    BRANDS.forEach((brand, i) => {
      writeMedia(mediaDir, brandImageUrl(brand.slug), renderBrandBanner(brandPicture(i)));
      writeMedia(mediaDir, brandLogoUrl(brand.slug), renderBrandLogo(brandPicture(i)));
    });
  }
  log(`categories ${CATEGORIES.length}, subcategories ${flat.length}, brands ${BRANDS.length} (${elapsed()})`);

  // Picture sets of products that own their files, for later products to borrow.
  const picturesBySubcategoryBrand = new Map<string, Picture[]>();
  const picturesBySubcategory = new Map<number, Picture[]>();

  /** A product's pictures: its own files, or past the limit, those of a similar earlier product. */
  function pictures(product: GeneratedProduct): { set: Picture[]; own: boolean } {
    const key = `${product.subcategory.index}:${product.brandIndex}`;
    const borrowed =
      product.index >= ownPictures
        ? (picturesBySubcategoryBrand.get(key) ?? picturesBySubcategory.get(product.subcategory.index))
        : undefined;
    if (borrowed) return { set: borrowed, own: false };
    const set = product.views.map((view, i) => ({ view, url: productImageUrl(product.imageStem, i + 1) }));
    if (!picturesBySubcategoryBrand.has(key)) picturesBySubcategoryBrand.set(key, set);
    if (!picturesBySubcategory.has(product.subcategory.index))
      picturesBySubcategory.set(product.subcategory.index, set);
    return { set, own: true };
  }

  function writeProductPictures(product: GeneratedProduct, own: readonly Picture[]): void {
    if (!mediaDir) return;
    const brand = BRANDS[product.brandIndex];
    if (!brand) return;
    for (const { view, url } of own) {
      writeMedia(
        mediaDir,
        url,
        renderProductPicture({
          view,
          icon: product.subcategory.def.icon,
          brandName: brand.name,
          brandColour: brand.colour,
          model: product.model,
          specs: product.specCard.rows,
          specTitle: product.specCard.title,
        }),
      );
    }
  }

  let reviewTotal = 0;
  for (let start = 0; start < options.products; start += PRODUCT_BATCH) {
    const end = Math.min(options.products, start + PRODUCT_BATCH);
    const batch: GeneratedProduct[] = [];
    for (let i = start; i < end; i++) batch.push(generator.next(i));
    const pictureSets = batch.map(pictures);

    await db.transaction(async (tx) => {
      await bulkInsert(
        tx,
        products,
        batch.map((p) => ({
          sku: p.sku,
          name: p.name,
          description: p.description,
          specifications: p.specifications,
          priceCents: p.priceCents,
          discountPriceCents: p.discountPriceCents,
          stockQuantity: p.stockQuantity,
          brandId: brandId.get(BRANDS[p.brandIndex]?.slug ?? '') as number,
          categoryId: categoryId.get(p.subcategory.category.slug) as number,
          subcategoryId: subcategoryId.get(p.subcategory.def.slug) as number,
          tagLine: p.tagLine,
          isFeatured: p.isFeatured,
          isRedemption: p.isRedemption,
          // Redemption products cost 1 point per dollar of what a shopper would pay (rounded up).
          pointsCost: p.isRedemption ? Math.ceil((p.discountPriceCents ?? p.priceCents) / 100) : null,
          isClearance: p.isClearance,
          isActive: p.isActive,
          weightGrams: p.weightGrams,
          dimensions: p.dimensions,
          warrantyPeriod: p.warrantyPeriod,
          // Counted here rather than by the reviews trigger; see the review insert below.
          reviewCount: p.reviews.length,
          ratingTotal: p.reviews.reduce((total, r) => total + r.rating, 0),
          createdAt: p.createdAt,
          updatedAt: p.updatedAt,
        })),
      );
      const inserted = await tx
        .select({ id: products.id, sku: products.sku })
        .from(products)
        .where(
          inArray(
            products.sku,
            batch.map((p) => p.sku),
          ),
        );
      const productId = new Map(inserted.map((r) => [r.sku, r.id]));
      const idOf = (p: GeneratedProduct): number => {
        const id = productId.get(p.sku);
        if (id === undefined) throw new Error(`Product ${p.sku} was not inserted`);
        return id;
      };

      const imageRows = batch.flatMap((p, b) =>
        (pictureSets[b]?.set ?? []).map(({ view, url }, i) => ({
          productId: idOf(p),
          imageUrl: url,
          altText: p.altTexts[view],
          isPrimary: i === 0,
          sortOrder: i,
          createdAt: p.createdAt,
        })),
      );
      await bulkInsert(tx, productImages, imageRows);

      const variantRows = batch.flatMap((p) =>
        p.variants.map((v) => ({ productId: idOf(p), ...v, createdAt: p.createdAt, updatedAt: p.updatedAt })),
      );
      await bulkInsert(tx, productVariants, variantRows);

      const reviewRows = batch.flatMap((p) => p.reviews.map((r) => ({ productId: idOf(p), ...r })));
      if (reviewRows.length) {
        // The products above already carry their review counts, so the per-row trigger is
        // switched off for this load: firing it would double-count, and its one-row UPDATEs
        // of products (each waking the search triggers) would dominate the seed. ALTER TABLE
        // is transactional, so a failed batch can never leave the trigger off.
        await tx.execute(sql`ALTER TABLE reviews DISABLE TRIGGER reviews_product_aggregates`);
        await bulkInsert(tx, reviews, reviewRows);
        await tx.execute(sql`ALTER TABLE reviews ENABLE TRIGGER reviews_product_aggregates`);
        reviewTotal += reviewRows.length;
      }
    });

    for (const [b, p] of batch.entries()) {
      const pictureSet = pictureSets[b];
      if (pictureSet?.own) writeProductPictures(p, pictureSet.set);
    }
    log(`products ${end}/${options.products}, reviews ${reviewTotal} (${elapsed()})`);
  }

  // PGlite runs no autovacuum, so without this its planner guesses every table's size.
  await db.execute(sql`ANALYZE`);

  return {
    categories: CATEGORIES.length,
    subcategories: flat.length,
    brands: BRANDS.length,
    products: options.products,
    reviews: reviewTotal,
  };
}
