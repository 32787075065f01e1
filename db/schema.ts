import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  index,
  integer,
  json,
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
    /** `json`, not `jsonb`: it keeps the names in the order the shop owner typed them. */
    specifications: json('specifications').$type<Record<string, string>>().notNull().default({}),
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
    /** What a redemption product costs in loyalty points; null when it cannot be redeemed. */
    pointsCost: integer('points_cost'),
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
    // Related products (listRelatedProducts): a subcategory's products of one brand, most reviewed first.
    index('products_related_idx').on(t.subcategoryId, t.brandId, t.reviewCount.desc().nullsFirst(), t.id),
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
    /** An uploaded picture's WebP sizes as an HTML `srcset` ("/media/products/….webp 400w, …"); null for seeded pictures. */
    srcset: text('srcset'),
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

/**
 * One number that moves with every committed change to what search reads (products and
 * their pictures and variants, brands, categories, and search's own tables),
 * bumped at commit by the deferred triggers of migration 0012, whichever code writes.
 * Search answers are kept against it (server/domain/search-answers.ts).
 */
export const catalogVersion = pgTable(
  'catalog_version',
  {
    id: smallint('id').primaryKey().default(1),
    version: integer('version').notNull().default(0),
  },
  (t) => [check('catalog_version_single_row', sql`${t.id} = 1`)],
);

/**
 * Shoppers and shop staff. The e-mail is unique whatever its case (index on lower(email));
 * `passwordHash` is argon2id, null only for an account that signs in with Google alone.
 */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone'),
    passwordHash: text('password_hash'),
    role: text('role', { enum: ['customer', 'admin'] })
      .notNull()
      .default('customer'),
    /** The `sub` of the Google account linked to this one, when the shopper signed in with Google. */
    googleSubject: text('google_subject').unique(),
    /**
     * The staff member's authenticator (TOTP, RFC 6238) secret, base32; set when they begin
     * turning the second factor on, in force once `totpEnabledAt` is set.
     */
    totpSecret: text('totp_secret'),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
    /** The last 30-second step a code was accepted for: a code is good once, never replayed. */
    totpLastStep: integer('totp_last_step'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    check('users_role_valid', sql`${t.role} in ('customer', 'admin')`),
  ],
);

/**
 * Server-side sessions (the Copenhagen Book): the id is the SHA-256 of the random token the
 * client holds, so a database dump holds no usable token.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamps.createdAt,
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    /** How the session last proved who holds it ('password' or 'google'), for confirmations without a password. */
    provenBy: text('proven_by').notNull().default('password'),
    /** When it last did (sign-in, or a fresh Google sign-in to confirm a step). */
    provenAt: timestamp('proven_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Single-use password reset tokens, stored as SHA-256 hashes; they expire after an hour. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamps.createdAt,
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);

export const addresses = pgTable(
  'addresses',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addressType: text('address_type').notNull(),
    fullName: text('full_name').notNull(),
    addressLine1: text('address_line1').notNull(),
    addressLine2: text('address_line2'),
    city: text('city').notNull(),
    state: text('state').notNull(),
    postalCode: text('postal_code').notNull(),
    country: text('country').notNull(),
    phoneNumber: text('phone_number'),
    isDefault: boolean('is_default').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('addresses_user_idx').on(t.userId),
    // At most one default per shopper, whatever races between two tabs.
    uniqueIndex('addresses_one_default_key').on(t.userId).where(sql`is_default`),
  ],
);

/** Saved cards and accounts: provider, type, last 4 digits and expiry only, never a card number or CVV. */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    paymentType: text('payment_type').notNull(),
    provider: text('provider').notNull(),
    last4Digits: text('last4_digits').notNull(),
    expiryMonth: text('expiry_month').notNull(),
    expiryYear: integer('expiry_year').notNull(),
    /** The payment provider's reference for the method, when it has one. */
    paymentMethodRef: text('payment_method_ref'),
    isDefault: boolean('is_default').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('payment_methods_user_idx').on(t.userId),
    uniqueIndex('payment_methods_one_default_key').on(t.userId).where(sql`is_default`),
    check('payment_methods_last4_digits', sql`${t.last4Digits} ~ '^[0-9]{4}$'`),
  ],
);

