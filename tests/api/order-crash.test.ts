/**
 * The crash test of issue 9: the real server (`node server/main.ts`) is killed with SIGKILL
 * while several clients place orders, 10 times, on PGlite (a data directory on disk) and on
 * PostgreSQL (a scratch database). Proven after the restarts:
 *
 * - every order that was answered `succeeded` is there, Processing and Paid, with its lines;
 * - a request the kill cut off, sent again with the same sessionId after the restart, answers
 *   the same order if it had committed (200) or places it now (201), never a second one;
 * - so the database holds exactly the answered orders, each with its own charge (transaction id),
 *   none half-made (no order without lines, none unpaid);
 * - no charge without its order: every approval in the payment simulator's ledger is one
 *   order's payment (a reservation a kill left is settled by the retry or the sweep, issue 24);
 * - each product's stock equals its starting stock minus what the orders that are not
 *   Cancelled hold.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { orderItems, orders, products } from '../../db/schema.ts';
import { seedCatalogue } from '../../db/seed/seed-catalogue.ts';
import type { LedgerEntry } from '../../server/domain/payments.ts';
import { cardFor } from '../helpers/cards.ts';
import { createScratchDatabase, isPostgresReachable } from '../helpers/postgres.ts';
import { privateBuild } from '../helpers/private-build.ts';

const postgresAvailable = await isPostgresReachable();
if (!postgresAvailable) console.warn('order crash test on PostgreSQL skipped: no PostgreSQL reachable.');

const KILLS = 10;
const CLIENTS = 6;
const START_STOCK = 100_000;
const PRODUCTS_IN_PLAY = 4;
const ROOT = resolve(import.meta.dirname, '../..');
const EXPIRY = `12/${String((new Date().getFullYear() + 1) % 100).padStart(2, '0')}`;

interface Line {
  productId: number;
  quantity: number;
}

interface Buyer {
  email: string;
  token: string;
  /** The loopback address this shopper sends from, and the card they pay with: each their own. */
  address: string;
  card: string;
}

