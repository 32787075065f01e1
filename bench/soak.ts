/**
 * The soak (issue 23): the real shop (`node server/main.ts` with npm start's Node flags, production
 * build) on PostgreSQL with 100,000 products, under mixed traffic at a fixed rate for a long time
 * (30 minutes unless told otherwise). Open-loop: requests are sent on a schedule (200 a second),
 * never waiting for earlier answers, and each one's latency counts from when it was due, so a
 * slow server cannot slow the load down and hide. What a browser sends (its user agent,
 * `accept-encoding`), from many loopback addresses (127.0.0.10–209 for browsing, one of its own
 * per signed-in shopper) so no per-address limit answers for the shop.
 *
 * The mix, per 40 requests (at 200/s, 5 of them orders a second): 10 product pages and 5
 * category or subcategory pages (HTML), 1 home page, 6 product JSON, 4 searches (every fourth
 * the search page), 6 suggestions, 3 cart quotes, 1 account page (/profile, /orders) and 3
 * account API reads (profile, orders list, summary) by signed-in shoppers, and 1 order (POST
 * /api/orders, an approved card) by one of the buyers. Product views are 4 in 5 of 500 popular
 * products, 1 in 5 anywhere in the catalogue (see trafficOf). The shoppers who read their
 * account are not the buyers, so their order lists stay the size they were. The ordered
 * products have a million each in stock.
 *
 * Every minute: the server's RSS (from /proc), its V8 heap (from /metrics), requests, orders,
 * p50/p95/max and errors. Budgets: RSS growth from 5 minutes in (a sixth of the way into a
 * shorter run) to the end under 10 %, every minute's p95 within 1.5× of the first minute's, no 5xx and
 * no request left without an answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Category, ProductPage, Subcategory } from '../contracts/catalog.ts';
import { openDatabase } from '../db/client.ts';
import { products } from '../db/schema.ts';
import {
  buyerAddress,
  buyerCard,
  latencyOf,
  orderBody,
  prepareDatabase,
  privateBuild,
  type RunningShop,
  register,
  requestFrom,
  startShop,
  stopShop,
} from './orders.ts';
import { BROWSER_HEADERS } from './pages.ts';
import { queryMix } from './search.ts';
import { machineCpuTicks, processCpuMs, processMemoryMb } from './shop-server.ts';

export const SOAK_BUDGETS = {
  /** RSS at the end over RSS 5 minutes in (a sixth of the way into a shorter run). */
  rssGrowth: 0.1,
  /** Every minute's p95 over the first minute's. */
  p95Factor: 1.5,
};

const KINDS = [
  'product page',
  'listing page',
  'home page',
  'product JSON',
  'search',
  'suggestions',
  'cart quote',
  'account page',
  'account API',
  'order',
] as const;
type Kind = (typeof KINDS)[number];

/** How many of every 40 requests each kind is (1 order in 40: 5 orders/s at 200 requests/s). */
const MIX: Record<Kind, number> = {
  'product page': 10,
  'listing page': 5,
  'home page': 1,
  'product JSON': 6,
  search: 4,
  suggestions: 6,
  'cart quote': 3,
  'account page': 1,
  'account API': 3,
  order: 1,
};

/** The share of requests that are orders. */
export const SOAK_ORDER_SHARE = MIX.order / Object.values(MIX).reduce((sum, weight) => sum + weight, 0);

const BUYERS = 16;
/** Signed-in shoppers who read their account; with the buyers, under the 30 sign-ups an address may make in 15 minutes. */
const READERS = 12;
const READER_ORDERS = 3;
const BROWSING_ADDRESSES = 200;
/** Products most views are of: the 200 the buyers order and 300 others across the catalogue. */
const POPULAR = 500;
const TIMEOUT_MS = 10_000;
const SAMPLE_MS = 10_000;

