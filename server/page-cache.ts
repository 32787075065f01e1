import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { ownBytes } from './own-bytes.ts';

const brotli = promisify(brotliCompress);

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
  /**
   * Made the first time a client that takes gzip but not br asks (see `gzipOf`): every
   * browser takes br, so most pages never need it (it was a tenth of a render's CPU).
   */
  gzip: Buffer | null;
  /** `'sha256-…'` sources for script-src, one per distinct inline script. */
  scriptHashes: string[];
  /** The product a product page shows, so a stock change drops just its pages. */
  productId: number | null;
  /**
   * The stock each product card on a listing showed (product id → stock), when the page said
   * which: past the TTL such a page is checked against the database and kept if no stock
   * line on it would read differently (see `renew`), rather than rendered again.
   */
  stockShown: ReadonlyMap<number, number> | null;
  /** When it was rendered, and when it was last rendered or found unchanged (the TTL counts from here). */
  renderedAt: number;
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

/**
 * Hash sources for every inline script a browser would run (not `src` scripts, not JSON data
 * blocks). Given the page's bytes, it reads them as latin1 (one character a byte, so the
 * markup matches as it would in UTF-8 and each script hashes to its own UTF-8 bytes): decoding
 * a 128 kB page as UTF-8 took 1.4 ms, a tenth of a listing's render.
 */
export function inlineScriptHashes(page: string | Buffer): string[] {
  const bytes = typeof page !== 'string';
  const html = bytes ? page.toString('latin1') : page;
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const attributes = match[1] ?? '';
    if (/\ssrc\s*=/i.test(attributes)) continue;
    if (/\stype\s*=\s*"?application\/(ld\+)?json/i.test(attributes)) continue;
    const digest = createHash('sha256')
      .update(match[2] ?? '', bytes ? 'latin1' : 'utf8')
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
  return brotliDecompressSync(page.br);
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
    sizeCalculation: (page) => page.br.length + (page.gzip?.length ?? 0) + 512,
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
      page: {
        status: number;
        headers: [string, string][];
        body: Buffer;
        /** The stock each product card showed, when the page knows (see `CachedPage.stockShown`). */
        stockShown?: ReadonlyMap<number, number> | null;
      },
    ): Promise<CachedPage | null> {
      const br = ownBytes(
        await brotli(page.body, {
          params: {
            // Quality 6: as small as 9 for a page this size (within 1 %) at a ninth of the time.
            [zlibConstants.BROTLI_PARAM_QUALITY]: 6,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: page.body.length,
          },
        }),
      );
      const storedAt = now();
      const stored: CachedPage = {
        key,
        status: page.status,
        headers: page.headers,
        etag: `"${createHash('sha256').update(page.body).digest('base64url').slice(0, 32)}"`,
        br,
        gzip: null,
        scriptHashes: inlineScriptHashes(page.body),
        productId: productIdOfPath(key.slice(key.indexOf(' ') + 1)),
        stockShown: page.stockShown ?? null,
        renderedAt: storedAt,
        storedAt,
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
    /**
     * A stale page found unchanged (every stock line on it reads as it did): served as fresh
     * for another TTL, unless it was rendered `EVENT_DRIVEN_TTL_FACTOR` TTLs ago (then it is
     * rendered again, as product pages are, so nothing on it ages without bound) or was
     * replaced or dropped meanwhile. True when it was renewed.
     */
    renew(key: string, page: CachedPage): boolean {
      if (pages.peek(key) !== page) return false;
      const at = now();
      if (at - page.renderedAt >= EVENT_DRIVEN_TTL_FACTOR * options.ttlMs) return false;
      page.storedAt = at;
      return true;
    },
    /**
     * The page gzipped (level 6: within 1 % of level 9's size at half its time), made the first
     * time a client needs it and kept with the page, its bytes counted against the cap.
     */
    gzipOf(page: CachedPage): Buffer {
      if (page.gzip) return page.gzip;
      const gzip = ownBytes(gzipSync(plainBody(page), { level: 6 }));
      page.gzip = gzip;
      if (pages.peek(page.key) === page) {
        // Set again so the cache counts the new bytes (setting the same value would not).
        pages.delete(page.key);
        pages.set(page.key, page);
      }
      return gzip;
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
