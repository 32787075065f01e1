import { z } from 'zod';
import { MAX_PRODUCT_PAGE } from './catalog.ts';
import { LISTING_SORTS, type ListingOptions, type ListingSort, type ListingState } from './listing.ts';
import { dollarAmountSchema, idSchema } from './params.ts';

/*
 * The one schema of a listing URL (spec §4 filters), shared by the page loaders and the
 * filter form. Browsers load it when a shopper starts using the filters, not with the page.
 */

const pageSchema = z
  .string()
  .regex(/^\d{1,9}$/, 'Must be a whole number')
  .transform(Number)
  .pipe(z.number().min(1, 'Must be 1 or more').max(MAX_PRODUCT_PAGE, `Must be at most ${MAX_PRODUCT_PAGE}`));

function listingSchema(options: { sorts: readonly ListingSort[] }) {
  return z
    .object({
      category: idSchema.optional(),
      brand: z.array(z.string().pipe(idSchema)).max(50, 'At most 50 brands'),
      minPrice: dollarAmountSchema.optional(),
      maxPrice: dollarAmountSchema.optional(),
      rating: z.enum(['1', '2', '3', '4'], { error: 'Must be 1, 2, 3 or 4' }).transform(Number).optional(),
      sort: z.enum(options.sorts as [ListingSort, ...ListingSort[]], {
        error: `Must be one of: ${options.sorts.join(', ')}`,
      }),
      page: pageSchema,
    })
    .refine((q) => q.minPrice === undefined || q.maxPrice === undefined || q.minPrice <= q.maxPrice, {
      path: ['maxPrice'],
      message: 'Max price must not be below min price',
    });
}

/**
 * Reads the raw URL values. The last value of a key wins, and an empty value means
 * "not set": the filter form sends the current rating in a hidden field before the
 * rating buttons, so the pressed button's value (or its empty "clear" value) comes last.
 */
function rawValues(params: URLSearchParams, defaultSort: ListingSort, withCategory: boolean) {
  const last = (key: string) => {
    const value = params.getAll(key).at(-1)?.trim();
    return value === '' ? undefined : value;
  };
  return {
    category: withCategory ? last('category') : undefined,
    brand: params
      .getAll('brand')
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter((value) => value !== ''),
    minPrice: last('minPrice'),
    maxPrice: last('maxPrice'),
    rating: last('rating'),
    sort: last('sort') ?? defaultSort,
    page: last('page') ?? '1',
  };
}

export type ListingParseResult =
  | { success: true; state: ListingState }
  | { success: false; message: string; errors: Record<string, string[]> };

/** URL search params → listing state, or the field errors a 400 answer names. */
export function parseListingSearch(params: URLSearchParams, options: ListingOptions = {}): ListingParseResult {
  const resolved = { sorts: options.sorts ?? LISTING_SORTS, defaultSort: options.defaultSort ?? 'featured' };
  const result = listingSchema(resolved).safeParse(
    rawValues(params, resolved.defaultSort, options.withCategory ?? false),
  );
  if (!result.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? 'query');
      errors[key] = [...(errors[key] ?? []), issue.message];
    }
    const fields = Object.keys(errors).join(', ');
    return { success: false, message: `Invalid filter: ${fields}`, errors };
  }
  const q = result.data;
  return {
    success: true,
    state: {
      categoryId: q.category,
      brandIds: [...new Set(q.brand)].sort((a, b) => a - b),
      minPrice: q.minPrice,
      maxPrice: q.maxPrice,
      rating: q.rating,
      sort: q.sort,
      page: q.page,
    },
  };
}
