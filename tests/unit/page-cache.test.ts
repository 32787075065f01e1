import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createPageCache,
  EVENT_DRIVEN_TTL_FACTOR,
  inlineScriptHashes,
  plainBody,
  productIdOfPath,
} from '../../server/page-cache.ts';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function html(body: string): { status: number; headers: [string, string][]; body: Buffer } {
  return { status: 200, headers: [['content-type', 'text/html; charset=utf-8']], body: Buffer.from(body) };
}

describe('inlineScriptHashes', () => {
  it('hashes every inline script a browser runs, once each, and nothing else', () => {
    const page = [
      '<script nonce="abc">window.a = 1;</script>',
      '<script type="module" async="" nonce="abc">import("/assets/x.js");</script>',
      '<script src="/assets/entry.js" nonce="abc"></script>',
      '<script type="application/ld+json">{"@type":"Product"}</script>',
      '<script nonce="abc">window.a = 1;</script>',
      '<script>\n$RC("B:0","S:0")\n</script>',
    ].join('');
    expect(inlineScriptHashes(page).sort()).toEqual(
      [sha256('window.a = 1;'), sha256('import("/assets/x.js");'), sha256('\n$RC("B:0","S:0")\n')].sort(),
    );
  });

  it('gives one hash per distinct script text, whatever the texts are', () => {
    const scriptText = fc
      .string({
        maxLength: 40,
        unit: fc.oneof(fc.constantFrom('—', '’', 'é', '🔧', '$'), fc.string({ minLength: 1, maxLength: 1 })),
      })
      .filter((text) => !text.includes('</script'));
    fc.assert(
      fc.property(fc.array(scriptText, { maxLength: 8 }), (texts) => {
        const page = texts.map((text) => `<p>x</p><script nonce="n">${text}</script>`).join('');
        const hashes = inlineScriptHashes(page);
        expect(hashes.sort()).toEqual([...new Set(texts.map(sha256))].sort());
        // Read from the page's bytes (as latin1, one character a byte), the hashes are those of the UTF-8 texts.
        expect(inlineScriptHashes(Buffer.from(page)).sort()).toEqual(hashes);
      }),
    );
  });
});

describe('productIdOfPath', () => {
  it('finds the product of product pages, their data requests and the in-subcategory alias', () => {
    expect(productIdOfPath('/product/12')).toBe(12);
    expect(productIdOfPath('/product/12?tab=reviews')).toBe(12);
    expect(productIdOfPath('/product/12.data')).toBe(12);
    expect(productIdOfPath('/category/1/subcategory/3/product/77')).toBe(77);
    expect(productIdOfPath('/products')).toBeNull();
    expect(productIdOfPath('/product/12/reviews')).toBeNull();
    expect(productIdOfPath('/category/1')).toBeNull();
  });
});

