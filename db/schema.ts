import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** PostgreSQL's full-text search document; written by the database (migration 0004), read only in SQL. */
const tsvector = customType<{ data: string }>({
  dataType: () => 'tsvector',
});

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const categories = pgTable('categories', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  slug: text('slug').notNull().unique(),
  description: text('description').notNull().default(''),
  imageUrl: text('image_url'),
  ...timestamps,
});

export const subcategories = pgTable(
  'subcategories',
  {
    id: serial('id').primaryKey(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
    imageUrl: text('image_url'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('subcategories_category_name_key').on(t.categoryId, t.name),
    index('subcategories_category_idx').on(t.categoryId),
  ],
);

export const brands = pgTable('brands', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  slug: text('slug').notNull().unique(),
  description: text('description').notNull().default(''),
  imageUrl: text('image_url'),
  logoUrl: text('logo_url'),
  ...timestamps,
});

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    sku: text('sku').notNull().unique(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    specifications: jsonb('specifications').$type<Record<string, string>>().notNull().default({}),
    priceCents: integer('price_cents').notNull(),
    discountPriceCents: integer('discount_price_cents'),
    /** What a shopper pays per unit: kept by the database so filters and sorts agree with the price shown. */
    effectivePriceCents: integer('effective_price_cents')
      .notNull()
      .generatedAlwaysAs(sql`coalesce(discount_price_cents, price_cents)`),
    stockQuantity: integer('stock_quantity').notNull().default(0),
    brandId: integer('brand_id')
      .notNull()
      .references(() => brands.id, { onDelete: 'restrict' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'restrict' }),
    subcategoryId: integer('subcategory_id')
      .notNull()
      .references(() => subcategories.id, { onDelete: 'restrict' }),
    tagLine: text('tag_line'),
    isFeatured: boolean('is_featured').notNull().default(false),
    isRedemption: boolean('is_redemption').notNull().default(false),
    isClearance: boolean('is_clearance').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    weightGrams: integer('weight_grams'),
    dimensions: text('dimensions'),
    warrantyPeriod: text('warranty_period'),
    /** Maintained by a trigger on reviews (migration 0001), so listings can sort and filter by rating cheaply. */
    reviewCount: integer('review_count').notNull().default(0),
    ratingTotal: integer('rating_total').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    check('products_price_nonnegative', sql`${t.priceCents} >= 0`),
    check(
      'products_discount_valid',
      sql`${t.discountPriceCents} is null or (${t.discountPriceCents} >= 0 and ${t.discountPriceCents} < ${t.priceCents})`,
    ),
    check('products_stock_nonnegative', sql`${t.stockQuantity} >= 0`),
    check('products_weight_nonnegative', sql`${t.weightGrams} is null or ${t.weightGrams} >= 0`),
    index('products_subcategory_idx').on(t.subcategoryId, t.effectivePriceCents),
    index('products_category_idx').on(t.categoryId),
    index('products_brand_idx').on(t.brandId),
    index('products_featured_idx').on(t.id).where(sql`is_featured`),
    index('products_redemption_idx').on(t.id).where(sql`is_redemption`),
    index('products_clearance_idx').on(t.id).where(sql`is_clearance`),
    index('products_created_idx').on(t.createdAt),
  ],
);

export const productImages = pgTable(
  'product_images',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    imageUrl: text('image_url').notNull(),
    altText: text('alt_text').notNull().default(''),
    isPrimary: boolean('is_primary').notNull().default(false),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    index('product_images_product_idx').on(t.productId, t.sortOrder),
    uniqueIndex('product_images_one_primary').on(t.productId).where(sql`is_primary`),
  ],
);

export const productVariants = pgTable(
  'product_variants',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    sku: text('sku').notNull().unique(),
    priceCents: integer('price_cents'),
    stockQuantity: integer('stock_quantity').notNull().default(0),
    attributes: jsonb('attributes').$type<Record<string, string>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [
    index('product_variants_product_idx').on(t.productId),
    check('product_variants_price_nonnegative', sql`${t.priceCents} is null or ${t.priceCents} >= 0`),
    check('product_variants_stock_nonnegative', sql`${t.stockQuantity} >= 0`),
  ],
);

