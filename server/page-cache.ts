import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, gunzipSync, gzip, constants as zlibConstants } from 'node:zlib';
import { LRUCache } from 'lru-cache';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * A page kept for every shopper (rendered for nobody): its body compressed both ways once (so a hit costs
 * no compression), the headers it went out with, its ETag, and the hashes of its inline
 * scripts. The body still carries the nonce of the render that made it; a cached page is
 * sent with a Content-Security-Policy that allows exactly these scripts by hash instead, so
 * every copy of it, a CDN's included, is the same bytes and a 304 can never pair an old
 * body with a new nonce.
 */
export interface CachedPage {
  key: string;
  status: number;
  /** Response headers as rendered (no Set-Cookie: a page that sets one is never kept). */
  headers: [string, string][];
  etag: string;
  br: Buffer;
  gzip: Buffer;
  /** `'sha256-…'` sources for script-src, one per distinct inline script. */
  scriptHashes: string[];
  /** The product a product page shows, so a stock change drops just its pages. */
  productId: number | null;
  storedAt: number;
}

export interface PageCacheOptions {
  /** Memory for compressed pages, in bytes (LRU beyond it). */
  maxBytes: number;
  /**
   * How long a page is served before it is rendered again (catalogue changes drop it at once);
   * for as long again it is served while one background render replaces it.
   */
  ttlMs: number;
  now?: () => number;
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;

/** Hash sources for every inline script a browser would run (not `src` scripts, not JSON data blocks). */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const attributes = match[1] ?? '';
    if (/\ssrc\s*=/i.test(attributes)) continue;
    if (/\stype\s*=\s*"?application\/(ld\+)?json/i.test(attributes)) continue;
    const digest = createHash('sha256')
      .update(match[2] ?? '')
      .digest('base64');
    hashes.add(`'sha256-${digest}'`);
  }
  return [...hashes];
}

/** `/product/12`, `/product/12.data` and the in-subcategory alias show product 12. */
export function productIdOfPath(path: string): number | null {
  const match = /\/product\/(\d+)(?:\.data)?(?:\?|$)/.exec(path);
  return match ? Number(match[1]) : null;
}

/** How many times the TTL product pages live, since every change to them drops them anyway. */
export const EVENT_DRIVEN_TTL_FACTOR = 6;

/** The body for a client that takes neither br nor gzip (rare: curl without --compressed). */
export function plainBody(page: CachedPage): Buffer {
  return gunzipSync(page.gzip);
}

/**
 * Rendered pages for anonymous shoppers, kept in memory by URL. A catalogue change clears
 * it (a stock change only the product's pages); a render that began before a change is
 * not kept, so a page never outlives the data it was made from.
 */
export function createPageCache(options: PageCacheOptions) {
  const now = options.now ?? Date.now;
  const pages = new LRUCache<string, CachedPage>({
    maxSize: Math.max(1, options.maxBytes),
    sizeCalculation: (page) => page.br.length + page.gzip.length + 512,
  });
  const byProduct = new Map<number, Set<string>>();
  // A counter of changes: a render notes it before it starts, and its page is kept only if
  // nothing it shows changed since (everything: `clearedAt`; its product: `productChangedAt`).
  let changes = 0;
  let clearedAt = 0;
  const productChangedAt = new Map<number, number>();
  const refreshing = new Set<string>();
  // Product pages are dropped by every change that shows on them, their stock included; their
  // TTL is only a safety net for writes made behind the domain's back. Listings and search
  // results show many products' stock lines, which a stock change does not drop: the TTL.
  const ttlOf = (page: CachedPage) =>
    page.productId !== null ? EVENT_DRIVEN_TTL_FACTOR * options.ttlMs : options.ttlMs;
  let hits = 0;
  let misses = 0;

  function forgetProduct(productId: number): void {
    for (const key of byProduct.get(productId) ?? []) pages.delete(key);
    byProduct.delete(productId);
  }

  return {
    /**
     * The page for `key`: fresh within the TTL; past it and up to twice it, still served but
     * `stale` (the caller has it rendered again in the background, once: see `claimRefresh`);
     * older, or none, undefined.
     */
    get(key: string): { page: CachedPage; stale: boolean } | undefined {
      const page = pages.get(key);
      const age = page ? now() - page.storedAt : Number.POSITIVE_INFINITY;
      const ttl = page ? ttlOf(page) : options.ttlMs;
      if (page && age < 2 * ttl) {
        hits += 1;
        return { page, stale: age >= ttl };
      }
      misses += 1;
      return undefined;
    },
    /** Whether `key` is kept and fresh, without counting a hit or a miss. */
    holdsFresh(key: string): boolean {
      const page = pages.peek(key);
      return page !== undefined && now() - page.storedAt < ttlOf(page);
    },
    /** True for the first caller that asks to refresh a stale `key`, until `refreshDone(key)`. */
    claimRefresh(key: string): boolean {
      if (refreshing.has(key)) return false;
      refreshing.add(key);
      return true;
    },
    refreshDone(key: string): void {
      refreshing.delete(key);
    },
    /** Taken before a render; `store` refuses the page if what it shows changed since. */
    get generation(): number {
      return changes;
    },
    /** Compresses and keeps a rendered page; null when the catalogue changed during the render. */
    async store(
      key: string,
      renderedAt: number,
      page: { status: number; headers: [string, string][]; body: Buffer },
    ): Promise<CachedPage | null> {
      const html = page.body.toString('utf8');
      const [br, gz] = await Promise.all([
        brotli(page.body, {
          params: {
            // Quality 6: as small as 9 for a page this size (within 1 %) at a ninth of the time.
            [zlibConstants.BROTLI_PARAM_QUALITY]: 6,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: page.body.length,
          },
        }),
        gzipAsync(page.body, { level: 9 }),
      ]);
      const stored: CachedPage = {
        key,
        status: page.status,
        headers: page.headers,
        etag: `"${createHash('sha256').update(page.body).digest('base64url').slice(0, 32)}"`,
        br,
        gzip: gz,
        scriptHashes: inlineScriptHashes(html),
        productId: productIdOfPath(key.slice(key.indexOf(' ') + 1)),
        storedAt: now(),
      };
      if (clearedAt > renderedAt) return null;
      if (stored.productId !== null && (productChangedAt.get(stored.productId) ?? 0) > renderedAt) return null;
      pages.set(key, stored);
      if (stored.productId !== null) {
        const keys = byProduct.get(stored.productId) ?? new Set();
        keys.add(key);
        byProduct.set(stored.productId, keys);
      }
      return stored;
    },
    /** Everything changed (prices, names, pictures, products): no page is kept. */
    clear(): void {
      changes += 1;
      clearedAt = changes;
      productChangedAt.clear();
      pages.clear();
      byProduct.clear();
    },
    /**
     * These products' stock changed: their own pages go at once; listings and search results
     * (whose answers keep stock up to the same TTL, issue 24) follow within the TTL.
     */
    forgetProducts(productIds: readonly number[]): void {
      changes += 1;
      for (const id of productIds) {
        productChangedAt.set(id, changes);
        forgetProduct(id);
      }
    },
    stats(): { pages: number; bytes: number; hits: number; misses: number } {
      return { pages: pages.size, bytes: pages.calculatedSize, hits, misses };
    },
  };
}

export type PageCache = ReturnType<typeof createPageCache>;