export interface SoakMinute {
  minute: number;
  requests: number;
  orders: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Answers 500 and up. */
  serverErrors: number;
  /** Requests that got no answer (refused, reset, or none in 10 s). */
  unanswered: number;
  /** Other answers that are not 2xx (status → count): the bench asks for nothing that should give one. */
  otherStatuses: Record<string, number>;
  /** The server's resident set and V8 heap in use at the minute's end. */
  rssMb: number;
  heapMb: number | null;
  /** The server's CPU use over the minute (100 = one core), and the whole machine's (all cores: the server, PostgreSQL, this load). */
  serverCpuPercent: number;
  machineCpuPercent: number;
}

export interface SoakCost {
  kind: Kind;
  rate: number;
  requests: number;
  cpuMsPerRequest: number;
  cpuPercent: number;
  p50Ms: number;
  p95Ms: number;
  notOk: number;
}

export interface SoakFigures {
  products: number;
  database: string;
  minutes: number;
  rate: number;
  ordersPerSecond: number;
  warmUpSeconds: number;
  rows: SoakMinute[];
  /** RSS 5 minutes in (a sixth of a shorter run: the budget's starting point), at the end, the most after the start and the peak ever. */
  rss: { baselineAtSeconds: number; baselineMb: number; endMb: number; maxAfterBaselineMb: number; peakMb: number };
  totals: { requests: number; orders: number; serverErrors: number; unanswered: number };
  byKind: { kind: Kind; requests: number; p50Ms: number; p95Ms: number; maxMs: number; notOk: number }[];
  /** The most a request went out after it was due: the load generator keeping up (or not). */
  maxSendLagMs: number;
  /** Each kind alone at its share of the rate (when costSeconds is given): the server's CPU per request and its share of one core. */
  costs: SoakCost[];
  /** How the server process ended during the soak (exit code or signal), and the last lines it wrote; null while it ran to the end. */
  serverExit: { how: string; lastLines: string } | null;
}

/** Spreads each kind's share through the cycle (smooth weighted round-robin), so orders do not come in bursts. */
function cycleOf(mix: Record<Kind, number>): Kind[] {
  const total = Object.values(mix).reduce((sum, weight) => sum + weight, 0);
  const current = new Map<Kind, number>(KINDS.map((kind) => [kind, 0]));
  const cycle: Kind[] = [];
  for (let slot = 0; slot < total; slot += 1) {
    let best: Kind = KINDS[0];
    for (const kind of KINDS) {
      current.set(kind, current.get(kind)! + mix[kind]);
      if (current.get(kind)! > current.get(best)!) best = kind;
    }
    current.set(best, current.get(best)! - total);
    cycle.push(best);
  }
  return cycle;
}

function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]! * 10) / 10;
}

async function json<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: BROWSER_HEADERS });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return (await response.json()) as T;
}

/** The V8 heap in use, from the shop's own /metrics (null if it cannot be read). */
async function heapMb(baseUrl: string, token: string): Promise<number | null> {
  try {
    const text = await (
      await fetch(`${baseUrl}/metrics`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(5000),
      })
    ).text();
    const bytes = /^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text)?.[1];
    return bytes === undefined ? null : Math.round(Number(bytes) / 1048576);
  } catch {
    return null;
  }
}