describe('createPageCache', () => {
  it('keeps a page compressed both ways, with an ETag of its bytes, until the TTL', async () => {
    let time = 1_000;
    const cache = createPageCache({ maxBytes: 1_000_000, ttlMs: 10_000, now: () => time });
    const body = `<html><script nonce="n">go()</script>${'Cordless drill '.repeat(200)}</html>`;
    expect(cache.get('browser /')).toBeUndefined();
    const stored = await cache.store('browser /', cache.generation, html(body));
    expect(stored).not.toBeNull();
    // gzip is made when a client first needs it, then kept and counted against the cap.
    expect(stored!.gzip).toBeNull();
    const withoutGzip = cache.stats().bytes;
    const gzip = cache.gzipOf(stored!);
    expect(gunzipSync(gzip).toString()).toBe(body);
    expect(cache.gzipOf(stored!)).toBe(gzip);
    expect(cache.stats().bytes).toBe(withoutGzip + gzip.length);
    expect(plainBody(stored!).toString()).toBe(body);
    expect(stored!.br.length).toBeLessThan(body.length / 4);
    // Kept bytes hold only themselves (zlib hands out slices of a 64 kB chunk).
    expect(stored!.br.buffer.byteLength).toBe(stored!.br.length);
    expect(gzip.buffer.byteLength).toBe(gzip.length);
    expect(stored!.scriptHashes).toEqual([sha256('go()')]);
    expect(stored!.etag).toMatch(/^"[\w-]{32}"$/);
    expect(cache.get('browser /')).toEqual({ page: stored, stale: false });
    time += 9_999;
    expect(cache.get('browser /')).toEqual({ page: stored, stale: false });
    // Past the TTL it is still served, stale, while one refresh replaces it.
    time += 1;
    expect(cache.get('browser /')).toEqual({ page: stored, stale: true });
    expect(cache.claimRefresh('browser /')).toBe(true);
    expect(cache.claimRefresh('browser /')).toBe(false);
    cache.refreshDone('browser /');
    expect(cache.claimRefresh('browser /')).toBe(true);
    // Past twice the TTL (no one asked for it meanwhile) it is too old to serve at all.
    time += 10_000;
    expect(cache.get('browser /')).toBeUndefined();
    expect(cache.stats()).toMatchObject({ hits: 3, misses: 2 });
  });

  it('keeps product pages longer (every change to them drops them at once anyway); search pages live as listings do', async () => {
    let time = 0;
    const cache = createPageCache({ maxBytes: 1_000_000, ttlMs: 10_000, now: () => time });
    await cache.store('browser /product/3', cache.generation, html('<p>3</p>'));
    await cache.store('browser /search?term=saw', cache.generation, html('<p>saws</p>'));
    await cache.store('browser /category/1', cache.generation, html('<p>list</p>'));
    time = 10_000;
    expect(cache.get('browser /category/1')?.stale).toBe(true);
    expect(cache.get('browser /product/3')?.stale).toBe(false);
    // A stock change no longer drops search pages (issue 24), so their stock lines age as a listing's.
    expect(cache.get('browser /search?term=saw')?.stale).toBe(true);
    time = EVENT_DRIVEN_TTL_FACTOR * 10_000;
    expect(cache.get('browser /product/3')?.stale).toBe(true);
    expect(cache.get('browser /category/1')).toBeUndefined();
  });

  it("renews a stale page found unchanged, for a TTL at a time, up to the product pages' TTL after its render", async () => {
    let time = 0;
    const cache = createPageCache({ maxBytes: 1_000_000, ttlMs: 10_000, now: () => time });
    const shown = new Map([[4, 12]]);
    const page = await cache.store('browser /category/1', cache.generation, {
      ...html('<p>list</p>'),
      stockShown: shown,
    });
    expect(page!.stockShown).toBe(shown);
    for (time = 10_000; time < EVENT_DRIVEN_TTL_FACTOR * 10_000; time += 10_000) {
      expect(cache.get('browser /category/1')).toEqual({ page, stale: true });
      expect(cache.renew('browser /category/1', page!)).toBe(true);
      expect(cache.get('browser /category/1')).toEqual({ page, stale: false });
    }
    // Rendered six TTLs ago: rendered again, whatever the check found.
    expect(cache.get('browser /category/1')?.stale).toBe(true);
    expect(cache.renew('browser /category/1', page!)).toBe(false);
    expect(cache.get('browser /category/1')?.stale).toBe(true);
  });

  it('renews nothing that was replaced or dropped while it was checked', async () => {
    let time = 0;
    const cache = createPageCache({ maxBytes: 1_000_000, ttlMs: 10_000, now: () => time });
    const old = await cache.store('browser /category/1', cache.generation, html('<p>old</p>'));
    time = 10_000;
    const replacement = await cache.store('browser /category/1', cache.generation, html('<p>new</p>'));
    expect(cache.renew('browser /category/1', old!)).toBe(false);
    expect(cache.get('browser /category/1')?.page).toBe(replacement);
    cache.clear();
    expect(cache.renew('browser /category/1', replacement!)).toBe(false);
    expect(cache.get('browser /category/1')).toBeUndefined();
  });

  it('gives different bytes different ETags and the same bytes the same one', async () => {
    const cache = createPageCache({ maxBytes: 1_000_000, ttlMs: 10_000 });
    const a = await cache.store('browser /a', cache.generation, html('<p>$10.00</p>'));
    const b = await cache.store('browser /b', cache.generation, html('<p>$12.00</p>'));
    const c = await cache.store('browser /c', cache.generation, html('<p>$10.00</p>'));
    expect(a!.etag).not.toBe(b!.etag);
    expect(a!.etag).toBe(c!.etag);
  });

  it('refuses a page whose render began before the catalogue changed', async () => {
    const cache = createPageCache({ maxBytes: 1_000_000, ttlMs: 10_000 });
    const began = cache.generation;
    cache.clear();
    expect(await cache.store('browser /', began, html('<p>old price</p>'))).toBeNull();
    expect(cache.get('browser /')).toBeUndefined();
    expect(await cache.store('browser /', cache.generation, html('<p>new price</p>'))).not.toBeNull();
  });

  it("drops a product's own pages when its stock changes, and refuses them if rendered before; search results stay, as listings", async () => {
    const cache = createPageCache({ maxBytes: 1_000_000, ttlMs: 10_000 });
    await cache.store('browser /product/5', cache.generation, html('<p>5 left</p>'));
    await cache.store('browser /product/5.data', cache.generation, html('{}'));
    await cache.store('browser /product/6', cache.generation, html('<p>6</p>'));
    await cache.store('browser /category/1', cache.generation, html('<p>list</p>'));
    await cache.store('browser /search?term=drill', cache.generation, html('<p>5 left</p>'));
    await cache.store('bot /search.data?term=drill', cache.generation, html('{}'));
    await cache.store('browser /searchlight', cache.generation, html('<p>not a search</p>'));
    const began = cache.generation;
    cache.forgetProducts([5]);
    // Search results show stock as listings do, as old as the search API's may be (CATALOG_CACHE_SECONDS):
    // every order changes stock, and dropping every search page at each one kept none under the order mix.
    expect(cache.get('browser /search?term=drill')).toBeDefined();
    expect(cache.get('bot /search.data?term=drill')).toBeDefined();
    expect(cache.get('browser /searchlight')).toBeDefined();
    expect(await cache.store('browser /search?term=saw', began, html('<p>saws</p>'))).not.toBeNull();
    expect(cache.get('browser /product/5')).toBeUndefined();
    expect(cache.get('browser /product/5.data')).toBeUndefined();
    expect(cache.get('browser /product/6')).toBeDefined();
    expect(cache.get('browser /category/1')).toBeDefined();
    // A render of product 5 that started before the change is stale; others are not.
    expect(await cache.store('browser /product/5', began, html('<p>5 left</p>'))).toBeNull();
    expect(await cache.store('browser /product/7', began, html('<p>7</p>'))).not.toBeNull();
  });

  it('clears everything on a change of everything', async () => {
    const cache = createPageCache({ maxBytes: 1_000_000, ttlMs: 10_000 });
    await cache.store('browser /', cache.generation, html('<p>home</p>'));
    await cache.store('browser /product/1', cache.generation, html('<p>one</p>'));
    cache.clear();
    expect(cache.get('browser /')).toBeUndefined();
    expect(cache.get('browser /product/1')).toBeUndefined();
    expect(cache.stats().pages).toBe(0);
  });

  it('stays within its memory by dropping the least recently used pages', async () => {
    const cache = createPageCache({ maxBytes: 20_000, ttlMs: 10_000 });
    // Random bytes do not compress: each page costs about its own size twice.
    for (let index = 0; index < 10; index += 1) {
      const noise = createHash('sha512')
        .update(String(index))
        .digest('hex')
        .repeat(40)
        .split('')
        .map((char, position) => String.fromCharCode(33 + ((char.charCodeAt(0) * (position + 7) * 31) % 90)))
        .join('');
      await cache.store(`browser /page/${index}`, cache.generation, html(noise));
    }
    const { bytes, pages } = cache.stats();
    expect(bytes).toBeLessThanOrEqual(20_000);
    expect(pages).toBeGreaterThan(0);
    expect(pages).toBeLessThan(10);
    expect(cache.get('browser /page/9')).toBeDefined();
    expect(cache.get('browser /page/0')).toBeUndefined();
  });
});
