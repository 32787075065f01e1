/**
 * The shop's sitemaps (sitemaps.org protocol) and robots.txt. `/sitemap.xml` is a
 * sitemap index: one file for the static pages, categories, subcategories and
 * brands, then the products in chunks by id range of at most 50,000 — the
 * protocol's limit per file — so 100,000 products are three small, cacheable
 * files, each read with one index range scan, and a product's URL never moves
 * to another file when products are added.
 */
import { and, asc, eq, gt, lte, max, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { brands, categories, products, subcategories } from '../../db/schema.ts';

/** sitemaps.org: at most 50,000 URLs per sitemap file. */
export const SITEMAP_URL_LIMIT = 50_000;

/** Pages with fixed URLs worth indexing (spec §2); account, cart and checkout pages are left out. */
export const STATIC_SITEMAP_PATHS = [
  '/',
  '/products',
  '/featured',
  '/shop-by-brand',
  '/new-arrivals',
  '/deals',
  '/clearance',
  '/redemption',
  '/create-your-kit',
  '/shipping-info',
  '/contact',
  '/store-locations',
] as const;

/** Paths crawlers should not spend time on: the API, search results and private pages. */
export const ROBOTS_DISALLOWED_PATHS = [
  '/api/',
  '/search',
  '/cart',
  '/checkout',
  '/login',
  '/register',
  '/profile',
  '/orders',
  '/addresses',
  '/payment-methods',
  '/account-settings',
  '/preferences',
  '/membership',
  '/welcome',
] as const;

export interface SitemapEntry {
  /** Path on the shop, e.g. `/product/12`. */
  path: string;
  /** When it last changed, ISO 8601. */
  lastModified?: string;
}

export type SitemapFile = { kind: 'pages' } | { kind: 'products'; chunk: number };

export const PAGES_SITEMAP_PATH = '/sitemap/pages.xml';

export function productSitemapPath(chunk: number): string {
  return `/sitemap/products-${chunk}.xml`;
}

/** `pages.xml` or `products-N.xml` (N ≥ 1) → which file; anything else → null (a 404). */
export function parseSitemapFile(name: string): SitemapFile | null {
  if (name === 'pages.xml') return { kind: 'pages' };
  const match = /^products-([1-9]\d{0,5})\.xml$/.exec(name);
  return match ? { kind: 'products', chunk: Number(match[1]) } : null;
}

/* ---------------- XML and text rendering (pure) ---------------- */

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function entryXml(tag: 'url' | 'sitemap', origin: string, entry: SitemapEntry): string {
  const lastmod = entry.lastModified ? `<lastmod>${escapeXml(entry.lastModified)}</lastmod>` : '';
  return `<${tag}><loc>${escapeXml(origin + entry.path)}</loc>${lastmod}</${tag}>`;
}

/** A `<urlset>` sitemap; entries are joined once, so 50,000 of them stay a single cheap string build. */
export function renderUrlSet(origin: string, entries: SitemapEntry[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries
    .map((entry) => entryXml('url', origin, entry))
    .join('\n')}\n</urlset>\n`;
}

/** A `<sitemapindex>` pointing at each sitemap file. */
export function renderSitemapIndex(origin: string, entries: SitemapEntry[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries
    .map((entry) => entryXml('sitemap', origin, entry))
    .join('\n')}\n</sitemapindex>\n`;
}

/** robots.txt: everything open except ROBOTS_DISALLOWED_PATHS, and where the sitemap is. */
export function renderRobotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...ROBOTS_DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

/* ---------------- Queries ---------------- */

function iso(value: Date | string | null | undefined): string | undefined {
  return value ? new Date(value).toISOString() : undefined;
}

function latest(...values: (string | undefined)[]): string | undefined {
  return values
    .filter((value): value is string => value !== undefined)
    .sort()
    .at(-1);
}

/** The sitemap files that exist now: the pages file, then one per product id range holding active products. */
export async function listSitemapFiles(db: Database): Promise<SitemapEntry[]> {
  const chunkSql = sql<number>`((${products.id} - 1) / ${sql.raw(String(SITEMAP_URL_LIMIT))} + 1)::int`;
  const [categoryTimes, subcategoryTimes, brandTimes, productChunks] = await Promise.all([
    db.select({ at: max(categories.updatedAt) }).from(categories),
    db.select({ at: max(subcategories.updatedAt) }).from(subcategories),
    db.select({ at: max(brands.updatedAt) }).from(brands),
    db
      .select({ chunk: chunkSql, at: max(products.updatedAt) })
      .from(products)
      .where(eq(products.isActive, true))
      .groupBy(chunkSql)
      .orderBy(chunkSql),
  ]);
  return [
    {
      path: PAGES_SITEMAP_PATH,
      lastModified: latest(iso(categoryTimes[0]?.at), iso(subcategoryTimes[0]?.at), iso(brandTimes[0]?.at)),
    },
    ...productChunks.map((row) => ({ path: productSitemapPath(Number(row.chunk)), lastModified: iso(row.at) })),
  ];
}

/** Static pages, then every category, subcategory (at its canonical nested URL) and brand page. */
export async function listPageEntries(db: Database): Promise<SitemapEntry[]> {
  const [categoryRows, subcategoryRows, brandRows] = await Promise.all([
    db.select({ id: categories.id, at: categories.updatedAt }).from(categories).orderBy(asc(categories.id)),
    db
      .select({ id: subcategories.id, categoryId: subcategories.categoryId, at: subcategories.updatedAt })
      .from(subcategories)
      .orderBy(asc(subcategories.id)),
    db.select({ id: brands.id, at: brands.updatedAt }).from(brands).orderBy(asc(brands.id)),
  ]);
  return [
    ...STATIC_SITEMAP_PATHS.map((path) => ({ path })),
    ...categoryRows.map((row) => ({ path: `/category/${row.id}`, lastModified: iso(row.at) })),
    ...subcategoryRows.map((row) => ({
      path: `/category/${row.categoryId}/subcategory/${row.id}`,
      lastModified: iso(row.at),
    })),
    ...brandRows.map((row) => ({ path: `/brand/${row.id}`, lastModified: iso(row.at) })),
  ];
}

/**
 * Active products with ids in chunk N's range ((N−1)·50,000, N·50,000], at their
 * canonical `/product/:id` URL. Null when the chunk holds no active product (a 404).
 */
export async function listProductEntries(db: Database, chunk: number): Promise<SitemapEntry[] | null> {
  const rows = await db
    .select({ id: products.id, at: products.updatedAt })
    .from(products)
    .where(
      and(
        eq(products.isActive, true),
        gt(products.id, (chunk - 1) * SITEMAP_URL_LIMIT),
        lte(products.id, chunk * SITEMAP_URL_LIMIT),
      ),
    )
    .orderBy(asc(products.id));
  if (rows.length === 0) return null;
  return rows.map((row) => ({ path: `/product/${row.id}`, lastModified: iso(row.at) }));
}
