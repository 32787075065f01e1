import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../contracts/account.ts';
import type { Order } from '../../contracts/orders.ts';
import { products } from '../../db/schema.ts';
import { createBackupJob } from '../../server/domain/backups.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/*
 * GET /metrics (issue 23): Prometheus text with the shop's own counters beside the process's
 * (heap, RSS, event-loop delay). Not open to the internet: on the shop's port only for the
 * bearer of METRICS_TOKEN (401 otherwise, whoever is signed in; 404 when no token is set), and
 * on METRICS_PORT only on 127.0.0.1.
 */

const TOKEN = 'metrics-test-token-0123456789';
const PASSWORD = 'Harbour-Metrics-Pass-42';
const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const APPROVE = '4242 4242 4242 4242';
const DECLINE = '4000 0000 0000 0002';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0';

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

let sequence = 0;
const nextIp = () => {
  sequence += 1;
  return `10.73.${(sequence >> 8) & 255}.${sequence & 255}`;
};

/** The value of one sample: `name{labels} value`, the labels given in the order prom-client writes them. */
function sample(text: string, name: string, labels = ''): number {
  const prefix = labels ? `${name}{${labels}} ` : `${name} `;
  const line = text.split('\n').find((candidate) => candidate.startsWith(prefix));
  return line === undefined ? Number.NaN : Number(line.slice(prefix.length));
}

/** A sample that may not be written yet (a counter no request has moved): 0 then. */
const count = (text: string, name: string, labels = '') => {
  const value = sample(text, name, labels);
  return Number.isNaN(value) ? 0 : value;
};

