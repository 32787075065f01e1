import { z } from 'zod';
import { dollarAmountSchema, idSchema } from './params.ts';
import { SEARCH_PAGE_SIZE } from './search-links.ts';
import { STOCK_STATUSES } from './stock.ts';

/* ---------- Limits (spec §5, §9) ---------- */

export const MAX_SUGGESTIONS = 10;
/** A search term longer than this is a paste accident or an attack, not a query. */
export const MAX_SEARCH_TERM_LENGTH = 100;
export const MAX_SEARCH_PAGE_SIZE = 100;
/** Deep pages of a relevance ranking are never read; the bound keeps OFFSET cheap. */
export const MAX_SEARCH_PAGE = 500;

export const SEARCH_SORTS = ['relevance', 'price_asc', 'price_desc', 'name_asc', 'name_desc', 'featured'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/* ---------- Requests ---------- */

const termSchema = z
  .string()
  .transform((value) => value.trim().replace(/\s+/g, ' '))
  .pipe(z.string().max(MAX_SEARCH_TERM_LENGTH, `Must be at most ${MAX_SEARCH_TERM_LENGTH} characters`));

export const autocompleteQuerySchema = z.object({
  term: termSchema.default(''),
});

const wholeNumber = (min: number, max: number, range: string) =>
  z.coerce.number({ error: 'Must be a whole number' }).int('Must be a whole number').min(min, range).max(max, range);

/**
 * GET /api/search and the /search page read the same parameters (spec §7). An empty
 * term lists every active product, so filters alone still browse the catalogue.
 */
export const searchQuerySchema = z
  .object({
    term: termSchema.default(''),
    page: wholeNumber(1, MAX_SEARCH_PAGE, `Must be between 1 and ${MAX_SEARCH_PAGE}`).default(1),
    pageSize: wholeNumber(1, MAX_SEARCH_PAGE_SIZE, `Must be between 1 and ${MAX_SEARCH_PAGE_SIZE}`).default(
      SEARCH_PAGE_SIZE,
    ),
    sortBy: z.enum(SEARCH_SORTS, { error: `Must be one of: ${SEARCH_SORTS.join(', ')}` }).default('relevance'),
    categoryId: idSchema.optional(),
    brandId: idSchema.optional(),
    minPrice: dollarAmountSchema.optional(),
    maxPrice: dollarAmountSchema.optional(),
  })
  .refine((q) => q.minPrice === undefined || q.maxPrice === undefined || q.minPrice <= q.maxPrice, {
    path: ['maxPrice'],
    message: 'Must not be below minPrice',
  });

export type AutocompleteQuery = z.output<typeof autocompleteQuerySchema>;
export type SearchQuery = z.output<typeof searchQuerySchema>;
/** What a caller may pass: defaults filled in by the schema are optional. */
export type SearchQueryInput = z.input<typeof searchQuerySchema>;

/* ---------- Responses (spec §3) ---------- */

export const SUGGESTION_TYPES = ['Product', 'Brand', 'Category'] as const;
export type SuggestionType = (typeof SUGGESTION_TYPES)[number];

export const suggestionSchema = z
  .object({
    type: z.enum(SUGGESTION_TYPES),
    value: z.string().describe('What the dropdown shows: the product, brand or category name'),
    category: z.string().describe("A product's category; 'Brand' or 'Category' for the others"),
    referenceId: z.number().int().describe('Id of the product, brand or category it opens'),
  })
  .meta({ id: 'SearchSuggestion' });

export const searchResultSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    price: z.number().describe('Regular price in dollars'),
    discountPrice: z.number().nullable().describe('Sale price in dollars, when discounted'),
    imageUrl: z.string().nullable(),
    brand: z.string().describe('Brand name'),
    brandId: z.number().int(),
    stockStatus: z.enum(STOCK_STATUSES),
    SKU: z.string(),
    category: z.string().describe('Category name'),
    categoryId: z.number().int(),
    isFeatured: z.boolean(),
    stockQuantity: z.number().int(),
    averageRating: z.number(),
    reviewCount: z.number().int(),
  })
  .meta({ id: 'SearchResult' });

export const facetSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  productCount: z.number().int().describe('Products matching the term and every other filter'),
});

export const searchResponseSchema = z
  .object({
    query: z.string().describe('The term as searched, trimmed'),
    correctedQuery: z
      .string()
      .nullable()
      .describe('When the term matched nothing and typos were corrected: the term actually searched'),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
    totalPages: z.number().int(),
    filters: z.object({
      categories: z.array(facetSchema),
      brands: z.array(facetSchema),
    }),
    results: z.array(searchResultSchema),
    closestMatches: z
      .array(searchResultSchema)
      .describe('Only when nothing matched: the products closest to the term (some of its words, or no filters)'),
  })
  .meta({ id: 'SearchResponse' });

export type Suggestion = z.infer<typeof suggestionSchema>;
export type SearchResult = z.infer<typeof searchResultSchema>;
export type Facet = z.infer<typeof facetSchema>;
export type SearchResponse = z.infer<typeof searchResponseSchema>;