interface Request {
  method: 'GET' | 'POST';
  path: string;
  from: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * What each kind asks for, its n-th time: deterministic, so every run sends the same. Shoppers
 * look at some products far more than others: 4 of 5 product views (pages and JSON) and cart
 * lines are of POPULAR products (the ones ordered and others across the catalogue), 1 of 5
 * anywhere in it. (A first trial spread them evenly over 100,000 products: nearly every product
 * page was then a first render, ~15 ms of the server's CPU each, and 50 a second held the
 * process at full CPU until requests waited 10 s.) Listings likewise: category pages and the
 * first page of subcategories, 1 in 10 a second page.
 */
function trafficOf(setup: {
  activeIds: number[];
  stockedIds: number[];
  categories: Category[];
  subcategories: Subcategory[];
  mix: ReturnType<typeof queryMix>;
  buyers: { token: string; email: string }[];
  readers: { cookie: string }[];
}) {
  const browsing = (n: number) => `127.0.0.${10 + (n % BROWSING_ADDRESSES)}`;
  const html = { ...BROWSER_HEADERS, accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
  const api = { ...BROWSER_HEADERS, accept: 'application/json' };
  const stocked = new Set(setup.stockedIds);
  const popular = [
    ...setup.stockedIds,
    ...Array.from(
      { length: POPULAR - setup.stockedIds.length },
      (_, k) => setup.activeIds[(k * 7919 + 17) % setup.activeIds.length]!,
    ).filter((id) => !stocked.has(id)),
  ];
  const product = (n: number) =>
    n % 5 === 4 ? setup.activeIds[(n * 7919) % setup.activeIds.length]! : popular[(n * 104_729) % popular.length]!;
  const listing = (n: number) => {
    if (n % 5 === 0) return `/category/${setup.categories[n % setup.categories.length]!.id}`;
    const subcategory = setup.subcategories[(n * 31) % setup.subcategories.length]!;
    return `/category/${subcategory.categoryId}/subcategory/${subcategory.id}${n % 10 === 9 ? '?page=2' : ''}`;
  };
  const reader = (n: number) => ({
    index: n % READERS,
    cookie: setup.readers[n % READERS]!.cookie,
  });
  const accountPages = ['/profile', '/orders'];
  const accountApi = ['/api/users/profile', '/api/orders/user', '/api/users/summary'];
  return (kind: Kind, n: number, sequence: number): Request => {
    switch (kind) {
      case 'product page':
        return { method: 'GET', path: `/product/${product(n)}`, from: browsing(sequence), headers: html };
      case 'listing page':
        return { method: 'GET', path: listing(n), from: browsing(sequence), headers: html };
      case 'home page':
        return { method: 'GET', path: '/', from: browsing(sequence), headers: html };
      case 'product JSON':
        return { method: 'GET', path: `/api/products/${product(n + 500)}`, from: browsing(sequence), headers: api };
      case 'search': {
        const path = setup.mix.search[n % setup.mix.search.length]!;
        // Every fourth search is the search page a shopper lands on (the same query string).
        return n % 4 === 3
          ? { method: 'GET', path: path.replace('/api/search', '/search'), from: browsing(sequence), headers: html }
          : { method: 'GET', path, from: browsing(sequence), headers: api };
      }
      case 'suggestions':
        return {
          method: 'GET',
          path: setup.mix.autocomplete[n % setup.mix.autocomplete.length]!,
          from: browsing(sequence),
          headers: api,
        };
      case 'cart quote': {
        const lines = 1 + (n % 4);
        const items = Array.from({ length: lines }, (_, index) => ({
          productId: product(n * 3 + index + 1000),
          quantity: 1 + (index % 2),
        }));
        return {
          method: 'POST',
          path: '/api/cart/quote',
          from: browsing(sequence),
          headers: { ...api, 'content-type': 'application/json' },
          body: JSON.stringify({ items }),
        };
      }
      case 'account page': {
        const { index, cookie } = reader(n);
        return {
          method: 'GET',
          path: accountPages[n % accountPages.length]!,
          from: buyerAddress(BUYERS + index),
          headers: { ...html, cookie },
        };
      }
      case 'account API': {
        const { index, cookie } = reader(n);
        return {
          method: 'GET',
          path: accountApi[n % accountApi.length]!,
          from: buyerAddress(BUYERS + index),
          headers: { ...api, cookie },
        };
      }
      case 'order': {
        const index = n % BUYERS;
        const buyer = setup.buyers[index]!;
        return {
          method: 'POST',
          path: '/api/orders',
          from: buyerAddress(index),
          headers: { ...api, 'content-type': 'application/json', authorization: `Bearer ${buyer.token}` },
          body: orderBody({
            sequence: n,
            tag: 'soak',
            email: buyer.email,
            card: buyerCard(index),
            productIds: setup.stockedIds,
          }),
        };
      }
    }
  };
}

/**
 * Seeds a PostgreSQL database (databaseUrl, an empty one) with `products` products, starts the
 * shop on it, signs up the shoppers, warms up at the full rate, then runs the soak for `minutes`
 * at `rate` requests a second. `onMinute` hears each minute's figures as soon as they are known.
 */
export async function benchSoak(options: {
  databaseUrl: string;
  minutes: number;
  rate: number;
  products?: number;
  /** A database seeded by an earlier run: the catalogue is kept (a 100,000-product seed takes minutes). */
  reuse?: boolean;
  /** Seconds each kind runs alone, before the warm-up, to measure what it costs (0: not measured). */
  costSeconds?: number;
  onMinute?: (row: SoakMinute) => void;
  onCost?: (row: SoakCost) => void;
}): Promise<SoakFigures> {
  const productCount = options.products ?? 100_000;
  const dataDir = mkdtempSync(join(tmpdir(), 'harbour-bench-soak-'));
  const buildDir = privateBuild('soak');
  const metricsToken = `soak-${process.pid}-${Date.now()}-metrics`;
  const agent = new Agent({ keepAlive: true });
  let shop: RunningShop | undefined;
  let sampler: NodeJS.Timeout | undefined;
  const minuteTimers: NodeJS.Timeout[] = [];
  try {
    const stockedIds = await prepareDatabase({
      databaseUrl: options.databaseUrl,
      pgliteDir: join(dataDir, 'pglite'),
      products: productCount,
      bench: 'soak',
      reuse: options.reuse ?? false,
    });
    // Product pages and JSON over the whole catalogue, but only products on sale (1 % are not: 404).
    const database = await openDatabase({ kind: 'postgres', url: options.databaseUrl, maxConnections: 1 });
    const activeIds = (
      await database.db
        .select({ id: products.id })
        .from(products)
        .where(eq(products.isActive, true))
        .orderBy(products.id)
    ).map((row) => row.id);
    await database.close();

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BUILD_DIR: buildDir,
      MAIL_OUTBOX_DIR: join(dataDir, 'outbox'),
      LOG_LEVEL: 'warn',
      AUTO_SEED: 'false',
      PAYMENT_DECLINE_RATE: '0',
      DATABASE_URL: options.databaseUrl,
      METRICS_TOKEN: metricsToken,
    };
    delete env.SMTP_URL;
    delete env.REDIS_URL;
    delete env.METRICS_PORT;
    shop = await startShop(env);
    const base = shop.baseUrl;
    const pid = shop.child.pid!;

    const categories = await json<Category[]>(`${base}/api/categories`);
    const subcategories = await json<Subcategory[]>(`${base}/api/subcategories`);
    const newest = await json<ProductPage>(`${base}/api/products?limit=200&sort=newest`);
    const mix = queryMix(newest.items);

    const buyers: { token: string; email: string; cookie: string }[] = [];
    for (let index = 0; index < BUYERS; index += 1) buyers.push(await register(base, 'soak-buyer'));
    const readers: { token: string; email: string; cookie: string }[] = [];
    for (let index = 0; index < READERS; index += 1) {
      const reader = await register(base, 'soak-reader');
      readers.push(reader);
      for (let order = 0; order < READER_ORDERS; order += 1) {
        const status = await requestFrom(agent, buyerAddress(BUYERS + index), `${base}/api/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${reader.token}` },
          body: orderBody({
            sequence: index * READER_ORDERS + order,
            tag: 'soak-reader',
            email: reader.email,
            card: buyerCard(BUYERS + index),
            productIds: stockedIds,
          }),
        });
        if (status !== 201) throw new Error(`a reader's set-up order answered ${status}`);
      }
    }