describe('GET /metrics with METRICS_TOKEN', () => {
  let shop: TestShop;
  let customer: { token: string; email: string };
  let adminToken: string;
  let productId: number;

  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, options: { token?: string; body?: object } = {}) =>
    shop.app.inject({
      method,
      url,
      remoteAddress: nextIp(),
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
      ...(options.body ? { payload: options.body } : {}),
    });

  async function scrape(): Promise<string> {
    const answer = await inject('GET', '/metrics', { token: TOKEN });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.body;
  }

  function orderBody(card: string) {
    return {
      sessionId: `metrics-${nextIp()}`,
      userEmail: customer.email,
      orderItems: [{ productId, productName: 'x', quantity: 1, unitPrice: 0.01, imageUrl: '/x.png' }],
      paymentMethod: 'credit_card',
      paymentMethodId: null,
      cardData: { Number: card, Expiry: EXPIRY, Cvc: '123', Name: 'Meta Trix' },
      shippingAddress: {
        fullName: 'Meta Trix',
        addressLine1: '1 Gauge Street',
        city: 'Sydney',
        state: 'NSW',
        postalCode: '2000',
        country: 'Australia',
      },
    };
  }

  beforeAll(async () => {
    shop = await createTestShop('pglite', {
      products: 40,
      storefront: true,
      env: {
        METRICS_TOKEN: TOKEN,
        PAYMENT_DECLINE_RATE: '1',
        ADMIN_EMAIL: 'owner@metrics.example',
        ADMIN_PASSWORD: PASSWORD,
      },
    });
    const email = 'customer@metrics.example';
    const registered = await inject('POST', '/api/auth/register', {
      body: {
        firstName: 'Meta',
        lastName: 'Trix',
        email,
        password: PASSWORD,
        PhoneNumber: '0412 345 678',
        address: {
          addressLine1: '1 Gauge Street',
          city: 'Sydney',
          state: 'NSW',
          postalCode: '2000',
          country: 'Australia',
        },
      },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    customer = { token: (registered.json() as { token: string; user: User }).token, email };
    const admin = await inject('POST', '/api/auth/login', {
      body: { email: 'owner@metrics.example', password: PASSWORD },
    });
    expect(admin.statusCode, admin.body).toBe(200);
    adminToken = (admin.json() as { token: string }).token;
    const [row] = await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id).limit(1);
    productId = row?.id ?? 0;
    await shop.database.db.execute(
      sql`update products set stock_quantity = 100, is_active = true where id = ${productId}`,
    );
    shop.app.services.catalog.invalidate();
  });
  afterAll(async () => {
    await shop?.app.services.mailer.idle();
    await shop?.close();
  });

  it('refuses anyone without the token, signed in or not, with 401 and no figures', async () => {
    const answers: LightMyRequestResponse[] = [
      await inject('GET', '/metrics'),
      await inject('GET', '/metrics', { token: 'metrics-test-token-0123456780' }),
      await inject('GET', '/metrics', { token: customer.token }),
      await inject('GET', '/metrics', { token: adminToken }),
      await shop.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: TOKEN } }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(answer.json()).toEqual({ message: 'A bearer token is needed for the metrics' });
      expect(answer.body).not.toContain('harbour_');
    }
  });

  it('answers Prometheus text with every named metric', async () => {
    const answer = await inject('GET', '/metrics', { token: TOKEN });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answer.headers['cache-control']).toBe('no-store');
    for (const name of [
      'harbour_http_requests_total',
      'harbour_http_request_duration_seconds',
      'harbour_orders_placed_total',
      'harbour_orders_declined_total',
      'harbour_refunds_total',
      'harbour_refunded_cents_total',
      'harbour_sign_in_failures_total',
      'harbour_cache_requests_total',
      'harbour_last_backup_timestamp_seconds',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect(answer.body).toContain(`# TYPE ${name} `);
    }
    expect(sample(answer.body, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
  });

  it('counts requests by route pattern and status, never by the raw URL', async () => {
    const before = await scrape();
    const labels = 'method="GET",route="/api/products/:id",status="200"';
    await inject('GET', `/api/products/${productId}`);
    await inject('GET', `/api/products/${productId}`);
    await inject('GET', '/api/products/999999');
    await inject('GET', '/api/no-such-thing-here');
    const after = await scrape();
    expect(count(after, 'harbour_http_requests_total', labels)).toBe(
      count(before, 'harbour_http_requests_total', labels) + 2,
    );
    expect(
      count(after, 'harbour_http_requests_total', 'method="GET",route="/api/products/:id",status="404"'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      count(after, 'harbour_http_request_duration_seconds_count', 'method="GET",route="/api/products/:id"'),
    ).toBeGreaterThanOrEqual(3);
    expect(after).not.toContain(`/api/products/${productId}"`);
    expect(after).not.toContain('/api/products/999999');
    expect(after).not.toContain('no-such-thing-here');
  });

  it('moves the order, decline, refund and sign-in failure counters', async () => {
    const before = await scrape();
    const placed = await inject('POST', '/api/orders', { token: customer.token, body: orderBody(APPROVE) });
    expect(placed.statusCode, placed.body).toBe(201);
    const declined = await inject('POST', '/api/orders', { token: customer.token, body: orderBody(DECLINE) });
    expect(declined.statusCode, declined.body).toBe(402);
    const order = (placed.json() as { order: Order }).order;
    const cancelled = await inject('PUT', `/api/orders/${order.id}/cancel`, { token: customer.token });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const failed = await inject('POST', '/api/auth/login', {
      body: { email: customer.email, password: 'Not-The-Password-1' },
    });
    expect(failed.statusCode).toBe(401);
    const after = await scrape();
    expect(count(after, 'harbour_orders_placed_total') - count(before, 'harbour_orders_placed_total')).toBe(1);
    expect(count(after, 'harbour_orders_declined_total') - count(before, 'harbour_orders_declined_total')).toBe(1);
    expect(count(after, 'harbour_refunds_total') - count(before, 'harbour_refunds_total')).toBe(1);
    expect(count(after, 'harbour_refunded_cents_total') - count(before, 'harbour_refunded_cents_total')).toBe(
      Math.round(order.total * 100),
    );
    expect(count(after, 'harbour_sign_in_failures_total') - count(before, 'harbour_sign_in_failures_total')).toBe(1);
    const status = (code: number) => `method="POST",route="/api/orders",status="${code}"`;
    expect(count(after, 'harbour_http_requests_total', status(201))).toBe(
      count(before, 'harbour_http_requests_total', status(201)) + 1,
    );
    expect(count(after, 'harbour_http_requests_total', status(402))).toBe(
      count(before, 'harbour_http_requests_total', status(402)) + 1,
    );
  });

  it('counts page-cache, search-answer and catalogue-read hits and misses', async () => {
    const cache = (text: string, name: string, outcome: 'hit' | 'miss') =>
      count(text, 'harbour_cache_requests_total', `cache="${name}",outcome="${outcome}"`);
    const before = await scrape();
    const term = `drill${Date.now() % 1000}`;
    await inject('GET', `/api/search?q=${term}`);
    await inject('GET', `/api/search?q=${term}`);
    await inject('GET', '/api/brands');
    await inject('GET', '/api/brands');
    // The page is kept once its compression is done, a moment after the first answer.
    const page = `/product/${productId}?metrics=${Date.now()}`;
    let after = before;
    for (let attempt = 0; attempt < 40; attempt += 1) {
      const answer = await shop.app.inject({ method: 'GET', url: page, headers: { 'user-agent': BROWSER } });
      expect(answer.statusCode).toBe(200);
      after = await scrape();
      if (cache(after, 'page', 'hit') > cache(before, 'page', 'hit')) break;
      await new Promise((done) => setTimeout(done, 50));
    }
    expect(cache(after, 'page', 'miss')).toBeGreaterThan(cache(before, 'page', 'miss'));
    expect(cache(after, 'page', 'hit')).toBeGreaterThan(cache(before, 'page', 'hit'));
    expect(cache(after, 'search', 'miss')).toBe(cache(before, 'search', 'miss') + 1);
    expect(cache(after, 'search', 'hit')).toBe(cache(before, 'search', 'hit') + 1);
    expect(cache(after, 'catalogue', 'miss')).toBeGreaterThan(cache(before, 'catalogue', 'miss'));
    expect(cache(after, 'catalogue', 'hit')).toBeGreaterThan(cache(before, 'catalogue', 'hit'));
  });

  it('reports the last successful backup as a Unix time: the one the backups know of', async () => {
    // The backup job looks in BACKUP_DIR: a backup taken an hour ago is not due again, and is the last one.
    const backupDir = mkdtempSync(join(tmpdir(), 'harbour-metrics-backups-'));
    try {
      writeFileSync(join(backupDir, 'harbour-backup-2026-11-28T03-00-00Z.tar.gz'), 'not read');
      const job = createBackupJob({
        settings: { backupDir, key: undefined, keep: 7, mediaDir: backupDir },
        source: { database: undefined, databaseUrl: undefined },
        everyHours: 24,
      });
      expect(await job.runOnce(new Date('2026-11-28T04:00:00Z'))).toBeUndefined();
    } finally {
      rmSync(backupDir, { recursive: true, force: true });
    }
    expect(sample(await scrape(), 'harbour_last_backup_timestamp_seconds')).toBe(
      Date.parse('2026-11-28T03:00:00Z') / 1000,
    );
  });
});

describe('GET /metrics without METRICS_TOKEN, with METRICS_PORT', () => {
  let shop: TestShop;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    shop = await createTestShop('pglite', { products: 8, env: { METRICS_PORT: String(port) } });
  });
  afterAll(async () => {
    await shop?.close();
  });

  it('is 404 on the shop’s own port, token or not', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const answer = await shop.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(answer.statusCode).toBe(404);
      expect(answer.body).not.toContain('harbour_');
    }
  });

  it('serves the metrics on 127.0.0.1:METRICS_PORT without a token, and nothing else there', async () => {
    const answer = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await answer.text()).toContain('# TYPE harbour_orders_placed_total counter');
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it('does not listen on any other address (127.0.0.2 is loopback too, but not 127.0.0.1)', async () => {
    const outcome = await new Promise<string>((done) => {
      const socket = connect({ host: '127.0.0.2', port });
      socket.once('connect', () => {
        socket.destroy();
        done('connected');
      });
      socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
    });
    expect(outcome).toBe('ECONNREFUSED');
  });
});

