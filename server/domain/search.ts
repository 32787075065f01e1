import { type SQL, sql } from 'drizzle-orm';
import type { Product } from '../../contracts/catalog.ts';
import { centsToDollars, dollarsToCents } from '../../contracts/money.ts';
import {
  type Facet,
  MAX_SUGGESTIONS,
  type SearchQuery,
  type SearchResponse,
  type SearchResult,
  type SearchSort,
  type Suggestion,
} from '../../contracts/search.ts';
import { MIN_SUGGESTION_TERM_LENGTH } from '../../contracts/search-links.ts';
import { stockStatusOf } from '../../contracts/stock.ts';
import type { Database } from '../../db/client.ts';
import {
  buildMatch,
  buildTsQuery,
  chooseCorrection,
  compactModelNumber,
  maxEditsFor,
  tokenize,
} from './search-terms.ts';

/*
 * Search runs on PostgreSQL full-text search over `product_search`, one narrow row per
 * product the database keeps (migration 0004): `document` (every word, for matching),
 * `codes` (model numbers and SKUs, joined), and `title` (name A; brand, category and
 * subcategory B; tag line C; for ranking and suggestions), each with a GIN index. A search
 * is one statement for the total and the facet counts, and one per relevance tier for the
 * page (usually one). Typos are corrected against `search_words` (the catalogue's
 * vocabulary) only after a search found nothing, so the common path never pays for fuzzy
 * matching.
 */

/** Brands and categories shown at most in the dropdown, so products always get room. */
const MAX_NAMED_SUGGESTIONS = 4;
/** Popular matches the dropdown ranks by relevance; walking further would cost time, not quality. */
const SUGGESTION_CANDIDATES = 50;
export const CLOSEST_MATCHES_LIMIT = 8;

