import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import { isbot } from 'isbot';
import { createRequestHandler, type RouterContext, RouterContextProvider, type ServerBuild } from 'react-router';
import { PUBLIC_PAGE_CACHE_CONTROL } from '../../contracts/page-cache-headers.ts';
import type { RequestInfo } from '../../contracts/page-request.ts';
import { sameStockLine } from '../../contracts/stock.ts';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE } from '../../contracts/unavailable.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { toUser } from '../domain/accounts.ts';
import { escapeHtml } from '../escape-html.ts';
import { type CachedPage, createPageCache, type PageCache, plainBody } from '../page-cache.ts';
import type { ShopServices } from '../services.ts';
import { carriesSignedInHint, isSecureOrigin, readSessionToken } from '../session-cookie.ts';

export type StorefrontOptions = ({ mode: 'production'; buildDir: string } | { mode: 'development' }) & {
  /** Signed-out catalogue pages kept rendered (see `openPageCache`); none in development. */
  pageCache?: PageCache | null;
};

/** What app/entry.server.tsx exports besides the renderer: the context key loaders read services from. */
interface StorefrontEntryModule {
  shopContext: RouterContext<ShopServices>;
  requestContext: RouterContext<RequestInfo>;
}

/** Background renders of pages for the cache at once, per process: they share the CPU with shoppers' requests. */
const MAX_SHARED_RENDERS = 4;

/** Marks the app's own request that renders a stale cached page again. */
const REFRESH_HEADER = 'x-page-cache-refresh';

/**
 * Serves the React Router storefront: hashed assets with immutable caching, then
 * every other GET through React Router's server renderer. Loaders receive the
 * shop's services in-process through the router context.
 */
