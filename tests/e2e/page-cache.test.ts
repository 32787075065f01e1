import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../contracts/account.ts';
import type { Product } from '../../contracts/catalog.ts';
import { PUBLIC_PAGE_CACHE_CONTROL } from '../../contracts/page-cache-headers.ts';
import { productInputSchema } from '../../contracts/product-admin.ts';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import { seedCatalogue } from '../../db/seed/seed-catalogue.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { EVENT_DRIVEN_TTL_FACTOR, inlineScriptHashes } from '../../server/page-cache.ts';
import { createScratchDatabase, isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/*
 * Issue 13: the page cache. Catalogue pages are rendered once per URL for nobody in particular
 * and served from memory to everyone, signed-in shoppers included (their page asks for its
 * account part itself); a cached page never carries one shopper's name, cart or prices to another. Runs the real app with the built storefront
 * through inject (the e2e project builds first), on PGlite, and on PostgreSQL with two app
 * processes for the invalidation that must reach every process within a second.
 */

const ADMIN_PASSWORD = 'Harbour-Page-Cache-42';
const PASSWORD = 'Page-Cache-Shopper-42';
const WITHIN_MS = 1_000;
let sequence = 0;

const price = (dollars: number) => `$${dollars.toFixed(2)}`;

async function get(app: FastifyInstance, url: string, headers: Record<string, string> = {}) {
  sequence += 1;
  return app.inject({
    method: 'GET',
    url,
    remoteAddress: `10.61.${Math.floor(sequence / 250) % 250}.${sequence % 250}`,
    headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0', ...headers },
  });
}

async function register(app: FastifyInstance, firstName: string): Promise<{ user: User; cookie: string }> {
  sequence += 1;
  const answer = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress: `10.62.0.${sequence % 250}`,
    payload: {
      firstName,
      lastName: 'Shopper',
      email: `page.cache.${firstName.toLowerCase()}.${sequence}@example.com`,
      password: PASSWORD,
      PhoneNumber: '0412 345 678',
      address: {
        addressLine1: '9 Cache Street',
        city: 'Hobart',
        state: 'TAS',
        postalCode: '7000',
        country: 'Australia',
      },
    },
  });
  expect(answer.statusCode, answer.body).toBe(201);
  // The Cookie header a browser would send back: the session and its readable hint.
  const setCookie = answer.headers['set-cookie'];
  const cookies = (Array.isArray(setCookie) ? setCookie : [String(setCookie)]).map((value) => value.split(';')[0]!);
  expect(cookies.map((cookie) => cookie.split('=')[0])).toEqual(['harbour_session', 'harbour_signed_in']);
  return { user: (answer.json() as { user: User }).user, cookie: cookies.join('; ') };
}

async function adminActor(app: FastifyInstance, email: string) {
  await app.services.accounts.ensureAdmin(email, ADMIN_PASSWORD);
  const signedIn = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: '10.63.0.1',
    payload: { email, password: ADMIN_PASSWORD },
  });
  expect(signedIn.statusCode).toBe(200);
  return { userId: (signedIn.json() as { user: User }).user.id, email };
}

/** Sets a product's price through the back office, as the owner would. */
async function setPrice(app: FastifyInstance, actor: { userId: number; email: string }, id: number, dollars: number) {
  const edit = await app.services.catalogAdmin.getProductForEdit(id);
  const input = productInputSchema.parse({ ...edit, images: [], price: dollars, discountPrice: null });
  await app.services.catalogAdmin.updateProduct(id, input, actor);
}

async function firstProduct(app: FastifyInstance): Promise<Product> {
  const answer = await get(app, '/api/products?limit=1&inStock=true');
  const [item] = (answer.json() as { items: Product[] }).items;
  if (!item) throw new Error('the catalogue has no product in stock');
  return item;
}

function cspOf(response: LightMyRequestResponse): string {
  return String(response.headers['content-security-policy'] ?? '');
}

