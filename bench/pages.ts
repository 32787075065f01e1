import { resolve } from 'node:path';
import type { Category, ProductPage, Subcategory } from '../contracts/catalog.ts';
import { startServer, stopServer } from './api-load.ts';
import type { LoadResult } from './load.ts';
import { measureRawLoad } from './raw-load.ts';
import { buildStorefront } from './shop-server.ts';

/**
 * Budgets of the pages-at-scale issue (13): signed-out HTML of home, a subcategory page
 * and a product page as a share of a bare Fastify route in the same run, p99, and a
 * signed-in product page as a share too: its document, and the whole view (the document
 * plus the account summary the page asks for).
 */
export const PAGE_BUDGETS = { anonymousRatio: 0.2, anonymousP99Ms: 50, signedInRatio: 0.02 };

/**
 * What a browser sends with every request: the cache keeps br and gzip copies, a signed-in page is
 * compressed per response. The user agent matters: Node's fetch says `node`, which the shop takes
 * for a crawler (whole documents, cached under their own key), so without a browser's the warm-up
 * fetches warmed the crawlers' copies and each run began by rendering every page again.
 */
export const BROWSER_HEADERS = {
  'accept-encoding': 'gzip, deflate, br',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

/** A load run with the server's own CPU time per answered request (µs), measured in the server process. */
export type PageLoad = LoadResult & { serverCpuMicros: number };

export interface PageFigures {
  products: number;
  database: string;
  bare: PageLoad;
  anonymous: PageLoad[];
  signedIn: PageLoad;
  /**
   * Whole signed-in page views: the kept document and the account summary the page then asks
   * for (GET /api/users/summary), one of each per view. Throughput and CPU are per view,
   * latencies per request.
   */
  signedInViews: PageLoad;
  /** Size of each page as a browser receives it (br) and as HTML. */
  sizes: { page: string; htmlBytes: number; brBytes: number }[];
}

async function json<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return (await response.json()) as T;
}

/** Deterministic spread of ids, as the API bench asks for them. */
function spread(count: number, max: number): number[] {
  return Array.from({ length: count }, (_, index) => 1 + ((index * 7919) % max));
}