export const reviews = pgTable(
  'reviews',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    rating: smallint('rating').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    authorName: text('author_name').notNull(),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
    index('reviews_product_idx').on(t.productId, t.createdAt),
  ],
);

export type CategoryRow = typeof categories.$inferSelect;
export type SubcategoryRow = typeof subcategories.$inferSelect;
export type BrandRow = typeof brands.$inferSelect;
export type ProductRow = typeof products.$inferSelect;
export type ProductImageRow = typeof productImages.$inferSelect;
export type ProductVariantRow = typeof productVariants.$inferSelect;
export type ReviewRow = typeof reviews.$inferSelect;

/** Messages sent through the contact form; the shop answers them by e-mail. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    orderNumber: text('order_number'),
    createdAt: timestamps.createdAt,
  },
  (t) => [index('contact_messages_created_idx').on(t.createdAt)],
);

/** Small shop-wide values decided at run time, e.g. the demo's kit launch date set at first start. */
export const shopSettings = pgTable('shop_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamps.updatedAt,
});

export type ContactMessageRow = typeof contactMessages.$inferSelect;

/**
 * What search reads: one narrow row per product, kept by triggers on products, brands,
 * categories and subcategories (migration 0004), whichever code writes them.
 * `title`: the name (weight A), brand, category and subcategory (B) and tag line (C), for
 * ranking and suggestions. `document`: every word of the title and the description,
 * without positions, for matching. `codes`: model numbers and the SKU as written and
 * joined ("VX-HD853" also as vxhd853), kept apart so a two-letter prefix such as "gr" does
 * not expand over a hundred thousand model numbers. Rows stay small, so counting and
 * faceting thousands of matches is cheap.
 */
export const productSearch = pgTable(
  'product_search',
  {
    productId: integer('product_id')
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id').notNull(),
    brandId: integer('brand_id').notNull(),
    effectivePriceCents: integer('effective_price_cents').notNull(),
    isFeatured: boolean('is_featured').notNull(),
    reviewCount: integer('review_count').notNull(),
    isActive: boolean('is_active').notNull(),
    /** lower(name) in byte order: the same A–Z on PGlite and PostgreSQL. */
    sortName: text('sort_name').notNull(),
    title: tsvector('title').notNull(),
    document: tsvector('document').notNull(),
    codes: tsvector('codes').notNull(),
  },
  (t) => [
    // A small pending list: PGlite has no autovacuum to merge it, so it is merged on insert
    // every 256 kB, and a search never scans more than that.
    index('product_search_title_idx').using('gin', t.title).with({ gin_pending_list_limit: 256 }),
    // The dropdown looks among featured products first: a small index, so "dr" stays cheap.
    index('product_search_featured_title_idx')
      .using('gin', t.title)
      .with({ gin_pending_list_limit: 256 })
      .where(sql`is_active and is_featured`),
    index('product_search_document_idx').using('gin', t.document).with({ gin_pending_list_limit: 256 }),
    index('product_search_codes_idx').using('gin', t.codes).with({ gin_pending_list_limit: 256 }),
    // Autocomplete walks products best-known first and stops after a handful of matches.
    index('product_search_popularity_idx')
      .on(t.isFeatured.desc(), t.reviewCount.desc(), t.productId)
      .where(sql`is_active`),
  ],
);

/**
 * The catalogue's vocabulary (words of product names, tag lines, descriptions, brands,
 * categories and subcategories, lower case, no digits) for correcting typos. Filled by triggers (migration
 * 0004); words are only added, a correction is checked against the products before use.
 */
export const searchWords = pgTable(
  'search_words',
  {
    word: text('word').primaryKey(),
  },
  (t) => [index('search_words_trgm_idx').using('gin', t.word.op('gin_trgm_ops')).with({ gin_pending_list_limit: 256 })],
);

/**
 * Brands and categories as autocomplete suggestions, each with its name's search document.
 * A copy kept by triggers on brands and categories (migration 0004), small enough to scan.
 */
export const searchSuggestions = pgTable(
  'search_suggestions',
  {
    type: text('type').$type<'Brand' | 'Category'>().notNull(),
    referenceId: integer('reference_id').notNull(),
    value: text('value').notNull(),
    document: tsvector('document').notNull(),
  },
  (t) => [primaryKey({ columns: [t.type, t.referenceId] })],
);
