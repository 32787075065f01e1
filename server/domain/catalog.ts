import { and, asc, count, desc, eq, gte, inArray, lte, ne, type SQL, sql } from 'drizzle-orm';
import type {
  Brand,
  Category,
  FullProduct,
  Image,
  Product,
  ProductListQuery,
  ProductPage,
  Review,
  Subcategory,
} from '../../contracts/catalog.ts';
import { centsToDollars, dollarsToCents } from '../../contracts/money.ts';
import type { Database } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared-statement.ts';
import {
  brands,
  categories,
  productImages,
  products,
  productVariants,
  reviews,
  subcategories,
} from '../../db/schema.ts';
import { NotFoundError } from './errors.ts';

export const RELATED_PRODUCTS_LIMIT = 4;
export const PRODUCT_REVIEWS_LIMIT = 20;

function primaryImages(imageUrl: string | null, srcset?: string | null): Image[] {
  return imageUrl ? [{ imageUrl, isPrimary: true, ...(srcset ? { srcset } : {}) }] : [];
}

const averageRatingSql = sql<number>`case when ${products.reviewCount} = 0 then 0 else round(${products.ratingTotal}::numeric / ${products.reviewCount}, 1) end`;

const productColumns = {
  id: products.id,
  name: products.name,
  sku: products.sku,
  description: products.description,
  specifications: products.specifications,
  priceCents: products.priceCents,
  discountPriceCents: products.discountPriceCents,
  stockQuantity: products.stockQuantity,
  brandId: products.brandId,
  brandName: brands.name,
  categoryId: products.categoryId,
  categoryName: categories.name,
  subcategoryId: products.subcategoryId,
  subcategoryName: subcategories.name,
  tagLine: products.tagLine,
  isFeatured: products.isFeatured,
  isRedemption: products.isRedemption,
  pointsCost: products.pointsCost,
  isClearance: products.isClearance,
  isActive: products.isActive,
  reviewCount: products.reviewCount,
  averageRating: averageRatingSql,
  weightGrams: products.weightGrams,
  dimensions: products.dimensions,
  warrantyPeriod: products.warrantyPeriod,
  createdAt: products.createdAt,
  updatedAt: products.updatedAt,
  imageUrl: sql<
    string | null
  >`(select ${productImages.imageUrl} from ${productImages} where ${productImages.productId} = ${products.id} order by ${productImages.isPrimary} desc, ${productImages.sortOrder} limit 1)`,
  imageSrcset: sql<
    string | null
  >`(select ${productImages.srcset} from ${productImages} where ${productImages.productId} = ${products.id} order by ${productImages.isPrimary} desc, ${productImages.sortOrder} limit 1)`,
};

function selectProducts(db: Database) {
  return db
    .select(productColumns)
    .from(products)
    .innerJoin(brands, eq(brands.id, products.brandId))
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(subcategories, eq(subcategories.id, products.subcategoryId));
}

const galleryJsonSql = sql<Image[] | string>`coalesce((
  select json_agg(json_strip_nulls(json_build_object('id', pi.id, 'imageUrl', pi.image_url, 'isPrimary', pi.is_primary, 'altText', pi.alt_text, 'srcset', pi.srcset))
    order by pi.is_primary desc, pi.sort_order, pi.id)
  from ${productImages} pi where pi.product_id = ${products.id}), '[]'::json)`;

type ProductRecord = Awaited<ReturnType<typeof selectProducts>>[number];