export const userPreferences = pgTable('user_preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  marketingEmails: boolean('marketing_emails').notNull().default(false),
  orderUpdateEmails: boolean('order_update_emails').notNull().default(true),
  preferredContactMethod: text('preferred_contact_method').notNull().default('email'),
  updatedAt: timestamps.updatedAt,
});

export const wishlistItems = pgTable(
  'wishlist_items',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: timestamps.createdAt,
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] })],
);

/**
 * Every e-mail the shop sends, as a record of what went where and whether it was delivered.
 * The body is not kept: it can hold a live reset link.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: serial('id').primaryKey(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    kind: text('kind').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    /** The SMTP message id, or the .eml file the local outbox wrote. */
    deliveredAs: text('delivered_as'),
    error: text('error'),
    createdAt: timestamps.createdAt,
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('email_outbox_created_idx').on(t.createdAt)],
);

/**
 * Failed sign-ins of one account (by its e-mail's hash, known or not) from one address, with
 * the time the next try may come (issue 21's slow-down); rows live 24 hours after the last failure.
 */
export const signInThrottle = pgTable(
  'sign_in_throttle',
  {
    key: text('key').primaryKey(),
    account: text('account').notNull(),
    failures: integer('failures').notNull(),
    notBefore: timestamp('not_before', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sign_in_throttle_account_idx').on(t.account), index('sign_in_throttle_expires_idx').on(t.expiresAt)],
);

/** Fixed-window counters shared by every app process (rate limits, failed sign-ins) when no Redis is configured. */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Every declined card attempt, with the account and address it came from and a keyed hash
 * of the card (never the number): the record behind the per-card, per-account and
 * per-address caps (server/domain/card-velocity.ts) and what support looks at.
 */
export const paymentDeclines = pgTable(
  'payment_declines',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    address: text('address'),
    /** HMAC-SHA256 of the card number under the shop's own key (shop_settings), or null for a saved method. */
    cardFingerprint: text('card_fingerprint'),
    /** What was being paid for: 'order' or 'membership'. */
    purpose: text('purpose').notNull(),
    createdAt: timestamps.createdAt,
  },
  (t) => [index('payment_declines_created_idx').on(t.createdAt), index('payment_declines_user_idx').on(t.userId)],
);

export type UserRow = typeof users.$inferSelect;
export type AddressRow = typeof addresses.$inferSelect;
export type PaymentMethodRow = typeof paymentMethods.$inferSelect;

/** A signed-in shopper's cart, so it follows them across devices (the signed-out cart lives in the browser). */
export const cartItems = pgTable(
  'cart_items',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** The chosen variant (size, colour, pack); null for the product as it is. */
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    /** The unit price when it was added, so the cart can say 'Price changed from $X to $Y'. */
    addedPriceCents: integer('added_price_cents').notNull(),
    updatedAt: timestamps.updatedAt,
  },
  (t) => [
    uniqueIndex('cart_items_line_key').on(t.userId, t.productId, sql`coalesce(${t.variantId}, 0)`),
    check('cart_items_quantity_positive', sql`${t.quantity} > 0`),
  ],
);

export const ORDER_STATUSES = ['Pending', 'Processing', 'Succeeded', 'Cancelled'] as const;
export const PAYMENT_STATUSES = ['Pending', 'Paid', 'Partially refunded', 'Refunded', 'Failed'] as const;
/** How an order reaches its shopper (spec-decisions "Fulfilment"). */
export const FULFILMENT_METHODS = ['delivery', 'collect'] as const;

