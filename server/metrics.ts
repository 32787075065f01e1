import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { lastSuccessfulBackupAt } from './domain/backups.ts';
import type { PaymentGateway } from './domain/payments.ts';
import type { SecurityEvents } from './domain/security-events.ts';

/*
 * What the shop is doing, in Prometheus text format (issue 23). The one module that imports
 * prom-client: domain code counts through the `Tally` interface it is handed (services.ts),
 * and caches and the database pool are read only when /metrics is scraped, from the counts
 * they keep anyway, so a request pays for no more than its own route's counter and histogram.
 */

/** A counter as domain code sees it: prom-client's Counter is one. */
export interface Tally {
  inc(value?: number): void;
}

/** The shop's own counters, handed to the domain (orders) and wrapped around the gateway and security events. */
export interface ShopTallies {
  ordersPlaced: Tally;
  ordersDeclined: Tally;
  refunds: Tally;
  refundedCents: Tally;
  signInFailures: Tally;
}

/** Hits and misses a cache keeps itself; read at each scrape. */
export interface CacheCounts {
  hits: number;
  misses: number;
}

/** Connections of the database pool, as far as the driver lets them be known (db/client.ts). */
export interface PoolCounts {
  size: number;
  inUse: number;
  waiting: number;
}

export type CacheName = 'page' | 'search' | 'catalogue';

/** Answers faster than a millisecond are common (kept pages, cached JSON), so the buckets start there. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

// Process-wide: heap, RSS, event-loop delay and GC belong to the process, not to one app, and
// prom-client's collectors (an event-loop monitor, a GC observer) should start once however
// many apps a test file builds. The last backup is the process's too.
let processRegistry: Registry | undefined;

function processMetrics(): Registry {
  if (processRegistry) return processRegistry;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'harbour_last_backup_timestamp_seconds',
    help: 'Unix time of the last successful backup this process knows of (0: none yet)',
    registers: [registry],
    // Read when scraped from the backups' own record: one fact, kept in one place.
    collect() {
      this.set((lastSuccessfulBackupAt()?.getTime() ?? 0) / 1000);
    },
  });
  processRegistry = registry;
  return registry;
}

/** Counts one route's answers: a counter and histogram child per status code, made on first use. */
function routeMeter(requests: Counter<'method' | 'route' | 'status'>, latency: Histogram<'method' | 'route'>) {
  return (method: string, route: string) => {
    const byStatus = new Map<number, Counter.Internal>();
    const timer = latency.labels(method, route);
    return (statusCode: number, elapsedMs: number): void => {
      let counter = byStatus.get(statusCode);
      if (!counter) {
        counter = requests.labels(method, route, String(statusCode));
        byStatus.set(statusCode, counter);
      }
      counter.inc();
      timer.observe(elapsedMs / 1000);
    };
  };
}