function toProduct(record: ProductRecord, images?: Image[]): Product {
  const averageRating = Number(record.averageRating);
  return {
    id: record.id,
    name: record.name,
    sku: record.sku || `PRD-${record.id}`,
    description: record.description,
    specifications: record.specifications,
    price: centsToDollars(record.priceCents),
    discountPrice: record.discountPriceCents === null ? null : centsToDollars(record.discountPriceCents),
    stockQuantity: record.stockQuantity,
    brandId: record.brandId,
    brandName: record.brandName,
    categoryId: record.categoryId,
    categoryName: record.categoryName,
    subcategoryId: record.subcategoryId,
    subcategoryName: record.subcategoryName,
    tagLine: record.tagLine,
    isFeatured: record.isFeatured,
    isRedemption: record.isRedemption,
    pointsCost: record.pointsCost,
    isClearance: record.isClearance,
    isActive: record.isActive,
    averageRating,
    rating: averageRating,
    reviewCount: record.reviewCount,
    imageUrl: record.imageUrl,
    ...(record.imageSrcset ? { imageSrcset: record.imageSrcset } : {}),
    images: images ?? primaryImages(record.imageUrl, record.imageSrcset),
    weightKg: record.weightGrams === null ? null : record.weightGrams / 1000,
    dimensions: record.dimensions,
    warrantyPeriod: record.warrantyPeriod,
    createdAt: new Date(record.createdAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
  };
}

/* ---------------- Categories, subcategories, brands ---------------- */

/** Every category, sorted by name (the header dropdown and sliders rely on that order). */
export async function listCategories(db: Database, options: { includeImages?: boolean } = {}): Promise<Category[]> {
  const rows = await db
    .select({
      id: categories.id,
      name: categories.name,
      slug: categories.slug,
      description: categories.description,
      imageUrl: categories.imageUrl,
      productCount: count(products.id),
    })
    .from(categories)
    .leftJoin(products, and(eq(products.categoryId, categories.id), eq(products.isActive, true)))
    .groupBy(categories.id)
    .orderBy(asc(categories.name));
  return rows.map((row) => ({
    ...row,
    productCount: Number(row.productCount),
    ...(options.includeImages ? { images: primaryImages(row.imageUrl) } : {}),
  }));
}

export async function getCategory(db: Database, id: number): Promise<Category> {
  const [row] = await db
    .select({
      id: categories.id,
      name: categories.name,
      slug: categories.slug,
      description: categories.description,
      imageUrl: categories.imageUrl,
    })
    .from(categories)
    .where(eq(categories.id, id));
  if (!row) throw new NotFoundError('Category not found');
  return { ...row, images: primaryImages(row.imageUrl) };
}

const subcategoryColumns = {
  id: subcategories.id,
  name: subcategories.name,
  slug: subcategories.slug,
  description: subcategories.description,
  categoryId: subcategories.categoryId,
  categoryName: categories.name,
  imageUrl: subcategories.imageUrl,
  productCount: count(products.id),
};

/** Subcategories joined to their category and their active products, ready to group by subcategory. */
function selectSubcategories(db: Database) {
  return db
    .select(subcategoryColumns)
    .from(subcategories)
    .innerJoin(categories, eq(categories.id, subcategories.categoryId))
    .leftJoin(products, and(eq(products.subcategoryId, subcategories.id), eq(products.isActive, true)))
    .$dynamic();
}

function toSubcategory(row: Awaited<ReturnType<typeof selectSubcategories>>[number]): Subcategory {
  return { ...row, productCount: Number(row.productCount) };
}

/** Subcategories sorted by name, optionally of one category. */
export async function listSubcategories(
  db: Database,
  options: { categoryId?: number; includeImages?: boolean } = {},
): Promise<Subcategory[]> {
  const rows = await selectSubcategories(db)
    .where(options.categoryId === undefined ? undefined : eq(subcategories.categoryId, options.categoryId))
    .groupBy(subcategories.id, categories.name)
    .orderBy(asc(subcategories.name));
  return rows.map((row) => ({
    ...toSubcategory(row),
    ...(options.includeImages ? { images: primaryImages(row.imageUrl) } : {}),
  }));
}

export async function getSubcategory(db: Database, id: number): Promise<Subcategory> {
  const [row] = await selectSubcategories(db)
    .where(eq(subcategories.id, id))
    .groupBy(subcategories.id, categories.name);
  if (!row) throw new NotFoundError('Subcategory not found');
  return { ...toSubcategory(row), images: primaryImages(row.imageUrl) };
}

/**
 * Brands sorted by name. With a categoryId: only brands that have active products
 * in that category, each with its product count there.
 */
export async function listBrands(
  db: Database,
  options: { categoryId?: number; includeImages?: boolean } = {},
): Promise<Brand[]> {
  const productJoin =
    options.categoryId === undefined
      ? and(eq(products.brandId, brands.id), eq(products.isActive, true))
      : and(eq(products.brandId, brands.id), eq(products.isActive, true), eq(products.categoryId, options.categoryId));
  const rows = await db
    .select({
      id: brands.id,
      name: brands.name,
      slug: brands.slug,
      description: brands.description,
      imageUrl: brands.imageUrl,
      logoUrl: brands.logoUrl,
      productCount: count(products.id),
    })
    .from(brands)
    .leftJoin(products, productJoin)
    .groupBy(brands.id)
    .orderBy(asc(brands.name));
  return rows
    .map((row) => ({ ...row, productCount: Number(row.productCount) }))
    .filter((row) => options.categoryId === undefined || row.productCount > 0)
    .map((row) => ({ ...row, ...(options.includeImages ? { images: primaryImages(row.imageUrl) } : {}) }));
}

export async function getBrand(db: Database, id: number): Promise<Brand> {
  const [row] = await db
    .select({
      id: brands.id,
      name: brands.name,
      slug: brands.slug,
      description: brands.description,
      imageUrl: brands.imageUrl,
      logoUrl: brands.logoUrl,
    })
    .from(brands)
    .where(eq(brands.id, id));
  if (!row) throw new NotFoundError('Brand not found');
  return { ...row, images: primaryImages(row.imageUrl) };
}

/* ---------------- Products ---------------- */

const productOrder: Record<ProductListQuery['sort'], SQL[]> = {
  featured: [desc(products.isFeatured), desc(products.reviewCount), asc(products.id)],
  newest: [desc(products.createdAt), desc(products.id)],
  name_asc: [asc(products.name), asc(products.id)],
  name_desc: [desc(products.name), desc(products.id)],
  price_asc: [asc(products.effectivePriceCents), asc(products.id)],
  price_desc: [desc(products.effectivePriceCents), desc(products.id)],
  rating_desc: [desc(averageRatingSql), desc(products.reviewCount), asc(products.id)],
};

/** The WHERE clause of a product listing; brand filters can be left out to count brand facets. */
function productFilter(query: Partial<ProductListQuery>, options: { ignoreBrands?: boolean } = {}): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(products.isActive, true)];
  if (query.categoryId !== undefined) conditions.push(eq(products.categoryId, query.categoryId));
  if (query.subcategoryId !== undefined) conditions.push(eq(products.subcategoryId, query.subcategoryId));
  if (!options.ignoreBrands) {
    if (query.brandId !== undefined) conditions.push(eq(products.brandId, query.brandId));
    if (query.brandIds?.length) conditions.push(inArray(products.brandId, query.brandIds));
  }
  if (query.featured !== undefined) conditions.push(eq(products.isFeatured, query.featured));
  if (query.isRedemption !== undefined) conditions.push(eq(products.isRedemption, query.isRedemption));
  if (query.isClearance !== undefined) conditions.push(eq(products.isClearance, query.isClearance));
  if (query.onSale !== undefined) {
    conditions.push(
      query.onSale ? sql`${products.discountPriceCents} is not null` : sql`${products.discountPriceCents} is null`,
    );
  }
  if (query.inStock !== undefined) {
    conditions.push(query.inStock ? sql`${products.stockQuantity} > 0` : eq(products.stockQuantity, 0));
  }
  if (query.minPrice !== undefined) conditions.push(gte(products.effectivePriceCents, dollarsToCents(query.minPrice)));
  if (query.maxPrice !== undefined) conditions.push(lte(products.effectivePriceCents, dollarsToCents(query.maxPrice)));
  if (query.minRating !== undefined && query.minRating > 0) {
    // Compare totals instead of the rounded average so the filter agrees with the stars shown.
    conditions.push(
      sql`${products.reviewCount} > 0 and ${products.ratingTotal} >= ${query.minRating} * ${products.reviewCount}`,
    );
  }
  return and(...conditions);
}