export async function storefrontPlugin(app: FastifyInstance, options: StorefrontOptions): Promise<void> {
  let loadBuild: () => Promise<ServerBuild>;

  if (options.mode === 'production') {
    const buildDir = resolve(options.buildDir);
    const serverEntry = join(buildDir, 'server', 'index.js');
    if (!existsSync(serverEntry)) {
      throw new Error(`The storefront is not built (${serverEntry} is missing): run \`npm run build\` first.`);
    }
    const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
    loadBuild = async () => build;
    await app.register(fastifyStatic, {
      root: join(buildDir, 'client', 'assets'),
      prefix: '/assets/',
      wildcard: false,
      decorateReply: false,
      immutable: true,
      maxAge: '1y',
    });
    await app.register(fastifyStatic, {
      root: join(buildDir, 'client'),
      prefix: '/',
      wildcard: false,
      decorateReply: false,
      allowedPath: (path) => !path.startsWith('/assets/'),
      // With wildcard: false every file becomes a route; assets/ already has its own (immutable) routes above.
      globIgnore: ['assets/**'],
      maxAge: '1h',
    });
  } else {
    const { createServer } = await import('vite');
    const middie = (await import('@fastify/middie')).default;
    const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
    await app.register(middie);
    app.use(vite.middlewares);
    app.addHook('onClose', () => vite.close());
    loadBuild = () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>;
  }

  const mode = options.mode === 'production' ? 'production' : 'development';
  const secureCookies = isSecureOrigin(app.config.publicUrl);
  const pageCache = options.pageCache ?? null;
  // A stale page is rendered again by a request the app makes to itself; only this process knows the secret that lets it past the cache.
  const refreshSecret = randomBytes(24).toString('base64url');

  await app.register(async (pages) => {
    // React Router reads form bodies itself, so this scope leaves them unread.
    pages.removeAllContentTypeParsers();
    pages.addContentTypeParser('*', (_request, _payload, done) => done(null));

    let renderer: { build: ServerBuild; handle: ReturnType<typeof createRequestHandler> } | null = null;

    let sharedRendersInFlight = 0;
    /**
     * Renders `url` again for nobody in particular, after this answer, once however many ask,
     * and a few pages at a time at most (more waits for the next request that needs it). A
     * stale listing that said which stock lines it shows is first checked: while the database
     * has every one of them reading the same, it is kept as it is (a render of a listing cost
     * ~30 ms of CPU, and the TTL had every listing shoppers look at rendered again every 10 s).
     */
    const renderSharedCopy = (request: FastifyRequest, key: string, userAgent: string, stale?: CachedPage) => {
      if (sharedRendersInFlight >= MAX_SHARED_RENDERS || !pageCache!.claimRefresh(key)) return;
      sharedRendersInFlight += 1;
      const refresh = async () => {
        if (stale?.stockShown && (await stockLinesUnchanged(app, stale.stockShown)) && pageCache!.renew(key, stale)) {
          return;
        }
        // Through the whole app, as a signed-out shopper's request would be, for the same host
        // (links and canonical URLs are built from it when PUBLIC_URL is not set).
        await app.inject({
          method: 'GET',
          url: request.url,
          headers: {
            host: request.host,
            'x-forwarded-proto': request.protocol,
            'user-agent': userAgent,
            [REFRESH_HEADER]: refreshSecret,
          },
        });
      };
      void refresh()
        .catch((error: unknown) => request.log.warn({ err: error }, 'could not refresh a cached page'))
        .finally(() => {
          sharedRendersInFlight -= 1;
          pageCache!.refreshDone(key);
        });
    };

    /**
     * Answers a GET from the page cache if it holds the page; null if it must be rendered. A
     * document is the same bytes for everyone, a signed-in shopper included: the page asks for
     * its account part (GET /api/users/summary) once it has loaded. A `.data` answer is the
     * shopper's own when the request carries a session (it may hold the root loader's account).
     */
    const answerFromCache = (request: FastifyRequest, reply: FastifyReply, signedOut: boolean): FastifyReply | null => {
      if (!pageCache || request.method !== 'GET') return null;
      if (request.headers[REFRESH_HEADER] === refreshSecret) return null;
      if (!signedOut && isDataRequest(request.url)) return null;
      // Crawlers get whole documents, not streams, so they have copies of their own.
      const userAgent = request.headers['user-agent'] ?? '';
      const key = pageCacheKey(userAgent, request.url);
      const found = pageCache.get(key);
      if (!found) return null;
      if (found.stale) renderSharedCopy(request, key, userAgent, found.page);
      return sendCachedPage(request, reply, pageCache, found.page, 'HIT');
    };

    // Hits are answered before the body parsers, the handler and the session lookup: a kept page needs none of them.
    // A session cookie without its hint is looked up first: the page could not know to ask for the account part,
    // so that shopper's page is rendered for them, and the hint goes out with it.
    pages.addHook('onRequest', (request, reply, done) => {
      const token = readSessionToken(request.headers, secureCookies);
      if (token !== null && !carriesSignedInHint(request.headers.cookie, secureCookies)) return done();
      if (answerFromCache(request, reply, token === null)) return;
      done();
    });

    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      let auth: Awaited<ReturnType<FastifyRequest['getAuth']>>;
      try {
        auth = await request.getAuth();
      } catch (error) {
        // A session that cannot be checked is not a signed-out one: 503, never a page that signs the shopper out.
        if (isDatabaseUnavailable(error)) return sendUnavailablePage(request, reply, error);
        throw error;
      }
      // A request whose session turned out dead is a signed-out one: it may still be answered from the cache.
      if (!auth) {
        const answered = answerFromCache(request, reply, true);
        if (answered) return answered;
      }
      const userAgent = request.headers['user-agent'] ?? '';
      const cacheKey = pageCache && request.method === 'GET' ? pageCacheKey(userAgent, request.url) : null;
      const build = await loadBuild();
      const entry = build.entry.module as unknown as StorefrontEntryModule;
      const context = new RouterContextProvider();
      context.set(entry.shopContext, app.services);
      const renderedAt = pageCache?.generation ?? 0;
      const isRefresh = request.headers[REFRESH_HEADER] === refreshSecret;
      let stockShown: Map<number, number> | null = null;
      let partFailed = false;
      let databaseUnavailable = false;
      context.set(entry.requestContext, {
        viewer: auth ? { user: toUser(auth.session.user), sessionId: auth.session.id } : null,
        clientAddress: request.ip,
        nonce: reply.scriptNonce,
        secureCookies,
        partFailed: () => {
          partFailed = true;
        },
        failed: (error) => {
          if (isDatabaseUnavailable(error)) {
            databaseUnavailable = true;
            request.log.warn({ err: error }, 'page failed: database unavailable');
          } else request.log.error({ err: error }, 'page failed');
        },
        sharedPage: () => {
          // This shopper's copy is theirs; the next shopper, signed in or not, gets the shared one.
          if (cacheKey && !isDataRequest(request.url) && !pageCache!.holdsFresh(cacheKey)) {
            renderSharedCopy(request, cacheKey, userAgent);
          }
        },
        showsStock: (items) => {
          stockShown ??= new Map();
          for (const item of items) stockShown.set(item.id, item.stockQuantity);
        },
      });
      // One handler per build: making it flattens and ranks every route again (3 % of a render).
      if (renderer?.build !== build) renderer = { build, handle: createRequestHandler(build, mode) };
      const response = await renderer.handle(toWebRequest(request, reply, app), context);
      if (databaseUnavailable && response.status >= 500) {
        // The error page, as 503 with a Retry-After: the database is out of reach, not the page broken.
        const headers = new Headers(response.headers);
        headers.set('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
        headers.set('cache-control', 'no-store');
        return sendWebResponse(reply, new Response(response.body, { status: 503, headers }));
      }
      const isPublic = response.headers.get('cache-control') === PUBLIC_PAGE_CACHE_CONTROL;
      if (cacheKey && !auth && isPublic && response.status === 200 && !response.headers.has('set-cookie')) {
        const body = Buffer.from(await response.arrayBuffer());
        // A page with a part that failed to load shows its spec §8 text: sent, never kept.
        const page = !partFailed
          ? await pageCache!.store(cacheKey, renderedAt, {
              status: response.status,
              headers: [...response.headers].filter(([name]) => name !== 'set-cookie' && name !== 'content-length'),
              body,
              stockShown,
            })
          : null;
        // The app's own refresh wants the page kept, not sent: no body to decompress and copy.
        if (isRefresh) return reply.status(204).send();
        if (page) return sendCachedPage(request, reply, pageCache!, page, 'MISS');
        return sendWebResponse(reply, new Response(body, { status: response.status, headers: notPublic(response) }));
      }
      return sendWebResponse(
        reply,
        isPublic ? new Response(response.body, { status: response.status, headers: notPublic(response) }) : response,
      );
    };
    pages.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/*', handler: handle });
    pages.route({ method: ['GET', 'HEAD', 'POST'], url: '/', handler: handle });
  });
}

/**
 * The page for a request that could not even check its session because the database is out of
 * reach: the shop's name, what happened, and a way to try again. Plain HTML with its own
 * styles (nothing else can be looked up).
 */
function sendUnavailablePage(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  request.log.warn({ err: error }, 'database unavailable');
  const again = escapeHtml(request.url);
  return reply
    .code(503)
    .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      `<!DOCTYPE html><html lang="en-AU"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>Back in a moment | Harbour Tools</title><style>body{margin:0;font-family:system-ui,sans-serif;color:#111827;background:#f9fafb}` +
        `main{max-width:36rem;margin:0 auto;padding:5rem 1rem;text-align:center}h1{font-size:1.75rem;text-transform:uppercase}` +
        `a{display:inline-block;margin-top:1.5rem;padding:.75rem 1.25rem;border-radius:.25rem;background:#f5b301;color:#111827;font-weight:600;text-decoration:none}</style></head>` +
        `<body><main><p>Harbour Tools</p><h1>Back in a moment</h1><p>${escapeHtml(DATABASE_UNAVAILABLE_MESSAGE)}</p>` +
        `<a href="${again}">Try again</a></main></body></html>`,
    );
}

function toWebRequest(request: FastifyRequest, reply: FastifyReply, app: FastifyInstance): Request {
  const origin = app.config.publicUrl ?? `${request.protocol}://${request.host}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const controller = new AbortController();
  // A request stream closes as soon as its body has been read (so every form post looked aborted
  // to React Router, which answered 500): the client has left only if the response closes unfinished.
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(new URL(request.url, origin), {
    method: request.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(request.raw) as ReadableStream, duplex: 'half' } : {}),
  });
}

/** Copies a web Response onto the reply (rather than hijacking it) so compression and hooks still apply. */
function sendWebResponse(reply: FastifyReply, response: Response): FastifyReply {
  reply.status(response.status);
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') continue;
    reply.header(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  if (!response.body) return reply.send();
  return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
}

/**
 * The page cache, unless PAGE_CACHE_MB or CATALOG_CACHE_SECONDS is 0. Pages live as long
 * as the catalogue reads they are made from; every catalogue change, in this process or
 * announced by another, drops what it makes stale.
 */
export function openPageCache(app: FastifyInstance): PageCache | null {
  const { pageCacheBytes, catalogCacheSeconds } = app.config;
  if (pageCacheBytes <= 0 || catalogCacheSeconds <= 0) return null;
  const pageCache = createPageCache({ maxBytes: pageCacheBytes, ttlMs: catalogCacheSeconds * 1000 });
  const stop = app.services.catalog.onChange((change) => {
    if ('productIds' in change) pageCache.forgetProducts(change.productIds);
    else pageCache.clear();
  });
  app.addHook('onClose', async () => {
    stop();
  });
  return pageCache;
}

/** Whether every stock line a kept page shows reads now as it did when the page was rendered. */
async function stockLinesUnchanged(app: FastifyInstance, shown: ReadonlyMap<number, number>): Promise<boolean> {
  const now = await app.services.catalog.stockOf([...shown.keys()]);
  for (const [id, stock] of shown) {
    const current = now.get(id);
    if (current === undefined || !sameStockLine(current, stock)) return false;
  }
  return true;
}

/** React Router's data requests: `/product/12.data`, `/search.data?q=saw`, `/_root.data`. */
function isDataRequest(url: string): boolean {
  const query = url.indexOf('?');
  return (query === -1 ? url : url.slice(0, query)).endsWith('.data');
}

/** Crawlers get whole documents rather than streams, so they have pages of their own. */
function pageCacheKey(userAgent: string, url: string): string {
  return `${isCrawler(userAgent) ? 'bot' : 'browser'} ${url}`;
}

const crawlerVerdicts = new Map<string, boolean>();

/**
 * `isbot`, remembered per user agent: its one large pattern was 4 % of a cached page's CPU,
 * and a shop's visitors bring a few hundred distinct agents, not one each.
 */
function isCrawler(userAgent: string): boolean {
  let verdict = crawlerVerdicts.get(userAgent);
  if (verdict === undefined) {
    verdict = isbot(userAgent);
    // Bounded: a flood of made-up agents costs the pattern again, never memory.
    if (crawlerVerdicts.size >= 1000) crawlerVerdicts.clear();
    crawlerVerdicts.set(userAgent, verdict);
  }
  return verdict;
}

/** A response that was public by its route but is not being kept (an error drawn in it, say): asked for afresh. */
function notPublic(response: Response): Headers {
  const headers = new Headers(response.headers);
  headers.set('cache-control', 'no-cache');
  return headers;
}

/** Each kept page's Content-Security-Policy, made the first time it is sent. */
const pagePolicies = new WeakMap<CachedPage, string>();

/**
 * Sends a kept page: its own ETag (a matching If-None-Match gets a 304), the compressed body
 * the client takes, and the Content-Security-Policy with the page's script hashes in place
 * of this response's nonce, since the body carries the nonce of the render that made it.
 */
function sendCachedPage(
  request: FastifyRequest,
  reply: FastifyReply,
  pageCache: PageCache,
  page: CachedPage,
  outcome: 'HIT' | 'MISS',
): FastifyReply {
  for (const [name, value] of page.headers) reply.header(name, value);
  reply.header('cache-control', PUBLIC_PAGE_CACHE_CONTROL);
  reply.header('vary', 'Cookie, Accept-Encoding');
  reply.header('etag', page.etag);
  reply.header('x-page-cache', outcome);
  let policy = pagePolicies.get(page);
  if (policy === undefined) {
    policy = request.server.contentSecurityPolicy(page.scriptHashes.join(' '));
    pagePolicies.set(page, policy);
  }
  reply.header('content-security-policy', policy);
  if (fresh(request.headers, { etag: page.etag })) return reply.status(304).send();
  reply.status(page.status);
  const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip']);
  if (encoding === 'br') return reply.header('content-encoding', 'br').send(page.br);
  if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(pageCache.gzipOf(page));
  return reply.send(plainBody(page));
}