describe('the page cache (PGlite)', () => {
  let shop: TestShop;
  let app: FastifyInstance;
  let product: Product;
  let actor: { userId: number; email: string };

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 80, storefront: true });
    app = shop.app;
    product = await firstProduct(app);
    actor = await adminActor(app, 'page.cache.owner@example.com');
  });

  afterAll(async () => {
    await shop?.close();
  });

  it('renders a signed-out page once and then answers from memory, byte for byte', async () => {
    const path = `/product/${product.id}`;
    const first = await get(app, path);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-page-cache']).toBe('MISS');
    const second = await get(app, path);
    expect(second.headers['x-page-cache']).toBe('HIT');
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(String(second.headers.vary)).toMatch(/Cookie/);
    expect(second.body).toContain(product.name.replace(/&/g, '&amp;'));
  });

  it('answers later hits with exactly the headers of the first, security headers included', async () => {
    const path = `/category/${product.categoryId}/subcategory/${product.subcategoryId}?sort=price_asc`;
    await get(app, path);
    const first = await get(app, path);
    const later = await get(app, path);
    expect(first.headers['x-page-cache']).toBe('HIT');
    expect(later.headers['x-page-cache']).toBe('HIT');
    const comparable = (headers: Record<string, unknown>) => {
      const { date: _date, 'x-request-id': _id, 'content-length': _length, ...rest } = headers;
      return rest;
    };
    expect(comparable(later.headers)).toEqual(comparable(first.headers));
    for (const name of ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'x-frame-options']) {
      expect(later.headers[name], name).toBeTruthy();
    }
    expect(later.headers['x-request-id']).toBeTruthy();
    expect(later.body).toBe(first.body);
    // A token that is no session's is a signed-out visitor: the same page, never an error.
    const unknownToken = await get(app, path, { authorization: 'Bearer not-a-real-token' });
    expect(unknownToken.statusCode).toBe(200);
    expect(unknownToken.body).toBe(first.body);
  });

  it('allows exactly the cached page’s inline scripts by hash, with no nonce left to reuse', async () => {
    const path = '/';
    await get(app, path);
    const hit = await get(app, path);
    expect(hit.headers['x-page-cache']).toBe('HIT');
    const scriptSrc = /script-src ([^;]*)/.exec(cspOf(hit))?.[1] ?? '';
    expect(scriptSrc).not.toContain('nonce-');
    expect(scriptSrc).not.toContain('unsafe-inline');
    const hashes = inlineScriptHashes(hit.body);
    expect(hashes.length).toBeGreaterThan(0);
    for (const hash of hashes) expect(scriptSrc).toContain(hash);
  });

  it('answers a matching If-None-Match with 304 and the same policy, and a stale one with the page', async () => {
    const path = `/category/${product.categoryId}`;
    const page = await get(app, path);
    expect(page.statusCode).toBe(200);
    const etag = String(page.headers.etag);
    const revalidated = await get(app, path, { 'if-none-match': etag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers.etag).toBe(etag);
    expect(cspOf(revalidated)).toBe(cspOf(page));
    const stale = await get(app, path, { 'if-none-match': '"not-this-one"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(page.body);
  });

  it('sends br, gzip or plain bytes as the client asks, all the same page', async () => {
    const path = `/category/${product.categoryId}/subcategory/${product.subcategoryId}`;
    const plain = await get(app, path, { 'accept-encoding': 'identity' });
    const brotli = await get(app, path, { 'accept-encoding': 'gzip, br' });
    const gzip = await get(app, path, { 'accept-encoding': 'gzip' });
    expect(brotli.headers['x-page-cache']).toBe('HIT');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('</html>');
    expect(brotli.headers.etag).toBe(plain.headers.etag);
  });

  it('keeps client-side navigation data too', async () => {
    const path = `/product/${product.id}.data`;
    await get(app, path);
    const hit = await get(app, path);
    expect(hit.statusCode).toBe(200);
    expect(hit.headers['x-page-cache']).toBe('HIT');
  });

  it("serves signed-in shoppers the shared page, which never carries one shopper's name or cart", async () => {
    const path = `/product/${product.id}`;
    const anonymous = await get(app, path);
    expect(anonymous.statusCode).toBe(200);
    const alice = await register(app, 'Alicepagecache');
    const bob = await register(app, 'Bobpagecache');
    // The document is the same bytes for everyone; the page asks for its account part itself.
    const asAlice = await get(app, path, { cookie: alice.cookie });
    expect(asAlice.statusCode).toBe(200);
    expect(asAlice.headers['x-page-cache']).toBe('HIT');
    expect(asAlice.headers['cache-control']).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    expect(asAlice.headers['set-cookie']).toBeUndefined();
    expect(asAlice.body).toBe(anonymous.body);
    const summary = await get(app, '/api/users/summary', { cookie: alice.cookie });
    expect(summary.json()).toMatchObject({ id: alice.user.id, name: alice.user.name });
    // A session that arrives without its hint could not ask for its account part: rendered for her, hint sent.
    const withoutHint = await get(app, path, { cookie: alice.cookie.split('; ')[0]! });
    expect(withoutHint.headers['x-page-cache']).toBeUndefined();
    expect(withoutHint.body).toContain('Alicepagecache');
    expect(String(withoutHint.headers['set-cookie'])).toMatch(/^harbour_signed_in=1;/);

    // Their data requests may carry the root loader's account: theirs alone, never kept.
    const data = await get(app, `${path}.data`, { cookie: alice.cookie });
    expect(data.headers['cache-control']).toBe('private, no-store');
    expect(data.headers['x-page-cache']).toBeUndefined();
    const rootData = await get(app, `${path}.data?_routes=root`, { cookie: alice.cookie });
    expect(rootData.body).toContain('Alicepagecache');
    expect(rootData.headers['x-page-cache']).toBeUndefined();
    // Nor kept: the first signed-out request for the same data is a miss, made for nobody.
    const rootDataSignedOut = await get(app, `${path}.data?_routes=root`);
    expect(rootDataSignedOut.headers['x-page-cache']).toBe('MISS');
    expect(rootDataSignedOut.body).not.toContain('Alicepagecache');

    // A page not yet kept is rendered for the shopper who asks (their name in it, private),
    // and a copy for nobody is made behind it, which everyone gets after.
    const others = (await get(app, '/api/products?limit=5&page=2')).json() as { items: Product[] };
    const other = others.items.find((item) => item.id !== product.id);
    const fresh = `/product/${other!.id}`;
    const firstAsAlice = await get(app, fresh, { cookie: alice.cookie });
    expect(firstAsAlice.statusCode).toBe(200);
    expect(firstAsAlice.headers['cache-control']).toBe('private, no-store');
    expect(firstAsAlice.headers['x-page-cache']).toBeUndefined();
    expect(firstAsAlice.body).toContain('Alicepagecache');
    let asBob = await get(app, fresh, { cookie: bob.cookie });
    for (let tries = 0; asBob.headers['x-page-cache'] !== 'HIT' && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      asBob = await get(app, fresh, { cookie: bob.cookie });
    }
    expect(asBob.headers['x-page-cache']).toBe('HIT');
    const signedOut = await get(app, fresh);
    expect(signedOut.headers['x-page-cache']).toBe('HIT');
    for (const page of [asAlice, asBob, signedOut]) {
      for (const name of ['Alicepagecache', 'Bobpagecache', alice.user.email, bob.user.email]) {
        expect(page.body).not.toContain(name);
      }
    }
    expect(asBob.body).toBe(signedOut.body);
  });

  it('leaves pages that are not the same for everyone out: cart, login, account pages', async () => {
    for (const path of ['/cart', '/login', '/register', '/contact-us-does-not-exist']) {
      await get(app, path);
      const again = await get(app, path);
      expect(again.headers['x-page-cache'], path).toBeUndefined();
      expect(String(again.headers['cache-control']), path).not.toContain('public');
    }
  });

  it('shows a new price at once after the owner changes it', async () => {
    const path = `/product/${product.id}`;
    const listing = `/category/${product.categoryId}/subcategory/${product.subcategoryId}`;
    await get(app, path);
    await get(app, listing);
    expect((await get(app, path)).headers['x-page-cache']).toBe('HIT');
    const newPrice = 234.56;
    await setPrice(app, actor, product.id, newPrice);
    const page = await get(app, path);
    expect(page.headers['x-page-cache']).toBe('MISS');
    expect(page.body).toContain(price(newPrice));
    expect((await get(app, listing)).headers['x-page-cache']).toBe('MISS');
  });

  it("drops a product's pages when another process announces its stock changed", async () => {
    const path = `/product/${product.id}`;
    await get(app, path);
    expect((await get(app, path)).headers['x-page-cache']).toBe('HIT');
    app.services.catalog.applyRemoteChange({ productIds: [product.id] });
    expect((await get(app, path)).headers['x-page-cache']).toBe('MISS');
  });

  it('does not keep a page drawn while one of its parts failed to load', async () => {
    const catalog = app.services.catalog;
    const original = catalog.listBrands;
    catalog.invalidate();
    catalog.listBrands = () => Promise.reject(new Error('connection refused (test)'));
    const errors = console.error;
    console.error = () => {};
    try {
      const broken = await get(app, '/');
      expect(broken.statusCode).toBe(200);
      expect(broken.body).toContain('Failed to fetch brands');
      expect(broken.headers['cache-control']).toBe('no-cache');
    } finally {
      catalog.listBrands = original;
      console.error = errors;
    }
    const mended = await get(app, '/');
    expect(mended.headers['x-page-cache']).toBe('MISS');
    expect(mended.body).not.toContain('Failed to fetch brands');
  });
});

describe('the page cache past its TTL', () => {
  let shop: TestShop;

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 20, storefront: true, env: { CATALOG_CACHE_SECONDS: '1' } });
  });

  afterAll(async () => {
    await shop?.close();
  });

  it('keeps answering from memory while one background render brings the page up to date', async () => {
    const { app, database } = shop;
    const product = await firstProduct(app);
    // A listing: the TTL is what brings its stock lines in (product pages are dropped by events).
    const path = `/category/${product.categoryId}/subcategory/${product.subcategoryId}`;
    const first = await get(app, path);
    expect(first.headers['x-page-cache']).toBe('MISS');
    expect(first.body).toContain(product.name.replace(/&/g, '&amp;'));
    // Renamed behind the app's back (no catalogue event): only the TTL can bring it in. A listing
    // whose stock lines still read the same is kept up to EVENT_DRIVEN_TTL_FACTOR TTLs after its
    // render (as product pages are), then rendered again whatever the check found.
    const renamed = `Renamed Behind The Cache ${Date.now()}`;
    await database.db.update(products).set({ name: renamed }).where(eq(products.id, product.id));
    const started = performance.now();
    let shown = false;
    while (!shown && performance.now() - started < EVENT_DRIVEN_TTL_FACTOR * 1_000 + 3_000) {
      const answer = await get(app, path);
      // Never a shopper waiting on a render: every answer comes from memory.
      expect(answer.headers['x-page-cache']).toBe('HIT');
      shown = answer.body.includes(renamed);
      if (!shown) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(shown, 'the page never showed the new name').toBe(true);
  });

  it('keeps a listing whose stock lines read the same past its TTL, and renders it again once one reads differently', async () => {
    const { app, database } = shop;
    const product = await firstProduct(app);
    await database.db.update(products).set({ stockQuantity: 40 }).where(eq(products.id, product.id));
    app.services.catalog.invalidate();
    const path = `/category/${product.categoryId}/subcategory/${product.subcategoryId}`;
    const rendered = await get(app, path);
    expect(rendered.body).toContain(product.name.replace(/&/g, '&amp;'));
    const etag = rendered.headers.etag;
    // Another unit sold elsewhere: the count changes, the line ("In stock") does not.
    await database.db.update(products).set({ stockQuantity: 39 }).where(eq(products.id, product.id));
    // Past the TTL (1 s) the stale page is served while it is checked, then kept: the same bytes
    // (a render would carry a new nonce, so a new ETag), fresh again.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await get(app, path)).headers.etag).toBe(etag);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await get(app, path)).headers.etag).toBe(etag);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await get(app, path)).headers.etag).toBe(etag);
    // Down to 3 behind the app's back (no event): its line now reads "Only 3 left".
    await database.db.update(products).set({ stockQuantity: 3 }).where(eq(products.id, product.id));
    const onlyThreeLeft = /Only (?:<!-- -->)?3(?:<!-- -->)? left/;
    const started = performance.now();
    let answer = await get(app, path);
    while (!onlyThreeLeft.test(answer.body) && performance.now() - started < 3_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await get(app, path);
    }
    expect(onlyThreeLeft.test(answer.body), 'the listing never showed the new stock line').toBe(true);
    expect(answer.headers.etag).not.toBe(etag);
    expect(answer.headers['x-page-cache']).toBe('HIT');
  });
});

