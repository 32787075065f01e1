import { z } from 'zod';
import { MAX_ID, numberIdSchema } from './params.ts';

/*
 * The create-product form (spec §2, §3, §5) and `POST /api/products` / `PUT /api/products/:id`:
 * one schema for the page and the API. Money arrives in dollars and is kept in cents.
 */

export const PRODUCT_MESSAGES = {
  created: 'Product created successfully!',
  updated: 'Product saved',
  failed: 'Failed to create product',
  imageFailed: 'Image upload failed',
  duplicateSku: 'A product with this SKU already exists',
  duplicateVariantSku: 'Another product or variant already uses this SKU',
  specifications: 'Specifications must be valid JSON, e.g. {"Voltage": "18 V"}',
  unknownBrand: 'That brand does not exist',
  unknownCategory: 'That category does not exist',
  unknownSubcategory: 'That subcategory does not exist',
  subcategoryNotInCategory: 'The subcategory is not in that category',
} as const;

function requiredText(message: string, max: number) {
  return z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `Must be ${max} characters or fewer`)
    .refine((value) => !value.includes('\u0000'), 'Contains a character that is not allowed');
}

function optionalText(max: number) {
  return z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, `Must be ${max} characters or fewer`)
    .refine((value) => !value.includes('\u0000'), 'Contains a character that is not allowed')
    .nullish()
    .transform((value) => value || null);
}

/**
 * A number sent as JSON or as text (the CSV import): null and blank text mean "not given"
 * (`missing`), other text must read as a number, and true/false are not numbers (`invalid`).
 * Never coerced: `z.coerce` made null, '' and false a price of $0 and true a brand id of 1.
 */
function numeric<T extends z.ZodType<number>>(missing: string, invalid: string, checks: (n: z.ZodNumber) => T) {
  return z.preprocess(
    (value) => {
      if (value === null || value === undefined) return undefined;
      if (typeof value === 'string') return value.trim() === '' ? undefined : Number(value.trim());
      return value;
    },
    checks(z.number({ error: (issue) => (issue.input === undefined ? missing : invalid) })),
  );
}

function requiredId(message: string) {
  return numeric(message, message, (n) => n.int(message).min(1, message).max(MAX_ID, message));
}

/** Dollars with at most two decimals (step 0.01), at least 0. */
function money(required: string | null) {
  return numeric(required ?? 'Must be a number', 'Must be a number', (n) =>
    n
      .min(0, 'Must be 0 or more')
      .max(1_000_000, 'Must be at most 1,000,000')
      .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, 'Use at most two decimals (cents)'),
  );
}

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/**
 * Specifications as the owner typed them: a JSON object of text values, given as JSON text
 * (the form's textarea, default '{}') or as an object. Kept as text so the key order stays.
 */
export const specificationsSchema = z
  .union([z.string(), z.record(z.string(), z.unknown())], { error: PRODUCT_MESSAGES.specifications })
  .default('{}')
  .transform((value, context) => {
    let parsed: unknown = value;
    if (typeof value === 'string') {
      try {
        parsed = JSON.parse(value.trim() || '{}');
      } catch {
        context.addIssue({ code: 'custom', message: PRODUCT_MESSAGES.specifications });
        return z.NEVER;
      }
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      context.addIssue({ code: 'custom', message: PRODUCT_MESSAGES.specifications });
      return z.NEVER;
    }
    const entries = Object.entries(parsed as Record<string, unknown>);
    if (
      entries.length > 100 ||
      entries.some(([key, item]) => key.length > 100 || (typeof item !== 'string' && typeof item !== 'number'))
    ) {
      context.addIssue({
        code: 'custom',
        message: 'Specifications: up to 100 names, each with a text or number value',
      });
      return z.NEVER;
    }
    return entries.map(([key, item]) => [key, String(item)] as [string, string]);
  });

export const variantInputSchema = z.object({
  id: numberIdSchema('Variant id must be an id').optional(),
  name: requiredText('Variant name is required', 100),
  sku: requiredText('Variant SKU is required', 64),
  price: z.preprocess(emptyToUndefined, money(null).optional()),
  stockQuantity: numeric('Variant stock is required', 'Stock must be a whole number', (n) =>
    n.int('Stock must be a whole number').min(0, 'Stock must be 0 or more').max(1_000_000, 'Must be at most 1,000,000'),
  ),
});

export const productInputSchema = z
  .object({
    name: requiredText('Product name is required', 200),
    sku: requiredText('SKU is required', 64),
    description: requiredText('Description is required', 20_000),
    brandId: requiredId('Brand is required'),
    categoryId: requiredId('Category is required'),
    subcategoryId: requiredId('Subcategory is required'),
    specifications: specificationsSchema,
    price: money('Price is required'),
    discountPrice: z.preprocess(emptyToUndefined, money(null).optional()),
    stockQuantity: numeric('Stock quantity is required', 'Stock must be a whole number', (n) =>
      n
        .int('Stock must be a whole number')
        .min(0, 'Stock quantity must be 0 or more')
        .max(1_000_000, 'Must be at most 1,000,000'),
    ),
    weight: z.preprocess(
      emptyToUndefined,
      numeric('Weight must be a number', 'Weight must be a number', (n) =>
        n.min(0, 'Weight must be 0 or more').max(10_000, 'Must be at most 10,000 kg'),
      ).optional(),
    ),
    dimensions: optionalText(100),
    warrantyPeriod: optionalText(100),
    tagLine: optionalText(200),
    isFeatured: z.boolean().default(false),
    isActive: z.boolean().default(true),
    variants: z.array(variantInputSchema).max(50, 'At most 50 variants').default([]),
    /** Spec §7: the form sends `images: []`; pictures go to POST /api/products/images. */
    images: z.array(z.unknown()).max(0, 'Upload pictures with POST /api/products/images').optional(),
  })
  .superRefine((input, context) => {
    if (input.discountPrice !== undefined && input.discountPrice >= input.price) {
      context.addIssue({
        code: 'custom',
        path: ['discountPrice'],
        message: 'The discount price must be below the price',
      });
    }
    const skus = new Set([input.sku.toLowerCase()]);
    input.variants.forEach((variant, index) => {
      if (skus.has(variant.sku.toLowerCase())) {
        context.addIssue({ code: 'custom', path: ['variants', index, 'sku'], message: 'Each SKU must be different' });
      }
      skus.add(variant.sku.toLowerCase());
    });
  })
  // Not 'ProductInput': the OpenAPI generator names the input form of 'Product' that way.
  .meta({ id: 'ProductBody' });
export type ProductInput = z.output<typeof productInputSchema>;

export const stockAdjustmentSchema = z
  .object({
    stockQuantity: z
      .number({ error: 'stockQuantity must be a whole number' })
      .int('stockQuantity must be a whole number')
      .min(0, 'Stock must be 0 or more')
      .max(1_000_000, 'Must be at most 1,000,000'),
  })
  .meta({ id: 'StockAdjustment' });

/**
 * The back office's stock box, typed as text: digits only (blank is not 0 — an emptied box
 * must not wipe a product's stock), then the API's own bounds.
 */
export const stockFormValueSchema = z
  .string({ error: 'Stock must be a whole number, 0 or more' })
  .trim()
  .regex(/^\d{1,7}$/, 'Stock must be a whole number, 0 or more')
  .transform(Number)
  .pipe(stockAdjustmentSchema.shape.stockQuantity);