    const requestOf = trafficOf({ activeIds, stockedIds, categories, subcategories, mix, buyers, readers });
    const cycle = cycleOf(MIX);
    const counts = new Map<Kind, number>(KINDS.map((kind) => [kind, 0]));
    const intervalMs = 1000 / options.rate;
    let sequence = 0;
    let maxSendLagMs = 0;

    /**
     * Sends `total` requests on the schedule from startedAt, one every 1/rate s; `onSent` hears each as it
     * goes, `settle` each answer (status 0: none) with its latency from when it was due. Resolves when
     * the last one has gone, with the promise of their answers.
     */
    const run = async (
      total: number,
      startedAt: number,
      onSent: (dueAt: number) => void,
      settle: (kind: Kind, dueAt: number, status: number, latencyMs: number) => void,
      only?: { kind: Kind; rate: number },
    ): Promise<{ answered: Promise<unknown> }> => {
      const pending = new Set<Promise<void>>();
      const every = only ? 1000 / only.rate : intervalMs;
      let sent = 0;
      while (sent < total) {
        const now = performance.now();
        const due = Math.min(total, Math.floor((now - startedAt) / every) + 1);
        for (; sent < due; sent += 1) {
          const dueAt = startedAt + sent * every;
          maxSendLagMs = Math.max(maxSendLagMs, performance.now() - dueAt);
          const kind = only?.kind ?? cycle[sequence % cycle.length]!;
          const n = counts.get(kind)!;
          counts.set(kind, n + 1);
          const request = requestOf(kind, n, sequence);
          sequence += 1;
          onSent(dueAt);
          const answer = requestFrom(agent, request.from, `${base}${request.path}`, {
            method: request.method,
            headers: request.headers,
            ...(request.body === undefined ? {} : { body: request.body }),
            timeoutMs: TIMEOUT_MS,
          }).then(
            (status) => settle(kind, dueAt, status, performance.now() - dueAt),
            () => settle(kind, dueAt, 0, performance.now() - dueAt),
          );
          pending.add(answer);
          void answer.then(() => pending.delete(answer));
        }
        if (sent < total) {
          await new Promise((done) => setTimeout(done, Math.max(1, startedAt + sent * every - performance.now())));
        }
      }
      return { answered: Promise.all([...pending]) };
    };