/**
 * A page of active products matching the filters, with paging totals.
 * A page past the end is an empty page, not an error.
 */
export async function listProducts(db: Database, query: ProductListQuery): Promise<ProductPage> {
  const where = productFilter(query);
  const [rows, totals] = await Promise.all([
    selectProducts(db)
      .where(where)
      .orderBy(...productOrder[query.sort])
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(products).where(where),
  ]);
  const totalCount = Number(totals[0]?.total ?? 0);
  return {
    items: rows.map((row) => toProduct(row)),
    page: query.page,
    limit: query.limit,
    totalCount,
    totalPages: Math.ceil(totalCount / query.limit),
  };
}

/** How many products each brand has under the current filters, brand choice left out (for facet checkboxes). */
export async function countProductsByBrand(
  db: Database,
  query: Partial<ProductListQuery>,
): Promise<{ brandId: number; name: string; productCount: number }[]> {
  const rows = await db
    .select({ brandId: brands.id, name: brands.name, productCount: count(products.id) })
    .from(products)
    .innerJoin(brands, eq(brands.id, products.brandId))
    .where(productFilter(query, { ignoreBrands: true }))
    .groupBy(brands.id, brands.name)
    .orderBy(asc(brands.name));
  return rows.map((row) => ({ ...row, productCount: Number(row.productCount) }));
}

