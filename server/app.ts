import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { Database, DatabaseHandle } from '../db/client.ts';
import { addressBookRoutes } from './api/address-book.ts';
import { adminRoutes } from './api/admin.ts';
import { adminFulfilmentRoutes } from './api/admin-fulfilment.ts';
import { adminPointsRoutes } from './api/admin-points.ts';
import { adminProductRoutes } from './api/admin-products.ts';
import { authRoutes } from './api/auth.ts';
import { catalogRoutes } from './api/catalog.ts';
import { contactRoutes } from './api/contact.ts';
import { registerApiFallback } from './api/fallback.ts';
import { healthRoutes } from './api/health.ts';
import { createKeptJson, type KeptJson } from './api/kept-json.ts';
import { membershipRoutes } from './api/membership.ts';
import { withUnsupportedMediaType } from './api/openapi.ts';
import { orderRoutes } from './api/orders.ts';
import { productImageRoutes } from './api/product-images.ts';
import { searchRoutes } from './api/search.ts';
import { secondFactorRoutes } from './api/second-factor.ts';
import { userRoutes } from './api/users.ts';
import { registerBackups } from './backup-server.ts';
import type { Config } from './config.ts';
import { createCatalogEvents } from './domain/catalog-events.ts';
import { type CounterStore, createDatabaseCounterStore, createRedisCounterStore } from './domain/counters.ts';
import { createMailer } from './domain/mail.ts';
import { createCatalogVersion } from './domain/search-answers.ts';
import { createSecurityEvents } from './domain/security-events.ts';
import {
  countingSignInFailures,
  createShopMetrics,
  listenForMetrics,
  registerMetricsRoute,
  type ShopMetrics,
} from './metrics.ts';
import { registerAuth } from './plugins/auth.ts';
import { answerFrameworkError, refuseNulCharacters, registerErrorHandler } from './plugins/errors.ts';
import { cleanConsoleErrors, loggerOptions } from './plugins/logging.ts';
import { registerSecurity } from './plugins/security.ts';
import { openPageCache, type StorefrontOptions, storefrontPlugin } from './plugins/storefront.ts';
import { createShopServices, type ShopServices } from './services.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    database: DatabaseHandle;
    services: ShopServices;
    /** The counters and gauges GET /metrics reports (server/metrics.ts). */
    metrics: ShopMetrics;
    /**
     * Set by main.ts on SIGTERM: readiness (/api/health) answers 503 from then on, so a balancer
     * stops sending before the server stops taking requests.
     */
    draining: boolean;
    /** Catalogue JSON answers kept compressed (server/api/kept-json.ts), shared by the catalogue and search routes. */
    keptJson: KeptJson;
  }
}

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Serve the React storefront; API-only tests leave it out. */
  storefront?: StorefrontOptions;
  /** Pino options or false; tests pass false. */
  logger?: boolean | Record<string, unknown>;
  /**
   * Run the background jobs on the wall clock (membership renewals; default true). Tests that
   * drive the job themselves with `runOnce(now)` leave it off, so it cannot race their clock.
   */
  backgroundJobs?: boolean;
}

