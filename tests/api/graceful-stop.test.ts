/**
 * The graceful stop of issue 23: the real server (`node server/main.ts`) on its own embedded
 * database gets SIGTERM while an order is being placed (its card charge slowed to 2 s with
 * PAYMENT_LATENCY_MS). Readiness answers 503 at once, so a balancer stops sending;
 * other requests are still served for SHUTDOWN_GRACE_SECONDS (1 s here); then the server stops
 * taking requests, the order completes with 201, the database closes and the process exits 0
 * with the order in the database, paid.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { orders, products } from '../../db/schema.ts';
import { seedCatalogue } from '../../db/seed/seed-catalogue.ts';
import { privateBuild } from '../helpers/private-build.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CHARGE_MS = 2_000;
const GRACE_SECONDS = 1;
const EXPIRY = `07/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface Answer {
  status: number;
  text: string;
  at: number;
}

/** One request on a connection of its own (no keep-alive pool to confuse with the server's closing). */
function send(baseUrl: string, method: 'GET' | 'POST', path: string, options: { token?: string; body?: unknown } = {}) {
  return new Promise<Answer>((done, fail) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const request = httpRequest(
      `${baseUrl}${path}`,
      {
        method,
        agent: false,
        timeout: 20_000,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', fail);
        response.on('end', () =>
          done({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), at: Date.now() }),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', fail);
    request.end(payload);
  });
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

describe('SIGTERM: readiness 503 first, the order in flight completes, the process exits 0', () => {
  let dataDir: string;
  let buildDir: string;
  let child: ChildProcess | undefined;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  let baseUrl: string;
  let log = '';
  let productId: number;

  beforeAll(async () => {
    buildDir = await privateBuild('graceful-stop');
    dataDir = mkdtempSync(join(tmpdir(), 'harbour-stop-'));
    const direct = await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
    try {
      await direct.migrate();
      await seedCatalogue(direct.db, { products: 20, mediaDir: null });
      const [first] = await direct.db.select({ id: products.id }).from(products).orderBy(products.id).limit(1);
      productId = first?.id ?? 0;
      await direct.db.update(products).set({ stockQuantity: 50, isActive: true }).where(eq(products.id, productId));
    } finally {
      await direct.close();
    }
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      BUILD_DIR: buildDir,
      MAIL_OUTBOX_DIR: join(dataDir, 'outbox'),
      LOG_LEVEL: 'info',
      AUTO_SEED: 'false',
      PAYMENT_DECLINE_RATE: '0',
      PAYMENT_LATENCY_MS: String(CHARGE_MS),
      SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
    };
    for (const name of ['DATABASE_URL', 'SMTP_URL', 'REDIS_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'METRICS_PORT']) {
      delete env[name];
    }
    const started = spawn(process.execPath, ['server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    started.stdout?.on('data', (chunk) => {
      log += chunk;
    });
    started.stderr?.on('data', (chunk) => {
      log += chunk;
    });
    exited = new Promise((done) => started.once('exit', (code, signal) => done({ code, signal, at: Date.now() })));
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`the server exited (${started.exitCode}) on start:\n${log}`);
      if (Date.now() > deadline) throw new Error(`the server was not ready within 90 s:\n${log}`);
      const ready = await send(baseUrl, 'GET', '/api/health').then(
        (answer) => answer.status === 200,
        () => false,
      );
      if (ready) break;
      await sleep(100);
    }
  }, 180_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (buildDir) rmSync(buildDir, { recursive: true, force: true });
  });

  it('answers 503 on readiness at once, serves the grace, completes the order, closes and exits 0', async () => {
    const email = 'stopping@example.com';
    const registered = await send(baseUrl, 'POST', '/api/auth/register', {
      body: {
        firstName: 'Grace',
        lastName: 'Stop',
        email,
        password: 'Graceful-Stop-Pass-42',
        PhoneNumber: '0412 345 678',
        address: {
          addressLine1: '1 Quay Street',
          city: 'Sydney',
          state: 'NSW',
          postalCode: '2000',
          country: 'Australia',
        },
      },
    });
    expect(registered.status, registered.text).toBe(201);
    const { token } = JSON.parse(registered.text) as { token: string };

    const order = send(baseUrl, 'POST', '/api/orders', {
      token,
      body: {
        sessionId: 'graceful-stop-order',
        userEmail: email,
        orderItems: [{ productId, productName: 'x', quantity: 2, unitPrice: 0.01, imageUrl: '/x.png' }],
        paymentMethod: 'credit_card',
        paymentMethodId: null,
        cardData: { Number: '4242424242424242', Expiry: EXPIRY, Cvc: '123', Name: 'Grace Stop' },
        shippingAddress: {
          fullName: 'Grace Stop',
          addressLine1: '1 Quay Street',
          city: 'Sydney',
          state: 'NSW',
          postalCode: '2000',
          country: 'Australia',
        },
      },
    });
    // The order is now inside its slowed card charge.
    await sleep(400);
    const signalledAt = Date.now();
    child?.kill('SIGTERM');
    // The signal reaches the process's loop a moment later; a probe sent in the same millisecond could
    // overtake it (and on the embedded database wait a second behind the order's transaction).
    await sleep(100);

    // A second SIGTERM (an impatient supervisor) changes nothing: still the same graceful stop.
    child?.kill('SIGTERM');
    const readiness = await send(baseUrl, 'GET', '/api/health');
    expect(readiness.status).toBe(503);
    expect(JSON.parse(readiness.text)).toMatchObject({ status: 'stopping' });
    expect(readiness.at - signalledAt).toBeLessThan(500);
    // Within the grace the process still serves whatever a balancer has not yet moved elsewhere.
    const during = await send(baseUrl, 'GET', `/api/products/${productId}`);
    expect(during.status).toBe(200);

    const placed = await order;
    expect(placed.status, `${placed.text}\n${log}`).toBe(201);
    // It finished after the server stopped taking requests (the grace ended first): close waited for it.
    expect(placed.at - signalledAt).toBeGreaterThan(GRACE_SECONDS * 1000);
    expect(log).toContain('waiting for those in flight');

    const exit = await exited;
    expect(exit, log).toEqual({ code: 0, signal: null, at: expect.any(Number) });
    expect(exit.at).toBeGreaterThanOrEqual(placed.at);
    await expect(send(baseUrl, 'GET', '/api/health')).rejects.toThrow(/ECONNREFUSED/);

    // The database was closed cleanly and holds the order, paid.
    const direct = await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
    try {
      const rows = await direct.db
        .select({ status: orders.status, paymentStatus: orders.paymentStatus })
        .from(orders)
        .where(eq(orders.idempotencyKey, 'graceful-stop-order'));
      expect(rows).toEqual([{ status: 'Processing', paymentStatus: 'Paid' }]);
    } finally {
      await direct.close();
    }
  }, 60_000);
});