/** A JSON request sent from one loopback address (fetch cannot choose the address it sends from). */
function send(
  baseUrl: string,
  from: string,
  method: 'POST' | 'GET',
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; json: () => unknown; text: string }> {
  return new Promise((done, fail) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const request = httpRequest(
      `${baseUrl}${path}`,
      {
        method,
        localAddress: from,
        agent: false,
        timeout: 30_000,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', fail);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          done({ status: response.statusCode ?? 0, text, json: () => JSON.parse(text) });
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', fail);
    request.end(payload);
  });
}

interface PlacedOrder {
  buyer: Buyer;
  sessionId: string;
  orderId: number;
  lines: Line[];
  /** How the answer came: at once, or on sending it again after a kill cut it off. */
  via: 'answered' | 'replayed-201' | 'replayed-200';
}

interface CutOff {
  buyer: Buyer;
  body: ReturnType<typeof orderBody>;
}

function orderBody(buyer: Buyer, sessionId: string, lines: Line[]) {
  return {
    sessionId,
    userEmail: buyer.email,
    orderItems: lines,
    paymentMethod: 'credit_card',
    cardData: { Number: buyer.card, Expiry: EXPIRY, Cvc: '321', Name: 'Crash Buyer' },
    shippingAddress: {
      fullName: 'Crash Buyer',
      addressLine1: '9 Power Cut Road',
      city: 'Hobart',
      state: 'TAS',
      postalCode: '7000',
      country: 'Australia',
    },
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

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const randomBetween = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

/** The real server process, restarted on the same database after each kill. */
class ShopProcess {
  child: ChildProcess | undefined;
  baseUrl = '';
  log = '';
  starts = 0;

  private readonly env: NodeJS.ProcessEnv;

  constructor(env: NodeJS.ProcessEnv) {
    this.env = env;
  }

  async start(): Promise<void> {
    const port = await freePort();
    this.baseUrl = `http://127.0.0.1:${port}`;
    this.starts += 1;
    this.log += `\n--- start ${this.starts} on port ${port}\n`;
    const child = spawn(process.execPath, ['server/main.ts'], {
      cwd: ROOT,
      env: { ...this.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (chunk) => {
      this.log += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      this.log += chunk;
    });
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) on start:${this.tail()}`);
      if (Date.now() > deadline) throw new Error(`the server was not healthy within 90 s:${this.tail()}`);
      const healthy = await fetch(`${this.baseUrl}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) return;
      await sleep(100);
    }
  }

  async kill(signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill(signal);
    await Promise.race([exited, sleep(15_000)]);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }

  tail(): string {
    return `\n${this.log.slice(-4000)}`;
  }
}

const kinds = [
  { kind: 'pglite' as const, skip: false },
  { kind: 'postgres' as const, skip: !postgresAvailable },
];

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`orders survive the server being killed on ${kind}`, () => {
    let dataDir: string;
    let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
    let shop: ShopProcess;
    let startStock: Map<number, number>;
    let productIds: number[];
    let buildDir: string | undefined;

    /** The test's own connection to the database, opened only while no server holds a PGlite directory. */
    async function openDirect(): Promise<DatabaseHandle> {
      return scratch
        ? openDatabase({ kind: 'postgres', url: scratch.url, maxConnections: 2 })
        : openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
    }

    beforeAll(async () => {
      buildDir = await privateBuild('order-crash');
      dataDir = mkdtempSync(join(tmpdir(), `harbour-crash-${kind}-`));
      if (kind === 'postgres') scratch = await createScratchDatabase();
      // Seed and stock the catalogue before the first start (the server does not seed a full catalogue).
      const direct = await openDirect();
      try {
        await direct.migrate();
        await seedCatalogue(direct.db, { products: 30, mediaDir: null });
        const picked = await direct.db
          .select({ id: products.id })
          .from(products)
          .orderBy(products.id)
          .limit(PRODUCTS_IN_PLAY);
        productIds = picked.map((product) => product.id);
        await direct.db
          .update(products)
          .set({ stockQuantity: START_STOCK, isActive: true })
          .where(inArray(products.id, productIds));
        startStock = new Map(productIds.map((id) => [id, START_STOCK]));
      } finally {
        await direct.close();
      }
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
        DATABASE_POOL_SIZE: '10',
      };
      delete env.DATABASE_URL;
      delete env.SMTP_URL;
      delete env.REDIS_URL;
      delete env.ADMIN_EMAIL;
      delete env.ADMIN_PASSWORD;
      if (scratch) env.DATABASE_URL = scratch.url;
      shop = new ShopProcess(env);
    }, 600_000);

    afterAll(async () => {
      await shop?.kill('SIGTERM');
      await scratch?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      if (buildDir) rmSync(buildDir, { recursive: true, force: true });
    });

    it(`keeps every answered order and the stock they hold through ${KILLS} SIGKILLs`, async () => {
      const started = performance.now();
      await shop.start();

      // A few shoppers, registered through the API as real ones are, each from an address of its
      // own; after every kill each client goes on as a new one (see cardFor).
      const buyers: Buyer[] = [];
      async function registerShoppers(life: number): Promise<Buyer[]> {
        const made: Buyer[] = [];
        for (let index = 0; index < CLIENTS; index += 1) {
          const address = `127.0.${life + 1}.${index + 1}`;
          const email = `crash.${kind}.${life}.${index}.${Date.now()}@example.com`;
          const response = await send(shop.baseUrl, address, 'POST', '/api/auth/register', {
            body: {
              firstName: 'Crash',
              lastName: `Buyer ${index}`,
              email,
              password: 'crash-test-password-7',
              phoneNumber: '0412 345 678',
              address: {
                addressLine1: '9 Power Cut Road',
                city: 'Hobart',
                state: 'TAS',
                postalCode: '7000',
                country: 'Australia',
              },
            },
          });
          expect(response.status, response.text).toBe(201);
          const buyer = {
            email,
            token: (response.json() as { token: string }).token,
            address,
            card: cardFor(life * CLIENTS + index + 1),
          };
          made.push(buyer);
          buyers.push(buyer);
        }
        return made;
      }
      let shoppers = await registerShoppers(0);

      const placed: PlacedOrder[] = [];
      const cutOff: CutOff[] = [];
      const unexpected: string[] = [];
      let up = true;
      let upAgain: () => void = () => {};
      let serverUp = Promise.resolve();
      let stopping = false;
      let sequence = 0;
      /** Requests sent and not yet settled (answered, or failed because the server died). */
      let inFlight = 0;

      const post = (buyer: Buyer, body: unknown) =>
        send(shop.baseUrl, buyer.address, 'POST', '/api/orders', { token: buyer.token, body });

      async function client(slot: number): Promise<void> {
        while (!stopping) {
          if (!up) {
            await serverUp;
            continue;
          }
          sequence += 1;
          const chosen = [...productIds].sort(() => Math.random() - 0.5).slice(0, randomBetween(1, 3));
          const lines = chosen.map((productId) => ({ productId, quantity: randomBetween(1, 3) }));
          const buyer = shoppers[slot] as Buyer;
          const body = orderBody(buyer, `session_${Date.now()}_${kind}_${sequence}`, lines);
          let response: Awaited<ReturnType<typeof post>>;
          let answer: { status?: string; message?: string; order?: { id: number } };
          inFlight += 1;
          try {
            response = await post(buyer, body);
            answer = response.json() as typeof answer;
          } catch {
            // The kill cut this request off: it may or may not have committed.
            cutOff.push({ buyer, body });
            continue;
          } finally {
            inFlight -= 1;
          }
          if (response.status === 201 && answer.status === 'succeeded' && answer.order) {
            placed.push({ buyer, sessionId: body.sessionId, orderId: answer.order.id, lines, via: 'answered' });
          } else {
            unexpected.push(`${response.status} ${answer.message}`);
          }
        }
      }

      /** Every order answered so far can be read back by its owner, Processing and Paid. */
      async function checkPlacedAreThere(when: string): Promise<void> {
        const byBuyer = new Map<string, Map<number, { status: string; paymentStatus: string }>>();
        for (const buyer of buyers) {
          const response = await fetch(`${shop.baseUrl}/api/orders/user`, {
            headers: { authorization: `Bearer ${buyer.token}` },
          });
          expect(response.status).toBe(200);
          const list = (await response.json()) as { id: number; status: string; paymentStatus: string }[];
          byBuyer.set(buyer.token, new Map(list.map((order) => [order.id, order])));
        }
        const missing: number[] = [];
        for (const order of placed) {
          let found = byBuyer.get(order.buyer.token)?.get(order.orderId);
          if (!found) {
            // The list stops at 500 orders; read beyond it one by one.
            const response = await fetch(`${shop.baseUrl}/api/orders/${order.orderId}`, {
              headers: { authorization: `Bearer ${order.buyer.token}` },
            });
            if (response.status === 200) found = (await response.json()) as typeof found;
          }
          if (!found) missing.push(order.orderId);
          else if (found.status !== 'Processing' || found.paymentStatus !== 'Paid') {
            unexpected.push(`order ${order.orderId} is ${found.status}/${found.paymentStatus} ${when}`);
          }
        }
        expect(missing, `answered orders missing ${when}`).toEqual([]);
      }

      /** Sends each cut-off request again with its sessionId: the same order if it had committed, else a new one. */
      async function replayCutOff(): Promise<void> {
        for (const request of cutOff.splice(0)) {
          const response = await post(request.buyer, request.body);
          const answer = response.json() as { status?: string; message?: string; order?: { id: number } };
          if ((response.status === 200 || response.status === 201) && answer.status === 'succeeded' && answer.order) {
            placed.push({
              buyer: request.buyer,
              sessionId: request.body.sessionId,
              orderId: answer.order.id,
              lines: request.body.orderItems,
              via: response.status === 200 ? 'replayed-200' : 'replayed-201',
            });
          } else {
            unexpected.push(`replay of ${request.body.sessionId}: ${response.status} ${answer.message}`);
          }
        }
      }

      const clients = shoppers.map((_, slot) => client(slot));
      let cutOffTotal = 0;
      const windows: number[] = [];
      try {
        for (let kill = 1; kill <= KILLS; kill += 1) {
          // Let orders flow for a random while, and at least until one is in flight beyond the first few.
          const placedAtStart = placed.length;
          const window = randomBetween(300, 1500);
          await sleep(window);
          const stretch = Date.now() + 10_000;
          while (placed.length === placedAtStart && Date.now() < stretch) await sleep(20);
          windows.push(window);
          up = false;
          serverUp = new Promise((done) => {
            upAgain = done;
          });
          await shop.kill('SIGKILL');
          // Every request in flight fails once its connection dies; wait for each to be noted.
          while (inFlight > 0) await sleep(10);
          cutOffTotal += cutOff.length;
          await shop.start();
          await checkPlacedAreThere(`after kill ${kill}`);
          await replayCutOff();
          shoppers = await registerShoppers(kill);
          up = true;
          upAgain();
        }
      } finally {
        stopping = true;
        up = true;
        upAgain();
        await Promise.all(clients);
      }
      // Whatever the last requests were doing, they finished against a live server.
      await replayCutOff();
      await checkPlacedAreThere('after the last restart');
      await shop.kill('SIGTERM');

      expect(unexpected).toEqual([]);
      const replayed200 = placed.filter((order) => order.via === 'replayed-200').length;
      const replayed201 = placed.filter((order) => order.via === 'replayed-201').length;
      console.log(
        `crash test on ${kind}: ${KILLS} kills after ${windows.join(', ')} ms; ${placed.length} orders answered (${replayed200} had committed when cut off and were answered on retry, ${replayed201} placed on retry); ${Math.round((performance.now() - started) / 1000)} s`,
      );
      // The test only means something if orders were flowing and the kills cut some off.
      expect(placed.filter((order) => order.via === 'answered').length).toBeGreaterThanOrEqual(KILLS);
      expect(cutOffTotal, 'requests cut off by the kills').toBeGreaterThan(0);

      // The database, read directly after a clean stop.
      const direct = await openDirect();
      try {
        const rows = await direct.db.select().from(orders);
        const items = await direct.db.select().from(orderItems);
        const linesByOrder = new Map<number, Line[]>();
        for (const item of items) {
          linesByOrder.set(item.orderId, [
            ...(linesByOrder.get(item.orderId) ?? []),
            { productId: item.productId, quantity: item.quantity },
          ]);
        }
        const byId = new Map(rows.map((row) => [row.id, row]));
        const sortLines = (lines: Line[]) => [...lines].sort((a, b) => a.productId - b.productId);
        for (const order of placed) {
          const row = byId.get(order.orderId);
          expect(row, `order ${order.orderId}`).toBeDefined();
          expect(row?.idempotencyKey).toBe(order.sessionId);
          expect(row?.status).toBe('Processing');
          expect(row?.paymentStatus).toBe('Paid');
          expect(sortLines(linesByOrder.get(order.orderId) ?? [])).toEqual(sortLines(order.lines));
        }
        // Every request was answered or sent again until answered, so the database holds exactly those orders.
        expect(rows.length).toBe(placed.length);
        expect(new Set(placed.map((order) => order.orderId)).size).toBe(placed.length);
        // None half-made, none unpaid, each with a charge of its own.
        for (const row of rows) {
          expect(row.status, `order ${row.id}`).toBe('Processing');
          expect(row.paymentStatus, `order ${row.id}`).toBe('Paid');
          expect(row.transactionId, `order ${row.id}`).toMatch(/^sim_/);
          expect(linesByOrder.get(row.id)?.length ?? 0, `lines of order ${row.id}`).toBeGreaterThan(0);
        }
        expect(new Set(rows.map((row) => row.transactionId)).size).toBe(rows.length);

        // No charge without its order: every card the gateway approved (the simulator's ledger,
        // written before each charge answered, across every life of the server) is one order's
        // payment, under the key of that order's reservation.
        const ledger = readFileSync(join(dataDir, 'payment-simulator.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as LedgerEntry);
        const approved = ledger.filter((entry) => entry.result.status === 'approved');
        const orderOfCharge = new Map(rows.map((row) => [row.transactionId, row]));
        for (const entry of approved) {
          const charged = entry.result.status === 'approved' ? entry.result.transactionId : '';
          const row = orderOfCharge.get(charged);
          expect(row, `the order of charge ${charged} (key ${entry.key})`).toBeDefined();
          expect(entry.key).toBe(`${row?.userId}:${row?.idempotencyKey}:${row?.id}`);
          expect(entry.amountCents).toBe(row?.totalCents);
        }
        expect(approved.length).toBe(rows.length);

        // Stock: the starting stock minus what the orders that are not Cancelled hold.
        const live = new Set(rows.filter((row) => row.status !== 'Cancelled').map((row) => row.id));
        const held = new Map<number, number>();
        for (const item of items) {
          if (live.has(item.orderId)) held.set(item.productId, (held.get(item.productId) ?? 0) + item.quantity);
        }
        const stocks = await direct.db
          .select({ id: products.id, stock: products.stockQuantity })
          .from(products)
          .where(inArray(products.id, productIds));
        for (const { id, stock } of stocks) {
          expect(stock, `stock of product ${id}`).toBe((startStock.get(id) ?? 0) - (held.get(id) ?? 0));
        }
        expect([...held.keys()].every((id) => productIds.includes(id))).toBe(true);
      } finally {
        await direct.close();
      }
    }, 300_000);
  });
}
