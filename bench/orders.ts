/**
 * Order placement (issue 9): orders a second and latency with N buyers placing orders at the
 * same time, each its own signed-in shopper with a fresh sessionId per order, against the real
 * server (`node server/main.ts`, production build) in its own process; and the server-rendered
 * cart page of a signed-in shopper with a few lines in the saved cart.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { count, inArray, sql } from 'drizzle-orm';
import { passesLuhn } from '../contracts/card-numbers.ts';
import { openDatabase } from '../db/client.ts';
import { products, rateLimitCounters } from '../db/schema.ts';
import { seedCatalogue } from '../db/seed/seed-catalogue.ts';
import { serverNodeFlags } from './api-load.ts';
import { buildStorefront } from './shop-server.ts';

/**
 * Issue 24, on PostgreSQL with 10 buyers: at least 500 orders/s with p95 ≤ 50 ms when the gateway
 * answers at once; with a gateway taking 300 ms (PAYMENT_LATENCY_MS), buyers of one product are
 * charged side by side, not one after another behind its row lock: at least 25 orders/s.
 */
export const ORDER_BUDGETS = { ordersPerSecond: 500, p95Ms: 50, slowGatewayMs: 300, slowGatewayOrdersPerSecond: 25 };

export interface LatencyFigures {
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface OrderFigures {
  database: string;
  buyers: number;
  /** The simulated gateway's time to answer a charge (PAYMENT_LATENCY_MS). */
  paymentLatencyMs: number;
  /** Every buyer ordered the same one product (one row every order locks), rather than 1–3 of 200. */
  oneProduct: boolean;
  durationSeconds: number;
  orders: number;
  ordersPerSecond: number;
  latency: LatencyFigures;
  /** Answers other than 201 (status → count; 0 for a request that failed outright). */
  failures: Record<string, number>;
  cart: {
    status: number;
    lines: number;
    /** How many of the saved lines' product names the rendered page shows. */
    linesShown: number;
    runs: number;
    latency: LatencyFigures;
    bytes: number;
  };
}

const STOCKED_PRODUCTS = 200;
const CART_LINES = 4;
export const EXPIRY = `12/${String((new Date().getFullYear() + 1) % 100).padStart(2, '0')}`;

function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? 0) * 10) / 10;
}

