import { z } from 'zod';
import { dollarAmountSchema, idListSchema, idSchema, queryBooleanSchema } from './params.ts';

/* ---------- Response shapes (spec §3): camelCase, money as dollars, image paths relative. ---------- */

export const imageSchema = z.object({
  id: z.number().int().optional(),
  imageUrl: z.string(),
  isPrimary: z.boolean(),
  altText: z.string().optional(),
  /** Uploaded pictures only: their WebP sizes as an HTML `srcset` ("/media/….webp 400w, …"). */
  srcset: z.string().optional(),
});

export const categorySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    imageUrl: z.string().nullable(),
    images: z.array(imageSchema).optional(),
    productCount: z.number().int().optional(),
  })
  .meta({ id: 'Category' });

export const subcategorySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    categoryId: z.number().int(),
    categoryName: z.string(),
    imageUrl: z.string().nullable(),
    images: z.array(imageSchema).optional(),
    productCount: z.number().int(),
  })
  .meta({ id: 'Subcategory' });

export const brandSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    imageUrl: z.string().nullable(),
    logoUrl: z.string().nullable(),
    images: z.array(imageSchema).optional(),
    productCount: z.number().int().optional(),
  })
  .meta({ id: 'Brand' });

export const variantSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  sku: z.string(),
  price: z.number().nullable(),
  stockQuantity: z.number().int(),
  attributes: z.record(z.string(), z.string()),
});

export const productSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    sku: z.string(),
    description: z.string(),
    specifications: z.record(z.string(), z.string()),
    price: z.number().describe('Regular price in dollars'),
    discountPrice: z.number().nullable().describe('Sale price in dollars, when discounted'),
    stockQuantity: z.number().int(),
    brandId: z.number().int(),
    brandName: z.string(),
    categoryId: z.number().int(),
    categoryName: z.string(),
    subcategoryId: z.number().int(),
    subcategoryName: z.string(),
    tagLine: z.string().nullable(),
    isFeatured: z.boolean(),
    isRedemption: z.boolean(),
    /** What the product costs in loyalty points on /redemption; null when it cannot be redeemed. */
    pointsCost: z.number().int().nullable(),
    isClearance: z.boolean(),
    isActive: z.boolean(),
    averageRating: z.number().describe('Mean of stored review ratings, 0 when there are none'),
    rating: z.number().describe('Same as averageRating; kept for clients of the old API'),
    reviewCount: z.number().int(),
    imageUrl: z.string().nullable().describe('The primary image'),
    imageSrcset: z.string().optional().describe("The primary image's sizes as an HTML srcset (uploaded pictures only)"),
    images: z.array(imageSchema),
    weightKg: z.number().nullable(),
    dimensions: z.string().nullable(),
    warrantyPeriod: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Product' });

export const reviewSchema = z.object({
  id: z.number().int(),
  rating: z.number().int().min(1).max(5),
  title: z.string(),
  body: z.string(),
  authorName: z.string(),
  createdAt: z.string(),
});

export const productPageSchema = z
  .object({
    items: z.array(productSchema),
    page: z.number().int(),
    limit: z.number().int(),
    totalCount: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'ProductPage' });

export const fullProductSchema = z
  .object({
    product: productSchema,
    images: z.array(imageSchema),
    variants: z.array(variantSchema),
    brand: brandSchema,
    category: categorySchema,
    subcategory: subcategorySchema,
    relatedProducts: z.array(productSchema),
    reviews: z.array(reviewSchema),
  })
  .meta({ id: 'FullProduct' });

export type Image = z.infer<typeof imageSchema>;
export type Category = z.infer<typeof categorySchema>;
export type Subcategory = z.infer<typeof subcategorySchema>;
export type Brand = z.infer<typeof brandSchema>;
export type Variant = z.infer<typeof variantSchema>;
export type Product = z.infer<typeof productSchema>;
export type Review = z.infer<typeof reviewSchema>;
export type ProductPage = z.infer<typeof productPageSchema>;
export type FullProduct = z.infer<typeof fullProductSchema>;

/* ---------- Request shapes ---------- */

export const includeImagesQuerySchema = z.object({
  includeImages: queryBooleanSchema.optional(),
});

export const brandListQuerySchema = includeImagesQuerySchema.extend({
  categoryId: idSchema.optional(),
});

export const subcategoryListQuerySchema = includeImagesQuerySchema.extend({
  categoryId: idSchema.optional(),
});

export const PRODUCT_SORTS = [
  'featured',
  'newest',
  'name_asc',
  'name_desc',
  'price_asc',
  'price_desc',
  'rating_desc',
] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export const MAX_PRODUCT_PAGE_SIZE = 1000;
export const MAX_PRODUCT_PAGE = 10_000;

export const productListQuerySchema = z
  .object({
    brandId: idSchema.optional(),
    brandIds: idListSchema.optional(),
    categoryId: idSchema.optional(),
    subcategoryId: idSchema.optional(),
    isRedemption: queryBooleanSchema.optional(),
    featured: queryBooleanSchema.optional(),
    isClearance: queryBooleanSchema.optional(),
    onSale: queryBooleanSchema.optional(),
    inStock: queryBooleanSchema.optional(),
    minPrice: dollarAmountSchema.optional(),
    maxPrice: dollarAmountSchema.optional(),
    minRating: z.coerce
      .number({ error: 'Must be a number' })
      .min(0, 'Must be between 0 and 5')
      .max(5, 'Must be between 0 and 5')
      .optional(),
    sort: z.enum(PRODUCT_SORTS, { error: `Must be one of: ${PRODUCT_SORTS.join(', ')}` }).default('featured'),
    page: z.coerce
      .number({ error: 'Must be a whole number' })
      .int('Must be a whole number')
      .min(1, 'Must be 1 or more')
      .max(MAX_PRODUCT_PAGE, `Must be at most ${MAX_PRODUCT_PAGE}`)
      .default(1),
    limit: z.coerce
      .number({ error: 'Must be a whole number' })
      .int('Must be a whole number')
      .min(1, 'Must be between 1 and 1000')
      .max(MAX_PRODUCT_PAGE_SIZE, 'Must be between 1 and 1000')
      .default(20),
  })
  .refine((q) => q.minPrice === undefined || q.maxPrice === undefined || q.minPrice <= q.maxPrice, {
    path: ['maxPrice'],
    message: 'Must not be below minPrice',
  });

export type ProductListQuery = z.output<typeof productListQuerySchema>;

export const productLimitQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'Must be a whole number' })
    .int('Must be a whole number')
    .min(1, 'Must be between 1 and 100')
    .max(100, 'Must be between 1 and 100')
    .default(12),
});