async function rows<T>(db: Database, statement: SQL): Promise<T[]> {
  const result = (await db.execute(statement)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/** `to_tsquery` written out in each place (not in a CTE) so the planner sees the constant and its selectivity. */
function tsQuery(text: string): SQL {
  return sql`to_tsquery('english'::regconfig, ${text})`;
}

/* ---------------- Autocomplete ---------------- */

interface SuggestionRow {
  type: Suggestion['type'];
  value: string;
  category: string;
  reference_id: number;
  score: number;
  /** Brands (0) before categories (1) before products (2) at equal score. */
  kind: number;
  is_featured: boolean;
  review_count: number;
}

/** Model-number searches against `codes` use the 'simple' configuration: codes are not English words. */
function codeQuery(text: string): SQL {
  return sql`to_tsquery('simple'::regconfig, ${text})`;
}

/** Best first: score, then brands and categories before products, then best-known products, then A–Z. */
function bySuggestionRank(a: SuggestionRow, b: SuggestionRow): number {
  return (
    Number(b.score) - Number(a.score) ||
    a.kind - b.kind ||
    Number(b.is_featured) - Number(a.is_featured) ||
    b.review_count - a.review_count ||
    a.value.localeCompare(b.value, 'en-AU')
  );
}

/**
 * Products for the dropdown: the best-known matches, ranked by how well their title
 * matches (an exact model number first). `featured` picks the featured products (a small
 * partial index, so a broad prefix such as "dr" stays cheap) or the others.
 */
function productSuggestionsSql(tokens: readonly string[], match: SQL, featured: boolean | null): SQL {
  const named = buildTsQuery(tokens, { prefixLast: true, weights: 'AB' });
  const code = compactModelNumber(tokens);
  const codeBoost = code ? sql`case when c.codes @@ ${codeQuery(code)} then 20 else 0 end` : sql`0`;
  const subset = featured === null ? sql`` : featured ? sql`and s.is_featured` : sql`and not s.is_featured`;
  return sql`
    select 'Product'::text as type, p.name as value, cat.name as category, c.product_id as reference_id,
           ts_rank(c.title, ${tsQuery(named)}) + ${codeBoost} as score, 2 as kind, c.is_featured, c.review_count
    from (
      select s.product_id, s.category_id, s.title, s.codes, s.is_featured, s.review_count
      from product_search s
      where s.is_active ${subset} and ${match}
      order by s.is_featured desc nulls last, s.review_count desc nulls last, s.product_id
      limit ${SUGGESTION_CANDIDATES}
    ) c
    join products p on p.id = c.product_id
    join categories cat on cat.id = c.category_id`;
}

/**
 * Suggestions for the words as typed. `by: 'title'` matches brand and category names, and
 * product names, brands, categories and subcategories (never descriptions); `by: 'codes'`
 * matches the whole term as the start of a model number or SKU written without
 * punctuation ("vxhd8").
 */
async function findSuggestions(db: Database, tokens: readonly string[], by: 'title' | 'codes'): Promise<Suggestion[]> {
  let found: SuggestionRow[];
  if (by === 'codes') {
    const match = sql`s.codes @@ ${codeQuery(`'${tokens.join('')}':*`)}`;
    found = await rows<SuggestionRow>(db, productSuggestionsSql(tokens, match, null));
  } else {
    const match = sql`s.title @@ ${tsQuery(buildTsQuery(tokens, { prefixLast: true, weights: 'AB' }))}`;
    const anyField = tsQuery(buildTsQuery(tokens, { prefixLast: true }));
    // One statement: brands and categories, the featured products, and only when those do
    // not fill the list (a one-time filter, so the larger scan is skipped otherwise) the rest.
    found = await rows<SuggestionRow>(
      db,
      sql`
        with featured as materialized (${productSuggestionsSql(tokens, match, true)})
        select * from (
          select s.type, s.value, s.type as category, s.reference_id, 10 + ts_rank(s.document, ${anyField}) as score,
                 case s.type when 'Brand' then 0 else 1 end as kind, false as is_featured, 0 as review_count
          from search_suggestions s
          where s.document @@ ${anyField}
          order by score desc, s.value
          limit ${MAX_NAMED_SUGGESTIONS}
        ) named
        union all
        select * from featured
        union all
        select * from (${productSuggestionsSql(tokens, match, false)}) others
        where (select count(*) from featured) < ${MAX_SUGGESTIONS}`,
    );
  }
  return found
    .sort(bySuggestionRank)
    .slice(0, MAX_SUGGESTIONS)
    .map((row) => ({ type: row.type, value: row.value, category: row.category, referenceId: row.reference_id }));
}

/**
 * Up to 10 suggestions for what a shopper is typing, best first: brands and categories
 * whose names match, then products (exact model numbers first). The last word counts as
 * unfinished. Below 2 characters, or nothing to match, an empty list. When the words find
 * nothing, the term is tried as the start of a model number, then misspelt words are
 * corrected.
 */
export async function autocomplete(db: Database, term: string): Promise<Suggestion[]> {
  if (term.trim().length < MIN_SUGGESTION_TERM_LENGTH) return [];
  const typed = tokenize(term);
  // A lone letter just typed after a word ("safety b") narrows little and would expand over
  // every word starting with it: suggest for the words before it until it grows.
  const last = typed.at(-1) ?? '';
  const tokens = typed.length > 1 && last.length === 1 && !/\d/.test(last) ? typed.slice(0, -1) : typed;
  if (tokens.length === 0) return [];
  const suggestions = await findSuggestions(db, tokens, 'title');
  if (suggestions.length > 0) return suggestions;
  // Only a term that can be a model number ("vxhd8", "hd 8") is tried as one.
  if (compactModelNumber(tokens) || (tokens.join('').length >= 3 && tokens.every((token) => token.length <= 4))) {
    const byCode = await findSuggestions(db, tokens, 'codes');
    if (byCode.length > 0) return byCode;
  }
  const corrected = await correctTokens(db, tokens, { prefixLast: true });
  return corrected ? findSuggestions(db, corrected, 'title') : [];
}

/* ---------------- Typo correction ---------------- */

/**
 * Replaces each word the catalogue's vocabulary does not know with its nearest word (one
 * edit for short words, two for longer ones); the last word may be unfinished. Words with
 * digits are model numbers and are never "corrected". Null when nothing was corrected.
 * Called only after a search found nothing, so the common path never pays for it.
 */
export async function correctTokens(
  db: Database,
  tokens: readonly string[],
  options: { prefixLast: boolean },
): Promise<string[] | null> {
  const checks = tokens.map((token, index) => ({
    token,
    prefix: options.prefixLast && index === tokens.length - 1,
  }));
  const checkable = checks.filter((check) => maxEditsFor(check.token) > 0 && !/\d/.test(check.token));
  if (checkable.length === 0) return null;

  // The vocabulary is a few thousand words: one query fetches, for every word, the words it
  // may have meant, closest first, which also shows whether it is known.
  const found = await rows<{ token: string; word: string }>(
    db,
    sql.join(
      checkable.map(
        ({ token }) => sql`(select ${token}::text as token, word from search_words
          where word % ${token} or word like ${`${token.slice(0, 2)}%`}
          order by similarity(word, ${token}) desc, word
          limit 200)`,
      ),
      sql` union all `,
    ),
  );
  const replacements = new Map<string, string>();
  for (const check of checkable) {
    const candidates = found.filter((row) => row.token === check.token).map((row) => row.word);
    const known = candidates.some((word) => word === check.token || (check.prefix && word.startsWith(check.token)));
    if (known) continue;
    // A word no product uses any more (the vocabulary only grows) simply finds nothing when searched.
    const choice = chooseCorrection(check.token, candidates, { prefix: check.prefix });
    if (choice) replacements.set(check.token, choice);
  }
  if (replacements.size === 0) return null;
  return tokens.map((token) => replacements.get(token) ?? token);
}

/* ---------------- Search results ---------------- */

const averageRating = sql`case when p.review_count = 0 then 0 else round(p.rating_total::numeric / p.review_count, 1) end`;

/**
 * Best known first: featured products, then the most reviewed. Written as the popularity
 * index is built (NULLS LAST), so a broad search can walk the index and stop after a page.
 */
const POPULARITY_ORDER = sql`s.is_featured desc nulls last, s.review_count desc nulls last, s.product_id`;

/** Orders over product_search (alias s); each ends on the id, so pages never overlap. */
const ORDERS: Record<Exclude<SearchSort, 'relevance'>, SQL> = {
  // The same "featured" as the catalogue listings: featured first, then the most reviewed.
  featured: POPULARITY_ORDER,
  price_asc: sql`s.effective_price_cents, s.product_id`,
  price_desc: sql`s.effective_price_cents desc, s.product_id desc`,
  name_asc: sql`s.sort_name, s.product_id`,
  name_desc: sql`s.sort_name desc, s.product_id desc`,
};

interface ResultRow {
  id: number;
  name: string;
  sku: string;
  description: string;
  specifications: Record<string, string>;
  price_cents: number;
  discount_price_cents: number | null;
  stock_quantity: number;
  brand_id: number;
  brand: string;
  category_id: number;
  category: string;
  subcategory_id: number;
  subcategory: string;
  tag_line: string | null;
  is_featured: boolean;
  is_redemption: boolean;
  points_cost: number | null;
  is_clearance: boolean;
  is_active: boolean;
  average_rating: string | number;
  review_count: number;
  weight_grams: number | null;
  dimensions: string | null;
  warranty_period: string | null;
  created_at: string;
  updated_at: string;
  image_url: string | null;
}

interface CountRow {
  /** 1: one category, 2: one brand, 3: everything (see grouping() in the query). */
  level: number;
  id: number | null;
  name: string | null;
  all_matches: number;
  brand_ok: number;
  category_ok: number;
  both_ok: number;
}

interface Attempt {
  /** Products matching the words and price range, before the category and brand choice. */
  matchedTotal: number;
  totalCount: number;
  categories: Facet[];
  brands: Facet[];
  products: Product[];
}

/** The same product shape the catalogue API and the product cards use. */
function toProduct(row: ResultRow): Product {
  const rating = Number(row.average_rating);
  return {
    id: row.id,
    name: row.name,
    sku: row.sku || `PRD-${row.id}`,
    description: row.description,
    specifications: row.specifications,
    price: centsToDollars(row.price_cents),
    discountPrice: row.discount_price_cents === null ? null : centsToDollars(row.discount_price_cents),
    stockQuantity: row.stock_quantity,
    brandId: row.brand_id,
    brandName: row.brand,
    categoryId: row.category_id,
    categoryName: row.category,
    subcategoryId: row.subcategory_id,
    subcategoryName: row.subcategory,
    tagLine: row.tag_line,
    isFeatured: row.is_featured,
    isRedemption: row.is_redemption,
    pointsCost: row.points_cost ?? null,
    isClearance: row.is_clearance,
    isActive: row.is_active,
    averageRating: rating,
    rating,
    reviewCount: row.review_count,
    imageUrl: row.image_url,
    images: row.image_url ? [{ imageUrl: row.image_url, isPrimary: true }] : [],
    weightKg: row.weight_grams === null ? null : row.weight_grams / 1000,
    dimensions: row.dimensions,
    warrantyPeriod: row.warranty_period,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** A product as a search result (spec §3 "Search response"). */
export function toSearchResult(product: Product): SearchResult {
  return {
    id: product.id,
    name: product.name,
    price: product.price,
    discountPrice: product.discountPrice,
    imageUrl: product.imageUrl,
    brand: product.brandName,
    brandId: product.brandId,
    stockStatus: stockStatusOf(product.stockQuantity),
    SKU: product.sku,
    category: product.categoryName,
    categoryId: product.categoryId,
    isFeatured: product.isFeatured,
    stockQuantity: product.stockQuantity,
    averageRating: product.averageRating,
    reviewCount: product.reviewCount,
  };
}

/** A selected facet stays listed (with 0) so the shopper can always untick it. */
function withSelected(facets: Facet[], selected: Facet | null): Facet[] {
  if (!selected || facets.some((facet) => facet.id === selected.id)) return facets;
  return [...facets, selected];
}

/** Most products first, then by name. */
function byCount(a: Facet, b: Facet): number {
  return b.productCount - a.productCount || a.name.localeCompare(b.name, 'en-AU');
}

interface AttemptOptions {
  tokens: readonly string[];
  prefixLast: boolean;
  anyWord?: boolean;
  /** Leave the category, brand and price choice out (for closest matches). */
  ignoreFilters?: boolean;
}

/**
 * Which products a term matches: every plain word in the product's words, and each
 * possible model number either as words or joined among its codes (see buildMatch).
 * With `anyWord`, a product matching any one of them is enough.
 */
function matchCondition(tokens: readonly string[], options: { prefixLast: boolean; anyWord?: boolean }): SQL {
  if (options.anyWord) {
    const anyText = buildTsQuery(tokens, { prefixLast: options.prefixLast, anyWord: true });
    const codes = buildMatch(tokens, options).codeGroups.map((group) => sql`s.codes @@ ${codeQuery(group.code)}`);
    return sql`(${sql.join([sql`s.document @@ ${tsQuery(anyText)}`, ...codes], sql` or `)})`;
  }
  const match = buildMatch(tokens, options);
  const parts: SQL[] = [];
  if (match.words) parts.push(sql`s.document @@ ${tsQuery(match.words)}`);
  for (const group of match.codeGroups) {
    parts.push(sql`(s.document @@ ${tsQuery(group.words)} or s.codes @@ ${codeQuery(group.code)})`);
  }
  return sql`(${sql.join(parts, sql` and `)})`;
}

/** One page of products in the given order, with everything a product card shows, in one statement. */
async function loadPage(db: Database, where: SQL, order: SQL, limit: number, offset: number): Promise<Product[]> {
  if (limit <= 0) return [];
  const [row] = await rows<{ results: ResultRow[] | null }>(
    db,
    sql`
      with page as (
        select s.product_id as id, row_number() over (order by ${order}) as position
        from (
          select s.product_id, s.is_featured, s.review_count, s.effective_price_cents, s.sort_name
          from product_search s
          where ${where}
          order by ${order}
          limit ${limit} offset ${offset}
        ) s
      )
      select json_agg(json_build_object(
               'id', p.id, 'name', p.name, 'sku', p.sku, 'description', p.description,
               'specifications', p.specifications, 'price_cents', p.price_cents,
               'discount_price_cents', p.discount_price_cents, 'stock_quantity', p.stock_quantity,
               'brand_id', b.id, 'brand', b.name, 'category_id', c.id, 'category', c.name,
               'subcategory_id', sc.id, 'subcategory', sc.name, 'tag_line', p.tag_line,
               'is_featured', p.is_featured, 'is_redemption', p.is_redemption, 'points_cost', p.points_cost,
               'is_clearance', p.is_clearance, 'is_active', p.is_active,
               'average_rating', ${averageRating}, 'review_count', p.review_count,
               'weight_grams', p.weight_grams, 'dimensions', p.dimensions,
               'warranty_period', p.warranty_period, 'created_at', p.created_at, 'updated_at', p.updated_at,
               'image_url', (select i.image_url from product_images i where i.product_id = p.id
                             order by i.is_primary desc, i.sort_order limit 1))
             order by page.position) as results
      from page
      join products p on p.id = page.id
      join brands b on b.id = p.brand_id
      join subcategories sc on sc.id = p.subcategory_id
      join categories c on c.id = p.category_id`,
  );
  return (row?.results ?? []).map(toProduct);
}

/**
 * The matching products' counts and one page of them. Counts are one pass: per category
 * (with the brand choice), per brand (with the category choice) and the totals, so
 * ticking a facet shows exactly its count.
 *
 * Ranking by relevance reads only the products whose title (name, brand, category,
 * subcategory, tag line) or model number matches: they come first, best first; products
 * that match through their description alone follow, best known first. So a broad word
 * found in thousands of descriptions costs a count, not a ranking of every match.
 */
async function runSearch(db: Database, query: SearchQuery, options: AttemptOptions): Promise<Attempt> {
  const filters: Partial<Pick<SearchQuery, 'categoryId' | 'brandId' | 'minPrice' | 'maxPrice'>> = options.ignoreFilters
    ? {}
    : query;
  const matching: SQL[] = [sql`s.is_active`];
  if (options.tokens.length > 0) matching.push(matchCondition(options.tokens, options));
  if (filters.minPrice !== undefined) {
    matching.push(sql`s.effective_price_cents >= ${dollarsToCents(filters.minPrice)}`);
  }
  if (filters.maxPrice !== undefined) {
    matching.push(sql`s.effective_price_cents <= ${dollarsToCents(filters.maxPrice)}`);
  }
  const where = sql.join(matching, sql` and `);
  const byCategory = filters.categoryId === undefined ? sql`true` : sql`s.category_id = ${filters.categoryId}`;
  const byBrand = filters.brandId === undefined ? sql`true` : sql`s.brand_id = ${filters.brandId}`;

  const counts = await rows<CountRow>(
    db,
    sql`
      with counts as (
        select s.category_id, s.brand_id, grouping(s.category_id, s.brand_id) as level,
               count(*)::int as all_matches,
               (count(*) filter (where ${byBrand}))::int as brand_ok,
               (count(*) filter (where ${byCategory}))::int as category_ok,
               (count(*) filter (where ${byCategory} and ${byBrand}))::int as both_ok
        from product_search s
        where ${where}
        group by grouping sets ((s.category_id), (s.brand_id), ())
      )
      select k.level, coalesce(k.category_id, k.brand_id) as id, coalesce(c.name, b.name) as name,
             k.all_matches, k.brand_ok, k.category_ok, k.both_ok
      from counts k
      left join categories c on k.level = 1 and c.id = k.category_id
      left join brands b on k.level = 2 and b.id = k.brand_id`,
  );
  const totals = counts.find((row) => row.level === 3);
  const matchedTotal = totals?.all_matches ?? 0;
  const totalCount = totals?.both_ok ?? 0;
  const categories = counts
    .filter((row) => row.level === 1 && row.brand_ok > 0)
    .map((row) => ({ id: row.id!, name: row.name!, productCount: row.brand_ok }))
    .sort(byCount);
  const brands = counts
    .filter((row) => row.level === 2 && row.category_ok > 0)
    .map((row) => ({ id: row.id!, name: row.name!, productCount: row.category_ok }))
    .sort(byCount);

  const selected = await selectedFacets(db, filters, categories, brands);
  const offset = (query.page - 1) * query.pageSize;
  let products: Product[] = [];
  if (offset < totalCount) {
    const pageWhere = sql`${where} and ${byCategory} and ${byBrand}`;
    products = await loadResults(db, query, options, pageWhere, offset, totalCount);
  }
  return {
    matchedTotal,
    totalCount,
    categories: withSelected(categories, selected.category),
    brands: withSelected(brands, selected.brand),
    products,
  };
}

/** Names of a ticked category or brand that no longer has matches, so it can still be unticked. */
async function selectedFacets(
  db: Database,
  filters: Partial<Pick<SearchQuery, 'categoryId' | 'brandId'>>,
  categories: Facet[],
  brands: Facet[],
): Promise<{ category: Facet | null; brand: Facet | null }> {
  const missingCategory =
    filters.categoryId !== undefined && !categories.some((facet) => facet.id === filters.categoryId);
  const missingBrand = filters.brandId !== undefined && !brands.some((facet) => facet.id === filters.brandId);
  if (!missingCategory && !missingBrand) return { category: null, brand: null };
  const [row] = await rows<{ category: string | null; brand: string | null }>(
    db,
    sql`select
          ${missingCategory ? sql`(select name from categories where id = ${filters.categoryId})` : sql`null::text`} as category,
          ${missingBrand ? sql`(select name from brands where id = ${filters.brandId})` : sql`null::text`} as brand`,
  );
  return {
    category:
      missingCategory && row?.category ? { id: filters.categoryId!, name: row.category, productCount: 0 } : null,
    brand: missingBrand && row?.brand ? { id: filters.brandId!, name: row.brand, productCount: 0 } : null,
  };
}

/**
 * Relevance as tiers, best first, each in popularity order: the exact model number or SKU;
 * every word in the name; every word somewhere in the title (brand, category, subcategory,
 * tag line); the rest (words found in descriptions). Like the attribute ranking of the
 * hosted search engines, it never scores each match, so a word found in thousands of
 * products costs an index walk that stops after one page.
 */
function relevanceTiers(options: AttemptOptions): SQL[] {
  const tiers: SQL[] = [];
  const code = compactModelNumber(options.tokens);
  if (code) tiers.push(sql`s.codes @@ ${codeQuery(code)}`);
  const words = { prefixLast: options.prefixLast, anyWord: options.anyWord };
  tiers.push(sql`s.title @@ ${tsQuery(buildTsQuery(options.tokens, { ...words, weights: 'A' }))}`);
  tiers.push(sql`s.title @@ ${tsQuery(buildTsQuery(options.tokens, words))}`);
  return tiers;
}

/** The page of products for a search whose total is known to reach past `offset`. */
async function loadResults(
  db: Database,
  query: SearchQuery,
  options: AttemptOptions,
  where: SQL,
  offset: number,
  totalCount: number,
): Promise<Product[]> {
  const { pageSize, sortBy } = query;
  if (sortBy !== 'relevance') return loadPage(db, where, ORDERS[sortBy], pageSize, offset);
  // No words: the best-known products first.
  if (options.tokens.length === 0) return loadPage(db, where, POPULARITY_ORDER, pageSize, offset);

  const products: Product[] = [];
  let skip = offset;
  const earlier: SQL[] = [];
  // The last tier is "everything else the words match".
  for (const tier of [...relevanceTiers(options), sql`true`]) {
    const tierWhere = sql.join([where, tier, ...earlier.map((condition) => sql`not ${condition}`)], sql` and `);
    earlier.push(tier);
    const wanted = pageSize - products.length;
    const found = await loadPage(db, tierWhere, POPULARITY_ORDER, wanted, skip);
    products.push(...found);
    if (products.length === pageSize || offset + products.length >= totalCount) break;
    // This tier ran out: how many it holds says where the next one starts for this page.
    if (found.length > 0) {
      skip = 0;
    } else {
      const [row] = await rows<{ n: number }>(
        db,
        sql`select count(*)::int as n from product_search s where ${tierWhere}`,
      );
      skip = Math.max(0, skip - (row?.n ?? 0));
    }
  }
  return products;
}

/** What the results page needs: the API response, plus the page's products as full product cards. */
export interface SearchOutcome {
  response: SearchResponse;
  products: Product[];
  closestProducts: Product[];
}

/** The products an answer shows, whose stock it shows (its page, or its closest matches). */
export function productIdsOfOutcome(outcome: SearchOutcome): number[] {
  return [...outcome.products, ...outcome.closestProducts].map((product) => product.id);
}

/**
 * The answer with the stock `stock` gives (id → units), everything else as it was: the same
 * object when no product's stock moved, so what was made from it (its compressed JSON) is kept.
 * Search neither filters nor ranks by stock, so the page, totals and facets stand.
 */
export function restockOutcome(outcome: SearchOutcome, stock: ReadonlyMap<number, number>): SearchOutcome {
  const moved = (id: number, units: number) => {
    const now = stock.get(id);
    return now !== undefined && now !== units;
  };
  const restockProduct = (product: Product): Product =>
    moved(product.id, product.stockQuantity) ? { ...product, stockQuantity: stock.get(product.id)! } : product;
  const restockResult = (result: SearchResult): SearchResult => {
    if (!moved(result.id, result.stockQuantity)) return result;
    const stockQuantity = stock.get(result.id)!;
    return { ...result, stockQuantity, stockStatus: stockStatusOf(stockQuantity) };
  };
  const all = [...outcome.products, ...outcome.closestProducts];
  if (!all.some((product) => moved(product.id, product.stockQuantity))) return outcome;
  return {
    response: {
      ...outcome.response,
      results: outcome.response.results.map(restockResult),
      closestMatches: outcome.response.closestMatches.map(restockResult),
    },
    products: outcome.products.map(restockProduct),
    closestProducts: outcome.closestProducts.map(restockProduct),
  };
}

/**
 * The search results page (spec §2, §3): a page of products for the term and filters in
 * the chosen order, the total, and category and brand counts for the current query.
 *
 * The term is matched word by word (stemmed, so plurals meet singulars; model numbers with
 * or without punctuation). When it matches nothing as typed, the last word is read as
 * unfinished, then misspelt words are corrected (`correctedQuery` says so). When the
 * result is still empty, `closestMatches` offers the products nearest to the term: the
 * term without the filters, else products matching some of its words.
 */
export async function searchCatalogue(db: Database, query: SearchQuery): Promise<SearchOutcome> {
  return withSearchPlanner(db, (tx) => searchIn(tx, query));
}

/**
 * Runs a search's statements in one read transaction with two planner settings of its own:
 * product_search is only ever read through its indexes (a sequential scan of it goes
 * around PGlite's buffer cache and costs ten times a bitmap scan of the same rows), and no
 * JIT compilation (PostgreSQL compiles plans this size for ~100 ms, longer than they run).
 */
async function withSearchPlanner<T>(db: Database, work: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`);
    return work(tx as unknown as Database);
  });
}

async function searchIn(db: Database, query: SearchQuery): Promise<SearchOutcome> {
  const tokens = tokenize(query.term);
  let attempt = await runSearch(db, query, { tokens, prefixLast: false });
  let correctedQuery: string | null = null;
  let corrected: string[] | null = null;
  if (tokens.length > 0 && attempt.matchedTotal === 0) {
    attempt = await runSearch(db, query, { tokens, prefixLast: true });
    if (attempt.matchedTotal === 0) {
      corrected = await correctTokens(db, tokens, { prefixLast: true });
      if (corrected) {
        const retry = await runSearch(db, query, { tokens: corrected, prefixLast: false });
        if (retry.matchedTotal > 0) {
          attempt = retry;
          correctedQuery = corrected.join(' ');
        }
      }
    }
  }

  const closestProducts =
    tokens.length > 0 && attempt.totalCount === 0 ? await findClosestMatches(db, query, corrected ?? tokens) : [];

  return {
    response: {
      query: query.term,
      correctedQuery,
      page: query.page,
      pageSize: query.pageSize,
      totalCount: attempt.totalCount,
      totalPages: Math.ceil(attempt.totalCount / query.pageSize),
      filters: { categories: attempt.categories, brands: attempt.brands },
      results: attempt.products.map(toSearchResult),
      closestMatches: closestProducts.map(toSearchResult),
    },
    products: attempt.products,
    closestProducts,
  };
}

/** GET /api/search: the spec's response shape. */
export async function search(db: Database, query: SearchQuery): Promise<SearchResponse> {
  return (await searchCatalogue(db, query)).response;
}

/** Nearest products to a term that found nothing: the term without filters, else any of its words. */
async function findClosestMatches(db: Database, query: SearchQuery, tokens: readonly string[]): Promise<Product[]> {
  const firstPage = { ...query, page: 1, pageSize: CLOSEST_MATCHES_LIMIT, sortBy: 'relevance' as const };
  const unfiltered = await runSearch(db, firstPage, { tokens, prefixLast: true, ignoreFilters: true });
  if (unfiltered.products.length > 0) return unfiltered.products;
  if (tokens.length < 2) return [];
  const someWords = await runSearch(db, firstPage, {
    tokens,
    prefixLast: true,
    anyWord: true,
    ignoreFilters: true,
  });
  return someWords.products;
}