export function latencyOf(samples: number[]): LatencyFigures {
  const sorted = samples.toSorted((a, b) => a - b);
  return {
    p50Ms: percentile(sorted, 0.5),
    p95Ms: percentile(sorted, 0.95),
    p99Ms: percentile(sorted, 0.99),
    maxMs: percentile(sorted, 1),
  };
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/**
 * A copy of the storefront build for this run (others may rebuild `build/` meanwhile), inside the
 * project so the bundle finds its packages; built first when there is none. `bench` names the copy.
 */
export function privateBuild(bench = 'orders'): string {
  const source = resolve(process.env.BUILD_DIR ?? 'build');
  if (!existsSync(join(source, 'server', 'index.js'))) buildStorefront(source);
  const copy = resolve(`build-bench-${bench}-${process.pid}`);
  cpSync(source, copy, { recursive: true });
  return copy;
}

/** Seeds the catalogue and gives the products the buyers pick from plenty of stock (a million each); returns their ids. */
export async function prepareDatabase(options: {
  databaseUrl?: string | undefined;
  pgliteDir: string;
  products: number;
  /** Names the bench in the seed's log line. */
  bench?: string;
  /** Keep a catalogue an earlier run seeded (of at least `products`), rather than seeding again. */
  reuse?: boolean;
}) {
  const database = await openDatabase(
    options.databaseUrl
      ? { kind: 'postgres', url: options.databaseUrl, maxConnections: 4 }
      : { kind: 'pglite', dataDir: options.pgliteDir },
  );
  try {
    await database.migrate();
    const [seeded] = await database.db.select({ count: count() }).from(products);
    if (options.reuse && (seeded?.count ?? 0) >= options.products) {
      console.error(`${options.bench ?? 'orders'} bench: kept the ${seeded!.count} products already seeded`);
      // The last run's shoppers used up the per-address sign-up limits this run's shoppers need.
      await database.db.delete(rateLimitCounters);
    } else {
      const started = performance.now();
      await seedCatalogue(database.db, { products: options.products, mediaDir: null });
      // What autovacuum does to a freshly loaded table in the first minutes (hint bits, the
      // visibility map), done before the clock starts: a shop's database is not minutes old, and
      // a soak that began on one spent its first two minutes behind that vacuum.
      await database.db.execute(sql`VACUUM`);
      console.error(
        `${options.bench ?? 'orders'} bench: seeded ${options.products} products on ${database.kind} in ${Math.round((performance.now() - started) / 1000)} s`,
      );
    }
    const ids = (
      await database.db.select({ id: products.id }).from(products).orderBy(products.id).limit(STOCKED_PRODUCTS)
    ).map((row) => row.id);
    await database.db
      .update(products)
      .set({ stockQuantity: 1_000_000, isActive: true })
      .where(inArray(products.id, ids));
    return ids;
  } finally {
    await database.close();
  }
}

export interface RunningShop {
  child: ChildProcess;
  baseUrl: string;
  /** The last 64 KiB the server wrote (stdout and stderr). */
  log(): string;
}

export async function startShop(env: NodeJS.ProcessEnv): Promise<RunningShop> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let log = '';
  const child = spawn(process.execPath, [...serverNodeFlags(), 'server/main.ts'], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    log = (log + chunk).slice(-65_536);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the shop server exited (${child.exitCode}):\n${log}`);
    if (Date.now() > deadline) throw new Error(`the shop server did not become healthy in 120 s:\n${log}`);
    const healthy = await fetch(`${baseUrl}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { child, baseUrl, log: () => log };
    await new Promise((done) => setTimeout(done, 200));
  }
}

export async function stopShop(shop: RunningShop): Promise<void> {
  if (shop.child.exitCode !== null) return;
  const exited = new Promise((done) => shop.child.once('exit', done));
  shop.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((done) => setTimeout(done, 15_000))]);
  if (shop.child.exitCode === null) shop.child.kill('SIGKILL');
}