/**
 * Orders. Money is integer cents, priced on the server when placed. `userId` and the
 * personal fields are cleared when the shopper deletes their account; the order stays for the
 * shop's records. `(userId, idempotencyKey)` is unique: the checkout's `sessionId`.
 */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    orderNumber: text('order_number').notNull().generatedAlwaysAs(sql`'HT-' || (100000 + id)::text`),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email'),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('Pending'),
    paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES }).notNull().default('Pending'),
    paymentMethod: text('payment_method').notNull().default('credit_card'),
    /** Points spent on a redemption order (paid with points, not money). */
    pointsSpent: integer('points_spent').notNull().default(0),
    transactionId: text('transaction_id'),
    refundId: text('refund_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    subtotalCents: integer('subtotal_cents').notNull(),
    gstCents: integer('gst_cents').notNull(),
    shippingCents: integer('shipping_cents').notNull(),
    /**
     * The delivery charge's GST share (1/11 of it), part of `shippingCents`, not added to the
     * total. Null on orders placed before delivery GST was shown: they keep the invoice they
     * were issued with.
     */
    shippingGstCents: integer('shipping_gst_cents'),
    totalCents: integer('total_cents').notNull(),
    /** What has been refunded so far (cancel, approved returns); paymentStatus says whether in part or in full. */
    refundedCents: integer('refunded_cents').notNull().default(0),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    fulfilment: text('fulfilment', { enum: FULFILMENT_METHODS }).notNull().default('delivery'),
    /** The phone the courier or the store uses for this order (the account's by default). */
    contactPhone: text('contact_phone'),
    shipFullName: text('ship_full_name'),
    shipAddressLine1: text('ship_address_line1'),
    shipAddressLine2: text('ship_address_line2'),
    shipCity: text('ship_city'),
    shipState: text('ship_state'),
    shipPostalCode: text('ship_postal_code'),
    shipCountry: text('ship_country'),
    /**
     * Set while the order's card charge is in flight (reserved → charged → confirmed, outside any
     * lock): stock is held for it, its payment is not yet known. Cleared when it is confirmed;
     * a released reservation is deleted. `reservedBy` names the process charging it, so a
     * reservation left by a process that died is settled by asking the gateway by key.
     */
    paymentStartedAt: timestamp('payment_started_at', { withTimezone: true }),
    reservedBy: text('reserved_by'),
    idempotencyKey: text('idempotency_key').notNull(),
    /** SHA-256 of what the order was asked for, so the same key with another body is refused. */
    requestHash: text('request_hash').notNull(),
    /** When the order became Succeeded (shipped or collected): the 30-day return window runs from it. */
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('orders_idempotency_key').on(t.userId, t.idempotencyKey),
    uniqueIndex('orders_order_number_key').on(t.orderNumber),
    index('orders_user_created_idx').on(t.userId, t.createdAt),
    index('orders_status_idx').on(t.status),
    // The sweep's few rows: reservations whose charge is in flight or was left by a process that died.
    index('orders_reservations_idx').on(t.paymentStartedAt).where(sql`${t.paymentStartedAt} is not null`),
    check(
      'orders_amounts_nonnegative',
      sql`${t.subtotalCents} >= 0 and ${t.gstCents} >= 0 and ${t.shippingCents} >= 0`,
    ),
    check('orders_refund_within_total', sql`${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.totalCents}`),
    check('orders_total_adds_up', sql`${t.totalCents} = ${t.subtotalCents} + ${t.gstCents} + ${t.shippingCents}`),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    productName: text('product_name').notNull(),
    /** The variant bought, if one was chosen; its name is kept with the line (variants can be deleted). */
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    variantName: text('variant_name'),
    sku: text('sku').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    quantity: integer('quantity').notNull(),
    imageUrl: text('image_url'),
  },
  (t) => [index('order_items_order_idx').on(t.orderId), check('order_items_quantity_positive', sql`${t.quantity} > 0`)],
);