const postgresAvailable = await isPostgresReachable();
if (!postgresAvailable) {
  console.warn('page-cache: the two-process test skipped, it needs PostgreSQL (LISTEN/NOTIFY between processes).');
}

describe.skipIf(!postgresAvailable)('the page cache in two app processes on one PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  const handles: DatabaseHandle[] = [];
  const apps: FastifyInstance[] = [];

  async function openApp(url: string): Promise<FastifyInstance> {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: '/tmp/harbour-tests-unused',
      DATABASE_URL: url,
    });
    const database = await openDatabase({ kind: 'postgres', url, maxConnections: 4 });
    handles.push(database);
    const app = await buildApp({
      config,
      database,
      logger: false,
      storefront: { mode: 'production', buildDir: config.buildDir },
    });
    await app.ready();
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    const setup = await openDatabase({ kind: 'postgres', url: scratch.url, maxConnections: 2 });
    try {
      await setup.migrate();
      await seedCatalogue(setup.db, { products: 40, mediaDir: null });
    } finally {
      await setup.close();
    }
    await openApp(scratch.url);
    await openApp(scratch.url);
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const handle of handles) await handle.close();
    await scratch?.drop();
  });

  it("a price changed through one process shows on the other's cached page within a second", async () => {
    const [appA, appB] = apps as [FastifyInstance, FastifyInstance];
    const product = await firstProduct(appB);
    const path = `/product/${product.id}`;
    await get(appB, path);
    expect((await get(appB, path)).headers['x-page-cache']).toBe('HIT');
    const actor = await adminActor(appA, 'page.cache.two.owner@example.com');
    const newPrice = 87.65;
    await setPrice(appA, actor, product.id, newPrice);
    const started = performance.now();
    let shown = false;
    while (performance.now() - started <= WITHIN_MS) {
      if ((await get(appB, path)).body.includes(price(newPrice))) {
        shown = true;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(shown, `B still served the old price after ${WITHIN_MS} ms`).toBe(true);
  });
});