/** A new shopper's account: its bearer token, e-mail, and the cookies a browser keeps (the session and its hint). */
export async function register(
  baseUrl: string,
  name: string,
): Promise<{ token: string; email: string; cookie: string }> {
  const email = `${name}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const response = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'Bench',
      lastName: 'Buyer',
      email,
      password: 'a-bench-password-9',
      phoneNumber: '0412 345 678',
      address: { addressLine1: '1 Test St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'Australia' },
    }),
  });
  if (response.status !== 201)
    throw new Error(`bench registration answered ${response.status}: ${await response.text()}`);
  const { token } = (await response.json()) as { token: string };
  const cookie = response.headers
    .getSetCookie()
    .map((value) => value.split(';')[0]!)
    .join('; ');
  return { token, email, cookie };
}

/**
 * Each buyer pays with a card of their own from a loopback address of their own, as real shoppers
 * do: the caps on card attempts (issue 21: 3 per card, 10 per address an hour) count attempts as
 * they start. PAYMENT_DECLINE_RATE is 0, so every valid card pays.
 */
export function buyerCard(index: number): string {
  const body = `4111${String(index + 1).padStart(11, '0')}`;
  const check = '0123456789'.split('').find((digit) => passesLuhn(body + digit)) ?? '0';
  return body + check;
}

/**
 * A request from one loopback address over the agent's kept-alive connections (fetch cannot
 * choose the address it sends from); resolves with the status once the body has been read
 * (and thrown away), rejects when no answer comes (or none within timeoutMs).
 */
export function requestFrom(
  agent: Agent,
  from: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    // A timer of its own, not request.setTimeout: that one starts once the socket has connected,
    // and a server too busy to accept leaves the connect waiting on SYN retries for two minutes.
    const timer = options.timeoutMs
      ? setTimeout(() => request.destroy(new Error(`no answer in ${options.timeoutMs} ms`)), options.timeoutMs)
      : undefined;
    const done = (status: number) => {
      clearTimeout(timer);
      resolve(status);
    };
    const fail = (error: unknown) => {
      clearTimeout(timer);
      reject(error);
    };
    const request = httpRequest(
      url,
      { method: options.method ?? 'GET', agent, localAddress: from, headers: options.headers },
      (response) => {
        response.resume();
        response.on('end', () => done(response.statusCode ?? 0));
        response.on('error', fail);
      },
    );
    request.on('error', fail);
    request.end(options.body);
  });
}

/** POST JSON with a bearer token from one loopback address. */
function postFrom(agent: Agent, from: string, url: string, token: string, body: string): Promise<number> {
  return requestFrom(agent, from, url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body,
  });
}

/**
 * The body of POST /api/orders for a buyer: 1–3 lines from productIds (picked by the sequence
 * number), the buyer's own approved card, a fresh sessionId (the idempotency key).
 */
export function orderBody(options: {
  sequence: number;
  tag: string;
  email: string;
  card: string;
  productIds: number[];
}): string {
  const { sequence, productIds } = options;
  const lineCount = 1 + (sequence % 3);
  const lines = Array.from({ length: lineCount }, (_, index) => ({
    productId: productIds[(sequence * 7919 + index * 104_729) % productIds.length]!,
    quantity: 1 + ((sequence + index) % 2),
  }));
  return JSON.stringify({
    sessionId: `session_${options.tag}_${sequence}_${Date.now()}`,
    userEmail: options.email,
    orderItems: lines,
    paymentMethod: 'credit_card',
    cardData: { Number: options.card, Expiry: EXPIRY, Cvc: '123', Name: 'Bench Buyer' },
    shippingAddress: {
      fullName: 'Bench Buyer',
      addressLine1: '1 Test St',
      city: 'Sydney',
      state: 'NSW',
      postalCode: '2000',
      country: 'Australia',
    },
  });
}

/** The loopback address buyer `index` sends from: one of its own (127.0.10.1, 127.0.10.2, …). */
export function buyerAddress(index: number): string {
  return `127.0.${Math.floor(index / 250) + 10}.${(index % 250) + 1}`;
}

/** Buyers place orders back to back until the deadline; returns each order's latency and the failures. */
async function placeOrders(options: {
  baseUrl: string;
  buyers: { token: string; email: string }[];
  productIds: number[];
  durationMs: number;
  tag: string;
}): Promise<{ latencies: number[]; failures: Record<string, number>; elapsedMs: number }> {
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  let sequence = 0;
  const started = performance.now();
  const deadline = started + options.durationMs;
  await Promise.all(
    options.buyers.map(async (buyer, index) => {
      const agent = new Agent({ keepAlive: true });
      const from = buyerAddress(index);
      while (performance.now() < deadline) {
        sequence += 1;
        const body = orderBody({
          sequence,
          tag: options.tag,
          email: buyer.email,
          card: buyerCard(index),
          productIds: options.productIds,
        });
        const sent = performance.now();
        let status = 0;
        try {
          status = await postFrom(agent, from, `${options.baseUrl}/api/orders`, buyer.token, body);
        } catch {
          status = 0;
        }
        if (status === 201) latencies.push(performance.now() - sent);
        else failures[String(status)] = (failures[String(status)] ?? 0) + 1;
      }
      agent.destroy();
    }),
  );
  return { latencies, failures, elapsedMs: performance.now() - started };
}

/** GET /cart of a signed-in shopper (session cookie) with CART_LINES lines in the saved cart, one at a time. */
async function measureCartPage(baseUrl: string, productIds: number[], runs: number) {
  const shopper = await register(baseUrl, 'bench-cart');
  const saved = await fetch(`${baseUrl}/api/cart`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${shopper.token}` },
    body: JSON.stringify({
      items: productIds.slice(0, CART_LINES).map((productId, index) => ({ productId, quantity: index + 1 })),
    }),
  });
  if (!saved.ok) throw new Error(`PUT /api/cart answered ${saved.status}: ${await saved.text()}`);
  const names = await Promise.all(
    productIds.slice(0, CART_LINES).map(async (id) => {
      const product = (await (await fetch(`${baseUrl}/api/products/${id}`)).json()) as { name: string };
      return product.name;
    }),
  );
  const escapeHtml = (text: string) =>
    text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;').replaceAll("'", '&#x27;');
  const get = async () => {
    const sent = performance.now();
    const response = await fetch(`${baseUrl}/cart`, {
      headers: { cookie: `harbour_session=${shopper.token}`, accept: 'text/html' },
    });
    const html = await response.text();
    return {
      ms: performance.now() - sent,
      status: response.status,
      bytes: Buffer.byteLength(html),
      linesShown: names.filter((name) => html.includes(escapeHtml(name)) || html.includes(name)).length,
    };
  };
  for (let index = 0; index < 5; index += 1) await get();
  const samples: number[] = [];
  let last = { ms: 0, status: 0, bytes: 0, linesShown: 0 };
  for (let index = 0; index < runs; index += 1) {
    last = await get();
    samples.push(last.ms);
  }
  return {
    status: last.status,
    lines: CART_LINES,
    linesShown: last.linesShown,
    runs,
    latency: latencyOf(samples),
    bytes: last.bytes,
  };
}