    // Each kind alone at its share of the rate, after a pass that warms it: what it costs the server.
    const costs: SoakFigures['costs'] = [];
    if (options.costSeconds) {
      for (const kind of KINDS) {
        const rate = (options.rate * MIX[kind]) / cycle.length;
        const total = Math.max(1, Math.round(rate * options.costSeconds));
        await (
          await run(
            total,
            performance.now(),
            () => {},
            () => {},
            { kind, rate },
          )
        ).answered;
        const latencies: number[] = [];
        let notOk = 0;
        const before = processCpuMs(pid);
        const startedAt = performance.now();
        await (
          await run(
            total,
            startedAt,
            () => {},
            (_kind, _dueAt, status, latencyMs) => {
              latencies.push(latencyMs);
              if (status < 200 || status > 299) notOk += 1;
            },
            { kind, rate },
          )
        ).answered;
        // What the answers set going after they were sent (renders kept for the next shopper) counts too.
        await new Promise((done) => setTimeout(done, 1000));
        const cpuMs = processCpuMs(pid) - before;
        const figures = latencyOf(latencies);
        const row = {
          kind,
          rate: Math.round(rate * 10) / 10,
          requests: total,
          cpuMsPerRequest: Math.round((cpuMs / total) * 100) / 100,
          cpuPercent: Math.round((100 * cpuMs) / (performance.now() - startedAt)),
          p50Ms: figures.p50Ms,
          p95Ms: figures.p95Ms,
          notOk,
        };
        costs.push(row);
        options.onCost?.(row);
      }
    }