/** Each move of an order's status, with who made it (the shop's history of the order). */
export const orderEvents = pgTable(
  'order_events',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    actor: text('actor').notNull(),
    note: text('note'),
    createdAt: timestamps.createdAt,
  },
  (t) => [index('order_events_order_idx').on(t.orderId)],
);

/** A shopper's request to return items of a Succeeded order; the shop approves or rejects it. */
export const returnRequests = pgTable(
  'return_requests',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    /** `[{ orderItemId, quantity }]` */
    items: jsonb('items').$type<{ orderItemId: number; quantity: number }[]>().notNull(),
    status: text('status', { enum: ['Requested', 'Approved', 'Rejected'] })
      .notNull()
      .default('Requested'),
    resolutionNote: text('resolution_note'),
    ...timestamps,
  },
  (t) => [index('return_requests_order_idx').on(t.orderId)],
);

/**
 * How an order left the shop or is waiting at the store (issue 22): one record per order.
 * A delivery is shipped with a carrier and tracking number; a collect order is made ready,
 * then collected (or cancelled after 14 days uncollected, with a reminder after 7).
 */
export const orderFulfilments = pgTable('order_fulfilments', {
  orderId: integer('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  method: text('method', { enum: FULFILMENT_METHODS }).notNull(),
  /** A key of the carriers' list in contracts (australia-post, startrack, couriers-please, other). */
  carrier: text('carrier'),
  trackingNumber: text('tracking_number'),
  shippedAt: timestamp('shipped_at', { withTimezone: true }),
  readyAt: timestamp('ready_at', { withTimezone: true }),
  collectReminderSentAt: timestamp('collect_reminder_sent_at', { withTimezone: true }),
  collectedAt: timestamp('collected_at', { withTimezone: true }),
  ...timestamps,
});
export type OrderFulfilmentRow = typeof orderFulfilments.$inferSelect;

/**
 * An adjustment note (the ATO's credit note), issued with every refund of money: a cancel or
 * an approved return. Its figures are stored, as an invoice's are, and never recomputed.
 */
export const adjustmentNotes = pgTable(
  'adjustment_notes',
  {
    id: serial('id').primaryKey(),
    noteNumber: text('note_number').notNull().generatedAlwaysAs(sql`'AN-' || (100000 + id)::text`),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    returnRequestId: integer('return_request_id').references(() => returnRequests.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    /** `[{ orderItemId, productName, sku, quantity, unitPriceCents, totalCents }]`, ex GST as on the invoice. */
    lines: jsonb('lines')
      .$type<
        {
          orderItemId: number;
          productName: string;
          sku: string;
          quantity: number;
          unitPriceCents: number;
          totalCents: number;
        }[]
      >()
      .notNull(),
    subtotalCents: integer('subtotal_cents').notNull(),
    gstCents: integer('gst_cents').notNull(),
    shippingCents: integer('shipping_cents').notNull(),
    shippingGstCents: integer('shipping_gst_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    refundId: text('refund_id'),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    uniqueIndex('adjustment_notes_number_key').on(t.noteNumber),
    index('adjustment_notes_order_idx').on(t.orderId),
    check(
      'adjustment_notes_total_adds_up',
      sql`${t.totalCents} = ${t.subtotalCents} + ${t.gstCents} + ${t.shippingCents}`,
    ),
  ],
);

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;

/** Who changed what in the shop's back office, and when (catalogue writes, order moves, returns). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamps.createdAt,
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt), index('audit_log_entity_idx').on(t.entity, t.entityId)],
);

/**
 * 'past_due': the renewal was declined and is being retried (benefits kept); 'lapsed': the
 * third renewal attempt was declined and the membership ended.
 */
export const MEMBERSHIP_STATUSES = ['active', 'cancelling', 'cancelled', 'past_due', 'lapsed'] as const;

/**
 * A shopper's membership (spec §2 /membership): the plan, when it started and renews, and
 * whether it ends at the end of the paid month; the saved method that pays its renewals and
 * the renewal job's bookkeeping (server/domain/membership-billing.ts).
 */
export const memberships = pgTable(
  'memberships',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    plan: text('plan', { enum: ['basic', 'premium'] }).notNull(),
    status: text('status', { enum: MEMBERSHIP_STATUSES }).notNull().default('active'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    renewsOn: timestamp('renews_on', { withTimezone: true }).notNull(),
    transactionId: text('transaction_id'),
    updatedAt: timestamps.updatedAt,
    /** Start of the period paid for (renewsOn ends it): the base of pro-rated upgrades. */
    periodStartedAt: timestamp('period_started_at', { withTimezone: true }).notNull().defaultNow(),
    /** The saved method renewals charge; null when the shopper deleted it (renewals then decline). */
    paymentMethodId: integer('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
    /** A cheaper plan chosen for the next period (it applies, and is charged, at renewal). */
    pendingPlan: text('pending_plan', { enum: ['basic', 'premium'] }),
    /** Not before this may the renewal job try to charge again (a retry a day later, or a claim's lease). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** The renewal date the 7-day reminder went out for, so it goes once per period. */
    remindedFor: timestamp('reminded_for', { withTimezone: true }),
  },
  (t) => [
    check('memberships_plan_valid', sql`${t.plan} in ('basic', 'premium')`),
    index('memberships_renews_idx').on(t.renewsOn),
  ],
);

/**
 * Every membership charge: the first month (join), a pro-rated upgrade, each renewal. The row
 * is written before the gateway is called and its id (with the attempt) is the idempotency
 * key; (user, period, kind) is unique, so however many processes run the renewal job a
 * member is charged once a period, and only one charge of a member is in flight at a time.
 */
export const membershipCharges = pgTable(
  'membership_charges',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['join', 'renewal', 'upgrade'] }).notNull(),
    /** The start of the period the charge pays for (for an upgrade: the period it upgrades). */
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    plan: text('plan', { enum: ['basic', 'premium'] }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: ['pending', 'approved', 'declined'] })
      .notNull()
      .default('pending'),
    /** Gateway attempts so far (a declined renewal is tried 3 times). */
    attempts: integer('attempts').notNull().default(1),
    paymentMethodId: integer('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    transactionId: text('transaction_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('membership_charges_period_key').on(t.userId, t.periodStart, t.kind),
    uniqueIndex('membership_charges_one_in_flight').on(t.userId).where(sql`status = 'pending'`),
    check('membership_charges_amount_positive', sql`${t.amountCents} > 0`),
  ],
);
export type MembershipChargeRow = typeof membershipCharges.$inferSelect;

/**
 * The loyalty points ledger: every earn (an order fulfilled), redeem (a redemption order) and
 * reverse (a cancellation or return) as a signed row. The balance is the sum; there is no
 * balance column to drift.
 */
export const pointsLedger = pgTable(
  'points_ledger',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['earn', 'redeem', 'reverse', 'adjust'] }).notNull(),
    points: integer('points').notNull(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    note: text('note').notNull(),
    createdAt: timestamps.createdAt,
    /**
     * When the entry counts towards the spendable balance: earned points 30 days after the order
     * was fulfilled (the return window), everything else at once; null while a return of the
     * order is being decided.
     */
    availableAt: timestamp('available_at', { withTimezone: true }).defaultNow(),
  },
  (t) => [index('points_ledger_user_idx').on(t.userId, t.createdAt)],
);

/** One-use recovery codes of a staff member's second factor, as SHA-256 hashes (they are random, 50 bits). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamps.createdAt,
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/**
 * A sign-in whose password was right and that waits for the second factor's code: the id is
 * the SHA-256 of the token the client holds; it lives 5 minutes and takes 5 wrong codes.
 */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userAgent: text('user_agent'),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamps.createdAt,
  },
  (t) => [index('sign_in_challenges_user_idx').on(t.userId)],
);