export function createShopMetrics() {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({
    name: 'harbour_http_requests_total',
    help: 'HTTP answers by route pattern (never the raw URL), method and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'harbour_http_request_duration_seconds',
    help: 'Time from request to the end of the answer, by route pattern and method',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const tallies: ShopTallies = {
    ordersPlaced: new Counter({ name: 'harbour_orders_placed_total', help: 'Orders placed and paid', registers }),
    ordersDeclined: new Counter({
      name: 'harbour_orders_declined_total',
      help: 'Orders whose card was declined',
      registers,
    }),
    refunds: new Counter({ name: 'harbour_refunds_total', help: 'Refunds sent to the payment gateway', registers }),
    refundedCents: new Counter({
      name: 'harbour_refunded_cents_total',
      help: 'Money refunded through the payment gateway, in cents',
      registers,
    }),
    signInFailures: new Counter({
      name: 'harbour_sign_in_failures_total',
      help: 'Sign-ins refused for a wrong e-mail or password',
      registers,
    }),
  };
  const caches = new Map<CacheName, () => CacheCounts | null>();
  new Counter({
    name: 'harbour_cache_requests_total',
    help: 'Lookups in the page cache, the search answers and the catalogue reads, by outcome',
    labelNames: ['cache', 'outcome'] as const,
    registers,
    collect() {
      this.reset();
      for (const [cache, read] of caches) {
        const counts = read();
        if (!counts) continue;
        this.inc({ cache, outcome: 'hit' }, counts.hits);
        this.inc({ cache, outcome: 'miss' }, counts.misses);
      }
    },
  });
  let pool: (() => PoolCounts | null) | null = null;
  const poolGauge = (name: string, help: string, pick: (counts: PoolCounts) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const counts = pool?.();
        if (counts) this.set(pick(counts));
      },
    });
  poolGauge('harbour_db_pool_size', 'Connections the PostgreSQL pool may open', (counts) => counts.size);
  poolGauge(
    'harbour_db_pool_in_use',
    'Pool connections busy with a query or transaction (counted around queries: see docs/decisions.md)',
    (counts) => counts.inUse,
  );
  poolGauge(
    'harbour_db_pool_waiting',
    'Queries and transactions beyond the pool’s connections (queued or pipelined)',
    (counts) => counts.waiting,
  );
  const meter = routeMeter(requests, latency);

  return {
    tallies,
    /** Reads a cache's own hit and miss counts at each scrape (null: that cache is off). */
    watchCache(name: CacheName, read: () => CacheCounts | null): void {
      caches.set(name, read);
    },
    watchPool(read: () => PoolCounts | null): void {
      pool = read;
    },
    /**
     * Counts every answer by route pattern: each route gets its own onResponse hook, knowing its
     * pattern, so nothing is looked up per request; requests no route matched count as `unmatched`.
     * Call before any route is added.
     */
    countRequests(app: FastifyInstance): void {
      app.addHook('onRoute', (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        const record = meter(methods.join(','), route.url ?? route.path);
        const hook: onResponseHookHandler = (_request, reply, done) => {
          record(reply.statusCode, reply.elapsedTime);
          done();
        };
        const own = route.onResponse;
        route.onResponse = own ? [hook, ...(Array.isArray(own) ? own : [own])] : [hook];
      });
      const unmatched = meter('any', 'unmatched');
      app.addHook('onResponse', (request, reply, done) => {
        if (request.is404) unmatched(reply.statusCode, reply.elapsedTime);
        done();
      });
    },
    /** The Prometheus text: the process's metrics, then this app's. */
    async text(): Promise<string> {
      return (await processMetrics().metrics()) + (await registry.metrics());
    },
    contentType: registry.contentType,
  };
}

export type ShopMetrics = ReturnType<typeof createShopMetrics>;

/** The gateway, counting the refunds it sends (order cancellations, returns, the back office). */
export function countingRefunds(gateway: PaymentGateway, tallies: ShopTallies): PaymentGateway {
  return {
    charge: (request) => gateway.charge(request),
    findCharge: (key) => gateway.findCharge(key),
    async refund(request) {
      const answer = await gateway.refund(request);
      tallies.refunds.inc();
      tallies.refundedCents.inc(request.amountCents);
      return answer;
    },
  };
}

/** Security events as before, counting failed sign-ins on the way. */
export function countingSignInFailures(events: SecurityEvents, tallies: ShopTallies): SecurityEvents {
  return {
    record(event) {
      if (event.event === 'sign-in-failed') tallies.signInFailures.inc();
      events.record(event);
    },
  };
}

/** Whether `header` is `Bearer <token>`, compared in constant time (hashes: equal lengths whatever was sent). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const sent = createHash('sha256').update(header.slice('Bearer '.length)).digest();
  const expected = createHash('sha256').update(token).digest();
  return timingSafeEqual(sent, expected);
}

/**
 * GET /metrics on the shop's own port, for a scraper holding METRICS_TOKEN: 401 without it.
 * Without METRICS_TOKEN the route does not exist (404), so the shop's port never shows it.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: ShopMetrics, token: string): void {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .header('cache-control', 'no-store')
        .send({ message: 'A bearer token is needed for the metrics' });
    }
    const body = await metrics.text();
    return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(body);
  });
}

/**
 * A listener of its own on 127.0.0.1:`port` that answers GET /metrics to anything that can
 * reach the machine's loopback (a local Prometheus agent); everything else is 404.
 */
export function listenForMetrics(metrics: ShopMetrics, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    const path = request.url?.split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found"}');
      return;
    }
    metrics.text().then(
      (body) => response.writeHead(200, { 'content-type': metrics.contentType }).end(body),
      () => response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"Metrics failed"}'),
    );
  });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', fail);
      done(server);
    });
  });
}