    // Warm-up at the full rate (the JIT, PostgreSQL's caches, the page cache, the suggestion index): not counted.
    const warmUpSeconds = Math.min(60, Math.max(30, options.minutes * 2));
    console.error(`soak: warming up for ${warmUpSeconds} s at ${options.rate} requests/s`);
    const warmUp = await run(
      Math.round(warmUpSeconds * options.rate),
      performance.now(),
      () => {},
      () => {},
    );
    await warmUp.answered;
    maxSendLagMs = 0;

    const minuteCount = Math.ceil(options.minutes);
    const perMinute = Array.from({ length: minuteCount }, () => ({
      latencies: [] as number[],
      orders: 0,
      serverErrors: 0,
      unanswered: 0,
      otherStatuses: {} as Record<string, number>,
      sent: 0,
    }));
    const perKind = new Map<Kind, { latencies: number[]; notOk: number }>(
      KINDS.map((kind) => [kind, { latencies: [], notOk: 0 }]),
    );
    const total = Math.round(options.minutes * 60 * options.rate);
    const measuredStart = performance.now();
    const minuteOf = (dueAt: number) =>
      Math.max(0, Math.min(minuteCount - 1, Math.floor((dueAt - measuredStart) / 60_000)));
    /** The last minute the schedule has reached (minuteCount when every request has gone). */
    let reachedMinute = 0;

    // RSS every 10 s (the baseline need not fall on a minute's end), and at each minute's end with the heap and CPU.
    const durationMs = options.minutes * 60_000;
    // The budget's starting point: 5 minutes in, or a sixth of the way into a shorter run.
    const baselineAtMs = Math.min(5 * 60_000, durationMs / 6);
    const samples: { atMs: number; rssMb: number }[] = [];
    const minuteMemory: {
      rssMb: number;
      heapMb: number | null;
      serverCpuPercent: number;
      machineCpuPercent: number;
    }[] = [];
    const cpuNow = () => {
      try {
        return { at: performance.now(), server: processCpuMs(pid), machine: machineCpuTicks() };
      } catch {
        return { at: performance.now(), server: 0, machine: machineCpuTicks() };
      }
    };
    let cpuBefore = cpuNow();
    let peakMb = 0;
    const minuteEnded: Promise<void>[] = [];
    const rows: SoakMinute[] = [];