const postgresAvailable = await isPostgresReachable();
if (!postgresAvailable && !process.env.CI)
  console.warn('metrics pool test on PostgreSQL skipped: no PostgreSQL reachable.');

describe.skipIf(!postgresAvailable && !process.env.CI)('the database pool on PostgreSQL', () => {
  let shop: TestShop;

  beforeAll(async () => {
    shop = await createTestShop('postgres', { products: 8, env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await shop?.close();
  });

  const scrape = async () =>
    (await shop.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;

  it('reports the pool’s size, the connections in use and what waits beyond them', async () => {
    const idle = await scrape();
    // The test shop's pool has 5 connections (tests/helpers/test-app.ts).
    expect(sample(idle, 'harbour_db_pool_size')).toBe(5);
    expect(sample(idle, 'harbour_db_pool_in_use')).toBe(0);
    expect(sample(idle, 'harbour_db_pool_waiting')).toBe(0);
    const slow = [
      // Drizzle's queries run when awaited: `then` starts them now.
      ...Array.from({ length: 5 }, () => shop.database.db.execute(sql`select pg_sleep(0.6)`).then(() => undefined)),
      ...Array.from({ length: 2 }, () =>
        shop.database.db.transaction(async (tx) => {
          await tx.execute(sql`select pg_sleep(0.6)`);
        }),
      ),
    ];
    await new Promise((done) => setTimeout(done, 150));
    const busy = await scrape();
    expect(sample(busy, 'harbour_db_pool_in_use')).toBe(5);
    expect(sample(busy, 'harbour_db_pool_waiting')).toBe(2);
    await Promise.all(slow);
    const after = await scrape();
    expect(sample(after, 'harbour_db_pool_in_use')).toBe(0);
    expect(sample(after, 'harbour_db_pool_waiting')).toBe(0);
  });
});