/**
 * Starts the shop on a freshly seeded database (PostgreSQL at databaseUrl, else PGlite in a
 * temporary folder), warms up, then measures order placement with `connections` buyers for
 * durationSeconds, then the cart page.
 */
export async function benchOrders(options: {
  databaseUrl?: string;
  connections: number;
  durationSeconds: number;
  products?: number;
  /** PAYMENT_LATENCY_MS for the shop (default 0). */
  paymentLatencyMs?: number;
  /** Every order is of one product. */
  oneProduct?: boolean;
}): Promise<OrderFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'harbour-bench-orders-'));
  const buildDir = privateBuild();
  let shop: RunningShop | undefined;
  try {
    const stockedIds = await prepareDatabase({
      databaseUrl: options.databaseUrl,
      pgliteDir: join(dataDir, 'pglite'),
      products: options.products ?? 1500,
    });
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
      PAYMENT_LATENCY_MS: String(options.paymentLatencyMs ?? 0),
    };
    const productIds = options.oneProduct ? stockedIds.slice(0, 1) : stockedIds;
    delete env.DATABASE_URL;
    delete env.SMTP_URL;
    delete env.REDIS_URL;
    if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
    shop = await startShop(env);

    const buyers: { token: string; email: string }[] = [];
    for (let index = 0; index < options.connections; index += 1)
      buyers.push(await register(shop.baseUrl, 'bench-buyer'));
    const common = { baseUrl: shop.baseUrl, buyers, productIds };
    await placeOrders({ ...common, durationMs: 3000, tag: 'warmup' });
    const run = await placeOrders({ ...common, durationMs: options.durationSeconds * 1000, tag: 'measured' });
    const cart = await measureCartPage(shop.baseUrl, stockedIds, 40);
    return {
      database: options.databaseUrl ? 'postgres' : 'pglite',
      buyers: buyers.length,
      paymentLatencyMs: options.paymentLatencyMs ?? 0,
      oneProduct: options.oneProduct ?? false,
      durationSeconds: options.durationSeconds,
      orders: run.latencies.length,
      ordersPerSecond: Math.round((run.latencies.length / run.elapsedMs) * 10_000) / 10,
      latency: latencyOf(run.latencies),
      failures: run.failures,
      cart,
    };
  } finally {
    if (shop) await stopShop(shop);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(buildDir, { recursive: true, force: true });
  }
}