/** A shopper signed in with the cookies a browser keeps. */
async function signedInCookie(shopUrl: string): Promise<string> {
  const response = await fetch(`${shopUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'Bench',
      lastName: 'Shopper',
      email: `bench.pages.${Date.now()}@example.com`,
      password: 'Bench-Pages-Shopper-42',
      PhoneNumber: '0412 345 678',
      address: {
        addressLine1: '1 Bench Street',
        city: 'Sydney',
        state: 'NSW',
        postalCode: '2000',
        country: 'Australia',
      },
    }),
  });
  if (response.status !== 201) throw new Error(`register: ${response.status} ${await response.text()}`);
  // Every cookie it was sent, as a browser sends them back: the session and its readable hint.
  const cookies = response.headers.getSetCookie().map((value) => value.split(';')[0]!);
  if (!cookies.some((cookie) => cookie.startsWith('harbour_session=')))
    throw new Error('register set no session cookie');
  return cookies.join('; ');
}

/**
 * Page throughput under `connections` connections: the bare route, then each signed-out
 * page kind over a rotating set of URLs (all cached after the warm-up, as on a busy
 * morning), then signed-in product pages (the same kept documents) and whole signed-in
 * page views (document and account summary).
 */
export async function benchPages(options: {
  products: number;
  databaseUrl?: string;
  connections: number;
  durationSeconds: number;
  skipBuild: boolean;
}): Promise<PageFigures> {
  const buildDir = resolve(process.env.BUILD_DIR ?? 'build');
  if (!options.skipBuild) buildStorefront(buildDir);
  const server = await startServer(options.products, options.databaseUrl, { storefront: true });
  try {
    const base = server.shopUrl;
    const total = (await json<ProductPage>(`${base}/api/products?limit=1`)).totalCount;
    const subcategories = await json<Subcategory[]>(`${base}/api/subcategories`);
    const categories = await json<Category[]>(`${base}/api/categories`);
    if (categories.length === 0 || subcategories.length === 0) throw new Error('the catalogue is empty');
    const productPaths = spread(200, total).map((id) => `/product/${id}`);
    const subcategoryPaths = subcategories
      .slice(0, 40)
      .map((subcategory) => `/category/${subcategory.categoryId}/subcategory/${subcategory.id}`);
    const kinds = [
      { title: 'home (signed out)', paths: ['/'] },
      { title: 'subcategory pages (signed out)', paths: subcategoryPaths },
      { title: 'product pages (signed out)', paths: productPaths },
    ];
    const browser = BROWSER_HEADERS;
    const common = { connections: options.connections, durationSeconds: options.durationSeconds, headers: browser };
    // On a 2-core machine the load generator can saturate before the server does: the server's
    // CPU time per request says what the shop itself costs, whatever the client manages.
    const cpuMicros = async () => (await json<{ cpuMicros: number }>(`${server.bareUrl}/memory`)).cpuMicros;
    const measured = async (load: Parameters<typeof measureRawLoad>[0]): Promise<PageLoad> => {
      const before = await cpuMicros();
      const result = await measureRawLoad(load);
      const used = (await cpuMicros()) - before;
      const answered = result.requestsPerSecond * load.durationSeconds;
      return { ...result, serverCpuMicros: answered > 0 ? Math.round(used / answered) : 0 };
    };
    const sizes: PageFigures['sizes'] = [];
    for (const [page, path] of [
      ['home', '/'],
      ['subcategory', subcategoryPaths[0]!],
      ['product', productPaths[0]!],
    ] as const) {
      const html = await (
        await fetch(`${base}${path}`, { headers: { ...browser, 'accept-encoding': 'identity' } })
      ).arrayBuffer();
      const br = await fetch(`${base}${path}`, {
        headers: { ...browser, 'accept-encoding': 'br' },
        decompress: false,
      } as RequestInit);
      const brBytes = Number(br.headers.get('content-length') ?? (await br.arrayBuffer()).byteLength);
      sizes.push({ page, htmlBytes: html.byteLength, brBytes });
    }
    // Warm-up: the JIT, the database's caches and the page cache, as a running shop has them.
    await measureRawLoad({
      title: 'warm-up',
      baseUrl: base,
      paths: kinds.flatMap((kind) => kind.paths),
      ...common,
      durationSeconds: 4,
    });
    const bare = await measured({
      title: 'bare Fastify route',
      baseUrl: server.bareUrl,
      paths: ['/bare'],
      ...common,
      headers: {},
    });
    const anonymous: PageLoad[] = [];
    for (const kind of kinds) {
      // Each page asked for once first: a busy shop's pages are all in the cache, the bench's are
      // older than the TTL by the time their turn comes.
      for (const path of kind.paths) await (await fetch(`${base}${path}`, { headers: browser })).arrayBuffer();
      anonymous.push(await measured({ title: kind.title, baseUrl: base, paths: kind.paths, ...common }));
    }
    const cookie = await signedInCookie(base);
    const signedIn = await measured({
      title: 'product pages (signed in)',
      baseUrl: base,
      paths: productPaths,
      ...common,
      headers: { ...browser, cookie },
    });
    const views = await measured({
      title: 'product page views, signed in (page + account summary)',
      baseUrl: base,
      paths: productPaths.flatMap((path) => [path, '/api/users/summary']),
      ...common,
      headers: { ...browser, cookie },
    });
    const signedInViews: PageLoad = {
      ...views,
      requestsPerSecond: views.requestsPerSecond / 2,
      serverCpuMicros: views.serverCpuMicros * 2,
    };
    return { products: options.products, database: server.database, bare, anonymous, signedIn, signedInViews, sizes };
  } finally {
    await stopServer(server);
  }
}