    const started = run(
      total,
      measuredStart,
      (dueAt) => {
        reachedMinute = minuteOf(dueAt);
        perMinute[reachedMinute]!.sent += 1;
      },
      (kind, dueAt, status, latencyMs) => {
        const minute = perMinute[minuteOf(dueAt)]!;
        minute.latencies.push(latencyMs);
        const byKind = perKind.get(kind)!;
        byKind.latencies.push(latencyMs);
        if (kind === 'order' && status === 201) minute.orders += 1;
        if (status === 0) minute.unanswered += 1;
        else if (status >= 500) minute.serverErrors += 1;
        else if (status < 200 || status > 299) minute.otherStatuses[status] = (minute.otherStatuses[status] ?? 0) + 1;
        if (status < 200 || status > 299) byKind.notOk += 1;
      },
    );
    void started.then(() => {
      reachedMinute = minuteCount;
    });
    // A server that has gone shows 0 MB (its requests go unanswered and say the rest).
    const sampleMemory = () => {
      let memory = { rssMb: 0, peakMb: 0 };
      try {
        memory = processMemoryMb(pid);
      } catch {}
      samples.push({ atMs: performance.now() - measuredStart, rssMb: memory.rssMb });
      peakMb = Math.max(peakMb, memory.peakMb);
      return memory;
    };
    sampleMemory();
    sampler = setInterval(sampleMemory, SAMPLE_MS);
    for (let index = 0; index < minuteCount; index += 1) {
      minuteEnded.push(
        new Promise((done) => {
          minuteTimers.push(
            setTimeout(
              async () => {
                const memory = sampleMemory();
                const cpu = cpuNow();
                const percent = (part: number, whole: number) =>
                  whole > 0 ? Math.max(0, Math.round((100 * part) / whole)) : 0;
                minuteMemory[index] = {
                  rssMb: memory.rssMb,
                  heapMb: await heapMb(base, metricsToken),
                  serverCpuPercent: percent(cpu.server - cpuBefore.server, cpu.at - cpuBefore.at),
                  machineCpuPercent: percent(
                    cpu.machine.busy - cpuBefore.machine.busy,
                    cpu.machine.total - cpuBefore.machine.total,
                  ),
                };
                cpuBefore = cpu;
                done();
              },
              Math.min(durationMs, (index + 1) * 60_000),
            ),
          );
        }),
      );
    }
    // Each minute's row once its memory is read and every request due in it has its answer (or gave up).
    const reported = (async () => {
      for (let index = 0; index < minuteCount; index += 1) {
        await minuteEnded[index];
        const minute = perMinute[index]!;
        // Every request due in the minute has gone and has its answer (or has given up waiting: TIMEOUT_MS).
        while (reachedMinute <= index || minute.latencies.length < minute.sent) {
          await new Promise((done) => setTimeout(done, 100));
        }
        const sorted = minute.latencies.toSorted((a, b) => a - b);
        const row: SoakMinute = {
          minute: index + 1,
          requests: minute.latencies.length,
          orders: minute.orders,
          p50Ms: percentile(sorted, 0.5),
          p95Ms: percentile(sorted, 0.95),
          maxMs: percentile(sorted, 1),
          serverErrors: minute.serverErrors,
          unanswered: minute.unanswered,
          otherStatuses: minute.otherStatuses,
          ...minuteMemory[index]!,
        };
        rows.push(row);
        options.onMinute?.(row);
      }
    })();
    await (await started).answered;
    await reported;
    clearInterval(sampler);

    const baseline = samples.find((entry) => entry.atMs >= baselineAtMs - 1000) ?? samples.at(-1)!;
    const after = samples.filter((entry) => entry.atMs >= baseline.atMs);
    const endMb = minuteMemory.at(-1)?.rssMb ?? samples.at(-1)!.rssMb;
    return {
      products: productCount,
      database: 'postgres',
      minutes: options.minutes,
      rate: options.rate,
      ordersPerSecond: options.rate * SOAK_ORDER_SHARE,
      warmUpSeconds,
      rows,
      rss: {
        baselineAtSeconds: Math.round(baseline.atMs / 1000),
        baselineMb: baseline.rssMb,
        endMb,
        maxAfterBaselineMb: Math.max(...after.map((entry) => entry.rssMb)),
        peakMb,
      },
      totals: {
        requests: rows.reduce((sum, row) => sum + row.requests, 0),
        orders: rows.reduce((sum, row) => sum + row.orders, 0),
        serverErrors: rows.reduce((sum, row) => sum + row.serverErrors, 0),
        unanswered: rows.reduce((sum, row) => sum + row.unanswered, 0),
      },
      byKind: KINDS.map((kind) => {
        const { latencies, notOk } = perKind.get(kind)!;
        const figures = latencyOf(latencies);
        return {
          kind,
          requests: latencies.length,
          p50Ms: figures.p50Ms,
          p95Ms: figures.p95Ms,
          maxMs: figures.maxMs,
          notOk,
        };
      }),
      maxSendLagMs: Math.round(maxSendLagMs * 10) / 10,
      costs,
      serverExit:
        shop.child.exitCode === null && shop.child.signalCode === null
          ? null
          : {
              how: shop.child.signalCode ?? `exit code ${shop.child.exitCode}`,
              lastLines: shop.log().split('\n').slice(-30).join('\n'),
            },
    };
  } finally {
    clearInterval(sampler);
    for (const timer of minuteTimers) clearTimeout(timer);
    agent.destroy();
    if (shop) await stopShop(shop);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(buildDir, { recursive: true, force: true });
  }
}