/** One product with all its images. Inactive products are still found: old links and orders point at them. */
export async function getProduct(db: Database, id: number): Promise<Product> {
  // One round trip: the gallery comes back as a JSON array next to the product row.
  const [row] = await preparedStatement(db, 'product_by_id', (on) =>
    on
      .select({ ...productColumns, gallery: galleryJsonSql })
      .from(products)
      .innerJoin(brands, eq(brands.id, products.brandId))
      .innerJoin(categories, eq(categories.id, products.categoryId))
      .innerJoin(subcategories, eq(subcategories.id, products.subcategoryId))
      .where(eq(products.id, sql.placeholder('id')))
      .prepare('product_by_id'),
  ).execute({ id });
  if (!row) throw new NotFoundError('Product not found');
  const gallery = typeof row.gallery === 'string' ? (JSON.parse(row.gallery) as Image[]) : row.gallery;
  return toProduct(row, gallery);
}

/** The stock of these products now (id → units); ids that no longer exist are left out. Read afresh, never cached. */
export async function stockOfProducts(db: Database, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: products.id, stockQuantity: products.stockQuantity })
    .from(products)
    .where(inArray(products.id, [...ids]));
  return new Map(rows.map((row) => [row.id, row.stockQuantity]));
}

/** Products by id (a wishlist), in the order given; ids that no longer exist are left out. */
export async function listProductsByIds(db: Database, ids: readonly number[]): Promise<Product[]> {
  if (ids.length === 0) return [];
  const rows = await selectProducts(db).where(inArray(products.id, [...ids]));
  const byId = new Map(rows.map((row) => [row.id, toProduct(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Products a shopper might buy with this one: same subcategory first, then same brand;
 * in stock and active, never the product itself.
 */
export async function listRelatedProducts(
  db: Database,
  product: Pick<Product, 'id' | 'brandId' | 'subcategoryId'>,
  limit = RELATED_PRODUCTS_LIMIT,
): Promise<Product[]> {
  // Three tiers in the ruling's order, each read in index order and asked only while the list
  // is short: the same subcategory and brand (products_related_idx; nearly always enough), the
  // rest of the subcategory, the brand elsewhere. One OR query sorted every product of the
  // subcategory and the brand (~4,400 rows, 65–108 ms at 100,000 products) to keep four.
  const subcategoryId = sql.placeholder('subcategoryId');
  const brandId = sql.placeholder('brandId');
  const tiers: [name: string, rule: SQL][] = [
    [
      'related_same_subcategory_and_brand',
      and(eq(products.subcategoryId, subcategoryId), eq(products.brandId, brandId))!,
    ],
    ['related_same_subcategory', and(eq(products.subcategoryId, subcategoryId), ne(products.brandId, brandId))!],
    ['related_same_brand', and(eq(products.brandId, brandId), ne(products.subcategoryId, subcategoryId))!],
  ];
  const related: Product[] = [];
  for (const [name, rule] of tiers) {
    if (related.length >= limit) break;
    const rows = await preparedStatement(db, name, (on) =>
      selectProducts(on)
        .where(
          and(
            rule,
            eq(products.isActive, true),
            ne(products.id, sql.placeholder('id')),
            sql`${products.stockQuantity} > 0`,
          ),
        )
        .orderBy(desc(products.reviewCount), asc(products.id))
        .limit(sql.placeholder('limit'))
        .prepare(name),
    ).execute({
      id: product.id,
      brandId: product.brandId,
      subcategoryId: product.subcategoryId,
      limit: limit - related.length,
    });
    for (const row of rows) related.push(toProduct(row));
  }
  return related;
}

export async function listReviews(db: Database, productId: number, limit = PRODUCT_REVIEWS_LIMIT): Promise<Review[]> {
  const rows = await preparedStatement(db, 'reviews_of_product', (on) =>
    on
      .select({
        id: reviews.id,
        rating: reviews.rating,
        title: reviews.title,
        body: reviews.body,
        authorName: reviews.authorName,
        createdAt: reviews.createdAt,
      })
      .from(reviews)
      .where(eq(reviews.productId, sql.placeholder('productId')))
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(sql.placeholder('limit'))
      .prepare('reviews_of_product'),
  ).execute({ productId, limit });
  return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt).toISOString() }));
}

/** Where a product's full read takes its brand, category and subcategory from (the services pass their kept reads). */
export interface ProductLookups {
  getBrand(id: number): Promise<Brand>;
  getCategory(id: number): Promise<Category>;
  getSubcategory(id: number): Promise<Subcategory>;
}

/** Everything the product page shows, in one call: product, gallery, variants, brand, category, related items, reviews. */
export async function getFullProduct(
  db: Database,
  id: number,
  lookups: ProductLookups = {
    getBrand: (brandId) => getBrand(db, brandId),
    getCategory: (categoryId) => getCategory(db, categoryId),
    getSubcategory: (subcategoryId) => getSubcategory(db, subcategoryId),
  },
): Promise<FullProduct> {
  const product = await getProduct(db, id);
  const [variantRows, brand, category, subcategory, relatedProducts, productReviews] = await Promise.all([
    preparedStatement(db, 'variants_of_product', (on) =>
      on
        .select()
        .from(productVariants)
        .where(eq(productVariants.productId, sql.placeholder('productId')))
        .orderBy(asc(productVariants.id))
        .prepare('variants_of_product'),
    ).execute({ productId: id }),
    lookups.getBrand(product.brandId),
    lookups.getCategory(product.categoryId),
    lookups.getSubcategory(product.subcategoryId),
    listRelatedProducts(db, product),
    listReviews(db, id),
  ]);
  return {
    product,
    images: product.images,
    variants: variantRows.map((variant) => ({
      id: variant.id,
      name: variant.name,
      sku: variant.sku,
      price: variant.priceCents === null ? null : centsToDollars(variant.priceCents),
      stockQuantity: variant.stockQuantity,
      attributes: variant.attributes,
    })),
    brand,
    category,
    subcategory,
    relatedProducts,
    reviews: productReviews,
  };
}