/** TRUST_PROXY as Fastify takes it: a hop count becomes proxy-addr's "trust the nearest N hops". */
function fastifyTrustProxy(
  trust: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/**
 * Builds the whole shop (API, storefront, static files) without listening,
 * so tests drive it through `inject` and main.ts decides how to serve it.
 * The database handle is owned by the caller; closing the app does not close it.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger === false ? false : loggerOptions(options.logger ?? { level: config.logLevel }),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
    bodyLimit: 1_048_576,
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Responses are typed at compile time by the same zod schemas; re-validating every
  // response at run time would cost a third of the throughput, so they are only serialised.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // One error shape everywhere, the storefront's paths included (the API scope sets its own too).
  registerErrorHandler(app, { notFound: !options.storefront });
  refuseNulCharacters(app);
  cleanConsoleErrors();

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('draining', false);
  // Answers are kept by identity: with the catalogue cache off every answer is new, so nothing is kept.
  app.decorate('keptJson', createKeptJson(config.catalogCacheSeconds > 0 ? config.keptJsonBytes : 0));
  const metrics = createShopMetrics();
  app.decorate('metrics', metrics);
  // Before any route is added: each route gets its own counting hook (server/metrics.ts).
  metrics.countRequests(app);
  if (database.pool) metrics.watchPool(database.pool);
  let counters: CounterStore;
  if (config.redisUrl) {
    const redis = new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
    app.addHook('onClose', async () => {
      await redis.quit();
    });
    counters = createRedisCounterStore(redis);
  } else {
    counters = createDatabaseCounterStore(database.db);
  }
  const mailer = createMailer({
    db: database.db,
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    outboxDir: config.mail.outboxDir,
    log: app.log,
  });
  app.addHook('onClose', () => mailer.idle());
  const catalogEvents = createCatalogEvents(
    database,
    (change) => app.services.catalog.applyRemoteChange(change),
    app.log,
  );
  const catalogVersion = createCatalogVersion(database);
  app.decorate(
    'services',
    createShopServices(database.db, config, {
      counters,
      mailer,
      announceCatalogChange: (change) => catalogEvents.announce(change),
      catalogVersion,
      securityEvents: countingSignInFailures(createSecurityEvents(app.log), metrics.tallies),
      tallies: metrics.tallies,
      liveness: database.liveness,
    }),
  );
  metrics.watchCache('catalogue', () => app.services.catalog.cacheStats());
  metrics.watchCache('search', () => app.services.search.searchAnswers?.state() ?? null);
  app.addHook('onReady', () => catalogVersion.start(app.log));
  app.addHook('onClose', () => catalogVersion.close());
  app.addHook('onReady', () => catalogEvents.start());
  app.addHook('onClose', () => catalogEvents.close());
  app.addHook('onReady', async () => app.services.search.suggestions.start(app.log));
  // Membership renewals: every process runs the job; the charge rows make it charge once.
  if (options.backgroundJobs !== false) {
    app.addHook('onReady', async () => app.services.membershipBilling.start(app.log));
    app.addHook('onClose', () => app.services.membershipBilling.stop());
    // Uncollected click & collect orders: reminded at 7 days, cancelled and refunded at 14.
    app.addHook('onReady', async () => app.services.fulfilment.start(app.log));
    app.addHook('onClose', () => app.services.fulfilment.stop());
    // Orders whose card charge was in flight when a process died: settled at start (the embedded
    // database's one process may settle them all at once) and every minute.
    let sweeping: ReturnType<typeof setInterval> | undefined;
    const sweep = async (olderThanMs?: number) => {
      try {
        const settled = await app.services.orders.settleReservations(olderThanMs);
        if (settled > 0) app.log.info({ settled }, 'order reservations left in flight settled');
      } catch (error) {
        app.log.warn({ err: error }, 'could not settle order reservations');
      }
    };
    app.addHook('onReady', async () => {
      void sweep(database.kind === 'pglite' ? 0 : undefined);
      sweeping = setInterval(() => void sweep(), 60_000);
      sweeping.unref();
    });
    app.addHook('onClose', async () => clearInterval(sweeping));
  }
  // Backups: the socket db:backup asks through, and the BACKUP_EVERY_HOURS job with the others.
  registerBackups(app, { scheduled: options.backgroundJobs !== false });
  app.addHook('onClose', () => app.services.search.suggestions.close());
  if (config.admin) {
    const admin = config.admin;
    app.addHook('onReady', async () => {
      const { created } = await app.services.accounts.ensureAdmin(admin.email, admin.password);
      app.log.info({ email: admin.email }, created ? 'admin account created' : 'admin account updated');
    });
  }
  // The demo's create-your-kit countdown runs from the shop's first start, so fix its date now;
  // if the database is not answering yet, the page fixes it on its first visit instead.
  app.addHook('onReady', async () => {
    await app.services.kitLaunch.launchDate().catch((error: unknown) => {
      app.log.warn({ err: error }, 'could not fix the kit launch date at start');
    });
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });

  // Signed-out catalogue pages kept rendered (production pages only: development serves Vite's).
  const pageCache = options.storefront?.mode === 'production' ? openPageCache(app) : null;
  if (pageCache) metrics.watchCache('page', () => pageCache.stats());

  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  await registerSecurity(app);
  registerAuth(app);

  await app.register(
    async (api) => {
      registerErrorHandler(api);
      await api.register(fastifySwagger, {
        openapi: {
          openapi: '3.1.0',
          info: {
            title: `${config.shop.name} API`,
            description: 'The shop’s JSON API. Money is in dollars with two decimals; image paths are relative.',
            version: '1.0.0',
          },
        },
        transform: jsonSchemaTransform,
        transformObject: (input) => withUnsupportedMediaType(jsonSchemaTransformObject(input)),
      });
      // indexPrefix: the page's links must include the /api scope the plugin cannot see.
      await api.register(fastifySwaggerUi, { routePrefix: '/docs', indexPrefix: '/api' });
      api.addHook('onRequest', async (_request, reply) => {
        reply.header('cache-control', 'no-store');
      });
      registerApiFallback(api);
      await api.register(healthRoutes);
      await api.register(contactRoutes);
      await api.register(authRoutes);
      await api.register(userRoutes);
      await api.register(addressBookRoutes);
      await api.register(orderRoutes);
      await api.register(adminRoutes, { prefix: '/admin' });
      await api.register(adminPointsRoutes, { prefix: '/admin' });
      await api.register(adminFulfilmentRoutes, { prefix: '/admin' });
      await api.register(adminProductRoutes);
      await api.register(membershipRoutes);
      await api.register(secondFactorRoutes);
      await api.register(async (publicReads) => {
        // Catalogue reads are public and change rarely: let browsers and CDNs reuse them briefly.
        publicReads.addHook('onSend', async (_request, reply) => {
          if (reply.statusCode === 200) reply.header('cache-control', 'public, max-age=60');
        });
        await publicReads.register(catalogRoutes);
        await publicReads.register(searchRoutes);
      });
      await api.register(productImageRoutes);
    },
    { prefix: '/api' },
  );

  // Not open to the internet: with METRICS_TOKEN for its bearer only, on METRICS_PORT on loopback only.
  if (config.metrics.token) registerMetricsRoute(app, metrics, config.metrics.token);
  if (config.metrics.port !== undefined) {
    const port = config.metrics.port;
    let metricsServer: Server | undefined;
    app.addHook('onReady', async () => {
      metricsServer = await listenForMetrics(metrics, port);
    });
    app.addHook('onClose', async () => {
      const server = metricsServer;
      if (!server) return;
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    });
  }

  // Uploads and seeded pictures land here; it must exist before the static route is set up.
  mkdirSync(config.mediaDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: config.mediaDir,
    prefix: '/media/',
    decorateReply: false,
    maxAge: '1d',
  });

  if (options.storefront) await app.register(storefrontPlugin, { ...options.storefront, pageCache });

  return app;
}
