/**
 * Issue 23, "Two processes behind a real balancer" and "TLS and the balancer": nginx from
 * Debian runs the repository's own deploy/nginx.conf (only its ports, paths and certificate
 * are filled in) in front of two real shop processes (`node server/main.ts`) on one
 * PostgreSQL database, over https with a self-signed pair, as the README's "Scaling out"
 * shows: TRUST_PROXY=1 and an https PUBLIC_URL. Proven through nginx:
 *
 * - https with HSTS and `__Host-` cookies; http redirects to https; /metrics is not public;
 * - a shopper signs in, carts and orders, and the requests land on both processes;
 * - the per-address sign-in limit counts the client nginx saw (X-Forwarded-For), across both
 *   processes, whatever the client forges; another address is not limited by it;
 * - a price change through one process shows on the other's product page within a second;
 * - one process is SIGKILLed mid-load: every acknowledged order is in the database once,
 *   orders keep being placed through the other, and no page or GET fails meanwhile.
 *
 * And, against two stand-in upstreams, the retry rules themselves: a POST a process received
 * is never sent to the other one (its client gets 503 JSON), a GET is; a POST no process
 * received (refused connection) goes to the other.
 *
 * nginx runs as this user with its prefix, temp folders, pid and logs in a temp folder, on free
 * high ports. Without nginx or PostgreSQL the tests skip with a line saying why, except where
 * CI is set (scripts/test.ts installs nginx there).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayPrice } from '../../contracts/pricing.ts';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { orderItems, orders, products, users } from '../../db/schema.ts';
import { seedCatalogue } from '../../db/seed/seed-catalogue.ts';
import { cardFor } from '../helpers/cards.ts';
import { createScratchDatabase, isPostgresReachable } from '../helpers/postgres.ts';
import { privateBuild } from '../helpers/private-build.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const NGINX_CONF = join(ROOT, 'deploy', 'nginx.conf');
const IN_CI = Boolean(process.env.CI);

function findNginx(): string | null {
  for (const candidate of [process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null;
}

const NGINX = findNginx();
const postgresAvailable = await isPostgresReachable();
const skipWithoutNginx = NGINX === null && !IN_CI;
const skipShop = (NGINX === null || !postgresAvailable) && !IN_CI;
if (NGINX === null) {
  console.warn(
    `balancer: ${IN_CI ? 'nginx is missing although CI is set (scripts/test.ts installs it): these tests fail' : 'skipped, nginx is not installed (as root: apt-get install -y nginx, which `npm test` does itself when it can)'}.`,
  );
} else if (!postgresAvailable) {
  console.warn('balancer: the two-process tests are skipped, they need PostgreSQL (PGlite has one process).');
}

const START_STOCK = 100_000;
const PRODUCTS_IN_PLAY = 4;
const EXPIRY = `12/${String((new Date().getFullYear() + 1) % 100).padStart(2, '0')}`;
const SIGN_INS_PER_ADDRESS = 100;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createNetServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/** A self-signed certificate for localhost and 127.0.0.1, made with openssl as an owner would for a trial. */
function selfSignedPair(dir: string): { cert: string; key: string; pem: string } {
  const cert = join(dir, 'shop.crt');
  const key = join(dir, 'shop.key');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a self-signed pair: ${made.stderr}`);
  return { cert, key, pem: readFileSync(cert, 'utf8') };
}

/** Replaces `from` in the config text, which must be there exactly `times` times (so the file cannot drift from the test). */
function fillIn(text: string, from: string, to: string, times: number): string {
  const found = text.split(from).length - 1;
  if (found !== times) throw new Error(`deploy/nginx.conf: expected "${from}" ${times} time(s), found ${found}`);
  return text.split(from).join(to);
}

interface NginxPorts {
  upstreamA: number;
  upstreamB: number;
  https: number;
  http: number;
}

/** nginx with deploy/nginx.conf, as this user, everything of its own under `dir`. */
class Nginx {
  child: ChildProcess | undefined;
  log = '';
  readonly accessLog: string;
  readonly dir: string;
  readonly ports: NginxPorts;
  readonly pair: { cert: string; key: string };

  constructor(dir: string, ports: NginxPorts, pair: { cert: string; key: string }) {
    this.dir = dir;
    this.ports = ports;
    this.pair = pair;
    this.accessLog = join(dir, 'access.log');
  }

  async start(): Promise<void> {
    const { dir, ports, pair } = this;
    for (const temp of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
      mkdirSync(join(dir, temp), { recursive: true });
    // The shop's file, with only the host's values filled in: upstream ports, listen ports,
    // server name, certificate and log paths.
    let site = readFileSync(NGINX_CONF, 'utf8');
    site = fillIn(site, '127.0.0.1:3001', `127.0.0.1:${ports.upstreamA}`, 1);
    site = fillIn(site, '127.0.0.1:3002', `127.0.0.1:${ports.upstreamB}`, 1);
    site = fillIn(site, 'listen 80;', `listen 127.0.0.1:${ports.http};`, 1);
    site = fillIn(site, 'listen 443 ssl', `listen 127.0.0.1:${ports.https} ssl`, 1);
    site = fillIn(site, 'server_name shop.example.com;', 'server_name localhost;', 2);
    site = fillIn(site, '/etc/letsencrypt/live/shop.example.com/fullchain.pem', pair.cert, 1);
    site = fillIn(site, '/etc/letsencrypt/live/shop.example.com/privkey.pem', pair.key, 1);
    site = fillIn(site, '/var/log/nginx/harbour.access.log', this.accessLog, 1);
    writeFileSync(join(dir, 'harbour.conf'), site);
    // What Debian's /etc/nginx/nginx.conf would be, in this folder: no root, no system paths.
    const runningAsRoot = process.getuid?.() === 0;
    writeFileSync(
      join(dir, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        // As root nginx would hand its workers to `nobody`, who cannot write this folder.
        runningAsRoot ? `user ${userInfo().username};` : '',
        `pid ${join(dir, 'nginx.pid')};`,
        `error_log ${join(dir, 'error.log')} warn;`,
        'events { worker_connections 512; }',
        'http {',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (temp) => `  ${temp}_temp_path ${join(dir, temp)};`,
        ),
        `  include ${join(dir, 'harbour.conf')};`,
        '}',
        '',
      ].join('\n'),
    );
    const args = ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')];
    const checked = spawnSync(NGINX as string, [...args, '-t'], { encoding: 'utf8' });
    if (checked.status !== 0) throw new Error(`nginx -t refused the config:\n${checked.stderr}`);
    const child = spawn(NGINX as string, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout?.on('data', (chunk) => {
      this.log += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      this.log += chunk;
    });
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${this.errors()}`);
      if (Date.now() > deadline) throw new Error(`nginx did not listen within 10 s:\n${this.errors()}`);
      const listening = await new Promise<boolean>((done) => {
        const socket = createNetServer().listen(ports.https, '127.0.0.1');
        socket.once('listening', () => socket.close(() => done(false)));
        socket.once('error', () => done(true));
      });
      if (listening) return;
      await sleep(50);
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(5_000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  errors(): string {
    const file = join(this.dir, 'error.log');
    return `${this.log}${existsSync(file) ? readFileSync(file, 'utf8').slice(-3000) : ''}`;
  }

  /** The access log's lines (deploy/nginx.conf's `harbour_upstream` format). */
  entries(): LogEntry[] {
    if (!existsSync(this.accessLog)) return [];
    return readFileSync(this.accessLog, 'utf8')
      .split('\n')
      .map(parseLogLine)
      .filter((entry): entry is LogEntry => entry !== null);
  }
}

interface LogEntry {
  from: string;
  method: string;
  path: string;
  status: number;
  /** Every process nginx tried, in order ("127.0.0.1:A, 127.0.0.1:B" when A failed). */
  upstreams: string[];
  upstreamStatuses: string[];
}

function parseLogLine(line: string): LogEntry | null {
  const match =
    /^(\S+) \[[^\]]+\] "(\S+) (\S+) [^"]*" (\d+) \d+ upstream=(.*?) upstream_status=(.*?) request_time=/.exec(line);
  if (!match) return null;
  const [, from = '', method = '', path = '', status = '0', upstreams = '', statuses = ''] = match;
  return {
    from,
    method,
    path,
    status: Number(status),
    upstreams: upstreams === '-' ? [] : upstreams.split(/, | : /),
    upstreamStatuses: statuses === '-' ? [] : statuses.split(/, | : /),
  };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => unknown;
}

/** Keeps TLS connections open per client address (nginx still spreads each request over the processes). */
const tlsAgent = new Agent({ keepAlive: true, maxSockets: 16 });

/** One request to nginx over https, from a chosen loopback address, verifying the self-signed certificate. */
function viaNginx(
  port: number,
  ca: string,
  from: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((done, fail) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const request = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        servername: 'localhost',
        ca,
        localAddress: from,
        agent: tlsAgent,
        timeout: 30_000,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...options.headers,
        },
      },
      (response) => collect(response, done, fail),
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', fail);
    request.end(payload);
  });
}

/** A plain-http request straight to a port (a shop process, or nginx's port 80 stand-in). */
function direct(port: number, path: string, method = 'GET', body?: string): Promise<Answer> {
  return new Promise((done, fail) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, method, agent: false, timeout: 15_000 }, (response) =>
      collect(response, done, fail),
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', fail);
    request.end(body);
  });
}

function collect(
  response: import('node:http').IncomingMessage,
  done: (answer: Answer) => void,
  fail: (error: Error) => void,
): void {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('error', fail);
  response.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    done({ status: response.statusCode ?? 0, headers: response.headers, text, json: () => JSON.parse(text) });
  });
}

const ADDRESS = {
  addressLine1: '1 Balancer Lane',
  city: 'Parramatta',
  state: 'NSW',
  postalCode: '2150',
  country: 'Australia',
};

function orderBody(email: string, card: string, sessionId: string, lines: { productId: number; quantity: number }[]) {
  return {
    sessionId,
    userEmail: email,
    orderItems: lines,
    paymentMethod: 'credit_card',
    cardData: { Number: card, Expiry: EXPIRY, Cvc: '321', Name: 'Balance Buyer' },
    shippingAddress: { fullName: 'Balance Buyer', ...ADDRESS },
  };
}

/** The real server process (`node server/main.ts`). */
class ShopProcess {
  child: ChildProcess | undefined;
  log = '';

  readonly name: string;
  readonly port: number;
  private readonly env: NodeJS.ProcessEnv;

  constructor(name: string, port: number, env: NodeJS.ProcessEnv) {
    this.name = name;
    this.port = port;
    this.env = env;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, ['server/main.ts'], {
      cwd: ROOT,
      env: { ...this.env, PORT: String(this.port) },
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
      if (child.exitCode !== null)
        throw new Error(`shop ${this.name} exited (${child.exitCode}):\n${this.log.slice(-3000)}`);
      if (Date.now() > deadline)
        throw new Error(`shop ${this.name} was not healthy within 90 s:\n${this.log.slice(-3000)}`);
      const healthy = await direct(this.port, '/api/health').then(
        (answer) => answer.status === 200,
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
    await Promise.race([exited, sleep(12_000)]);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }
}

afterAll(() => {
  tlsAgent.destroy();
});

describe.skipIf(skipWithoutNginx)("deploy/nginx.conf's retry rules, against two stand-in processes", () => {
  let dir: string;
  let pair: ReturnType<typeof selfSignedPair>;
  const running: Nginx[] = [];
  const servers: Server[] = [];
  const closers: (() => void)[] = [];

  beforeAll(() => {
    if (NGINX === null) throw new Error('nginx is not installed: scripts/test.ts installs it where CI is set');
    dir = mkdtempSync(join(tmpdir(), 'harbour-nginx-rules-'));
    pair = selfSignedPair(dir);
  });

  afterAll(async () => {
    for (const nginx of running) await nginx.stop();
    for (const server of servers) server.close();
    for (const close of closers) close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A process that answers 200 and notes every request it gets. */
  async function recorder(): Promise<{ port: number; seen: string[] }> {
    const seen: string[] = [];
    const server = createHttpServer((request, response) => {
      request.resume();
      request.on('end', () => {
        seen.push(`${request.method} ${request.url}`);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    servers.push(server);
    const port = await freePort();
    await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
    return { port, seen };
  }

  /** A process that reads a request and dies without answering it, as a SIGKILLed one does. */
  async function dropper(): Promise<{ port: number; seen: string[] }> {
    const seen: string[] = [];
    const server = createNetServer((socket) => {
      socket.once('data', (chunk: Buffer) => {
        seen.push(chunk.toString('latin1').split(' ', 2).join(' '));
        socket.destroy();
      });
    });
    closers.push(() => server.close());
    const port = await freePort();
    await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
    return { port, seen };
  }

  async function nginxBefore(upstreamA: number, upstreamB: number): Promise<Nginx> {
    const own = mkdtempSync(join(dir, 'nginx-'));
    const nginx = new Nginx(own, { upstreamA, upstreamB, https: await freePort(), http: await freePort() }, pair);
    running.push(nginx);
    await nginx.start();
    return nginx;
  }

  it('a POST a process received and died on is never sent to the other: the client gets 503 JSON to retry', async () => {
    const dead = await dropper();
    const live = await recorder();
    const nginx = await nginxBefore(dead.port, live.port);
    const answers = [];
    for (const path of ['/api/orders?try=1', '/api/orders?try=2']) {
      answers.push({
        path,
        answer: await viaNginx(nginx.ports.https, pair.pem, '127.0.0.1', 'POST', path, { body: {} }),
      });
    }
    // Round robin hands one of the two to the dying process (and then passes it over).
    expect(dead.seen).toHaveLength(1);
    const cutOff = answers.find(({ path }) => dead.seen[0] === `POST ${path}`);
    if (!cutOff) throw new Error(`the dropped request ${dead.seen[0]} was not one the test sent`);
    expect(cutOff.answer.status).toBe(503);
    expect(cutOff.answer.headers['content-type']).toMatch(/^application\/json/);
    expect(cutOff.answer.headers['retry-after']).toBe('5');
    expect((cutOff.answer.json() as { message: string }).message).toMatch(/try again/);
    expect(live.seen, 'the other process never got the POST the first one received').not.toContain(
      `POST ${cutOff.path}`,
    );
    const other = answers.find((entry) => entry !== cutOff);
    expect(other?.answer.status).toBe(200);
    expect(live.seen).toEqual([`POST ${other?.path}`]);
  });

  it('a GET a process received and died on is sent to the other, and the client never sees the failure', async () => {
    const dead = await dropper();
    const live = await recorder();
    const nginx = await nginxBefore(dead.port, live.port);
    for (const path of ['/product/1?try=1', '/api/products/1?try=2']) {
      const answer = await viaNginx(nginx.ports.https, pair.pem, '127.0.0.1', 'GET', path);
      expect(answer.status, path).toBe(200);
    }
    expect(dead.seen).toHaveLength(1);
    expect(live.seen).toEqual(['GET /product/1?try=1', 'GET /api/products/1?try=2']);
  });

  it('a POST no process received (connection refused) goes to the other one, once', async () => {
    const gone = await freePort();
    const live = await recorder();
    const nginx = await nginxBefore(gone, live.port);
    for (const path of ['/api/orders?try=1', '/api/orders?try=2']) {
      const answer = await viaNginx(nginx.ports.https, pair.pem, '127.0.0.1', 'POST', path, { body: {} });
      expect(answer.status, path).toBe(200);
    }
    expect(live.seen).toEqual(['POST /api/orders?try=1', 'POST /api/orders?try=2']);
    await sleep(50);
    expect(nginx.entries().some((entry) => entry.upstreams.length === 2)).toBe(true);
  });

  it('when no process answers, /api gets 503 JSON and pages nginx’s own error', async () => {
    const nginx = await nginxBefore(await freePort(), await freePort());
    const api = await viaNginx(nginx.ports.https, pair.pem, '127.0.0.1', 'GET', '/api/products');
    expect(api.status).toBe(503);
    expect(api.json()).toEqual({ message: 'The shop did not answer; please try again in a few seconds.' });
    const page = await viaNginx(nginx.ports.https, pair.pem, '127.0.0.1', 'GET', '/products');
    expect(page.status).toBe(502);
  });
});

describe.skipIf(skipShop)('two shop processes behind nginx with deploy/nginx.conf, on one PostgreSQL', () => {
  let dir: string;
  let buildDir: string | undefined;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let database: DatabaseHandle | undefined;
  let pair: ReturnType<typeof selfSignedPair>;
  let nginx: Nginx;
  let shopA: ShopProcess;
  let shopB: ShopProcess;
  let productIds: number[];
  let place: { brandId: number; categoryId: number; subcategoryId: number };
  let publicUrl: string;
  let https: number;

  const send = (from: string, method: 'GET' | 'POST' | 'PUT', path: string, options?: Parameters<typeof viaNginx>[5]) =>
    viaNginx(https, pair.pem, from, method, path, options);
  const portOf = (upstream: string) => Number(upstream.split(':').pop());

  /** The access log's lines from one client address, once nginx has written them all. */
  async function linesFrom(from: string, count: number): Promise<LogEntry[]> {
    const deadline = Date.now() + 2_000;
    for (;;) {
      const lines = nginx.entries().filter((entry) => entry.from === from);
      if (lines.length >= count || Date.now() > deadline) return lines;
      await sleep(20);
    }
  }

  async function register(from: string, email: string): Promise<{ token: string; answer: Answer }> {
    const answer = await send(from, 'POST', '/api/auth/register', {
      body: {
        firstName: 'Balance',
        lastName: 'Shopper',
        email,
        password: 'balancer-test-password-7',
        phoneNumber: '0412 345 678',
        address: ADDRESS,
      },
    });
    expect(answer.status, answer.text).toBe(201);
    return { token: (answer.json() as { token: string }).token, answer };
  }

  beforeAll(async () => {
    if (NGINX === null) throw new Error('nginx is not installed: scripts/test.ts installs it where CI is set');
    buildDir = await privateBuild('balancer');
    dir = mkdtempSync(join(tmpdir(), 'harbour-balancer-'));
    pair = selfSignedPair(dir);
    scratch = await createScratchDatabase();
    database = await openDatabase({ kind: 'postgres', url: scratch.url, maxConnections: 3 });
    await database.migrate();
    await seedCatalogue(database.db, { products: 30, mediaDir: null });
    const picked = await database.db
      .select({
        id: products.id,
        brandId: products.brandId,
        categoryId: products.categoryId,
        subcategoryId: products.subcategoryId,
      })
      .from(products)
      .orderBy(products.id)
      .limit(PRODUCTS_IN_PLAY);
    productIds = picked.map((product) => product.id);
    place = picked[0] as (typeof picked)[number];
    await database.db
      .update(products)
      .set({ stockQuantity: START_STOCK, isActive: true })
      .where(inArray(products.id, productIds));

    const ports: NginxPorts = {
      upstreamA: await freePort(),
      upstreamB: await freePort(),
      https: await freePort(),
      http: await freePort(),
    };
    https = ports.https;
    publicUrl = `https://localhost:${ports.https}`;
    // README "Scaling out": one balancer in front, so TRUST_PROXY=1, and an https PUBLIC_URL.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: scratch.url,
      DATABASE_POOL_SIZE: '10',
      TRUST_PROXY: '1',
      PUBLIC_URL: publicUrl,
      DATA_DIR: dir,
      BUILD_DIR: buildDir,
      MAIL_OUTBOX_DIR: join(dir, 'outbox'),
      LOG_LEVEL: 'warn',
      AUTO_SEED: 'false',
      PAYMENT_DECLINE_RATE: '0',
      BACKUP_EVERY_HOURS: '0',
    };
    for (const name of ['SMTP_URL', 'REDIS_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'METRICS_TOKEN', 'METRICS_PORT']) {
      delete env[name];
    }
    shopA = new ShopProcess('A', ports.upstreamA, env);
    shopB = new ShopProcess('B', ports.upstreamB, env);
    nginx = new Nginx(join(dir, 'nginx'), ports, pair);
    mkdirSync(nginx.dir);
    await Promise.all([shopA.start(), shopB.start(), nginx.start()]);
  }, 180_000);

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all([shopA?.kill('SIGTERM'), shopB?.kill('SIGTERM')]);
    await database?.close();
    await scratch?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (buildDir) rmSync(buildDir, { recursive: true, force: true });
  });

  it('serves https with HSTS; plain http redirects to https; /metrics is not public', async () => {
    const page = await send('127.0.10.1', 'GET', '/products');
    expect(page.status).toBe(200);
    expect(page.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    // The shop names itself by PUBLIC_URL, not by the address nginx reached it on.
    expect(page.text).toContain(`<link rel="canonical" href="${publicUrl}/products`);
    const plain = await direct(nginx.ports.http, '/products?page=2');
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe('https://localhost/products?page=2');
    expect((await send('127.0.10.1', 'GET', '/metrics')).status).toBe(404);
  });

  it('a shopper signs in, carts and orders through nginx, landing on both processes', async () => {
    const from = '127.0.11.1';
    const email = `balance.shopper.${Date.now()}@example.com`;
    const registered = await register(from, email);
    // An https PUBLIC_URL: the session cookie is __Host- and Secure.
    const cookie = String(registered.answer.headers['set-cookie']);
    expect(cookie).toMatch(/^__Host-harbour_session=[^;]+;/);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; Path=\//i);
    expect(cookie).not.toMatch(/Domain=/i);

    const signedIn = await send(from, 'POST', '/api/auth/login', {
      body: { email, password: 'balancer-test-password-7' },
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    const token = (signedIn.json() as { token: string }).token;
    const sessionCookie = String(signedIn.headers['set-cookie']).split(';')[0] as string;

    const items = [
      { productId: productIds[0] as number, quantity: 2 },
      { productId: productIds[1] as number, quantity: 1 },
    ];
    const saved = await send(from, 'PUT', '/api/cart', { token, body: { items } });
    expect(saved.status, saved.text).toBe(200);
    for (let read = 0; read < 4; read += 1) {
      const cart = await send(from, 'GET', '/api/cart', { token });
      expect(cart.status).toBe(200);
      expect((cart.json() as { items: unknown[] }).items).toMatchObject(items);
    }
    const placed: number[] = [];
    for (let order = 0; order < 2; order += 1) {
      const answer = await send(from, 'POST', '/api/orders', {
        token,
        body: orderBody(email, cardFor(900 + order), `balancer-shopper-${Date.now()}-${order}`, items),
      });
      expect(answer.status, answer.text).toBe(201);
      placed.push((answer.json() as { order: { id: number } }).order.id);
    }
    for (let read = 0; read < 2; read += 1) {
      const mine = await send(from, 'GET', '/api/orders/user', { token });
      expect(mine.status).toBe(200);
      expect((mine.json() as { id: number }[]).map((order) => order.id)).toEqual(expect.arrayContaining(placed));
      // The signed-in pages too, by the __Host- cookie.
      const page = await send(from, 'GET', '/orders', { headers: { cookie: sessionCookie } });
      expect(page.status).toBe(200);
      expect(page.text).toContain(email);
    }

    // register, sign-in, cart saved and read 4 times, 2 orders, 2 × (order list and /orders page)
    const lines = await linesFrom(from, 13);
    expect(lines).toHaveLength(13);
    const signedInLines = lines.filter((line) => line.path !== '/api/auth/register' && line.path !== '/api/auth/login');
    const used = new Set(signedInLines.map((line) => portOf(line.upstreams.at(-1) as string)));
    expect(used, 'signed-in requests answered by each process').toEqual(new Set([shopA.port, shopB.port]));
    const orderPorts = lines.filter((line) => line.method === 'POST' && line.path === '/api/orders');
    console.info(
      `shopper: ${signedInLines.length} signed-in requests, ${signedInLines.filter((line) => line.upstreams.at(-1)?.endsWith(`:${shopA.port}`)).length} on A; orders placed on ${orderPorts.map((line) => (portOf(line.upstreams.at(-1) as string) === shopA.port ? 'A' : 'B')).join(', ')}`,
    );
  });

  it('the per-address sign-in limit counts the client nginx saw, across both processes, whatever it forges', async () => {
    const from = '127.0.12.1';
    const started = performance.now();
    const answers: Answer[] = [];
    let next = 0;
    // 100 sign-ins (unknown e-mails, so no account's own cap), each forging a different
    // X-Forwarded-For: nginx appends the real address, and TRUST_PROXY=1 believes only that.
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < SIGN_INS_PER_ADDRESS) {
          next += 1;
          const attempt = next;
          answers.push(
            await send(from, 'POST', '/api/auth/login', {
              body: { email: `nobody.${attempt}@example.com`, password: 'not-the-password-1' },
              headers: { 'x-forwarded-for': `203.0.113.${attempt % 250}` },
            }),
          );
        }
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(SIGN_INS_PER_ADDRESS).fill(401));
    const refused: Answer[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      refused.push(
        await send(from, 'POST', '/api/auth/login', {
          body: { email: `nobody.more.${attempt}@example.com`, password: 'not-the-password-1' },
          headers: { 'x-forwarded-for': `198.51.100.${attempt + 1}` },
        }),
      );
    }
    expect(refused.map((answer) => answer.status)).toEqual([429, 429, 429, 429]);
    expect(Number(refused[0]?.headers['retry-after'])).toBeGreaterThan(0);
    // The limit is that address's, not nginx's: another client signs in as usual.
    const other = await send('127.0.12.2', 'POST', '/api/auth/login', {
      body: { email: 'nobody.else@example.com', password: 'not-the-password-1' },
    });
    expect(other.status).toBe(401);

    const lines = await linesFrom(from, SIGN_INS_PER_ADDRESS + 4);
    const counted = lines.slice(0, SIGN_INS_PER_ADDRESS);
    const onA = counted.filter((line) => portOf(line.upstreams.at(-1) as string) === shopA.port).length;
    const refusedBy = new Set(lines.slice(SIGN_INS_PER_ADDRESS).map((line) => portOf(line.upstreams.at(-1) as string)));
    console.info(
      `sign-in limit: ${SIGN_INS_PER_ADDRESS} tries (${onA} on A, ${SIGN_INS_PER_ADDRESS - onA} on B) in ${Math.round(performance.now() - started)} ms, then 429 from ${[...refusedBy].map((port) => (port === shopA.port ? 'A' : 'B')).join(' and ')}`,
    );
    expect(onA).toBeGreaterThan(0);
    expect(onA).toBeLessThan(SIGN_INS_PER_ADDRESS);
    expect(refusedBy, 'both processes refuse the 101st and later').toEqual(new Set([shopA.port, shopB.port]));
  });

  it('a price change through one process shows on the other’s product page within a second', async () => {
    const from = '127.0.13.1';
    const email = `balance.admin.${Date.now()}@example.com`;
    await register(from, email);
    await database?.db.update(users).set({ role: 'admin' }).where(eq(users.email, email));
    const signedIn = await send(from, 'POST', '/api/auth/login', {
      body: { email, password: 'balancer-test-password-7' },
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    const token = (signedIn.json() as { token: string }).token;
    const body = {
      name: 'Balancer Test Torque Wrench',
      sku: `BAL-${Date.now()}`,
      description: 'Priced through one process, read through the other.',
      brandId: place.brandId,
      categoryId: place.categoryId,
      subcategoryId: place.subcategoryId,
      price: 40,
      stockQuantity: 10,
    };
    const created = await send(from, 'POST', '/api/products', { token, body });
    expect(created.status, created.text).toBe(201);
    const id = (created.json() as { id: number }).id;
    const path = `/product/${id}`;
    const shownPrice = (dollars: number) =>
      `"price":"${(displayPrice(Math.round(dollars * 100)).incGstCents / 100).toFixed(2)}"`;
    // Both processes render (and keep) the page at the old price.
    for (const shop of [shopA, shopB]) {
      for (let warm = 0; warm < 2; warm += 1) {
        const page = await direct(shop.port, path);
        expect(page.status).toBe(200);
        expect(page.text).toContain(shownPrice(40));
      }
    }

    const edited = await send(from, 'PUT', `/api/products/${id}`, { token, body: { ...body, price: 50 } });
    expect(edited.status, edited.text).toBe(200);
    const editLine = (await linesFrom(from, 4)).find((line) => line.method === 'PUT');
    const writer = portOf(editLine?.upstreams.at(-1) as string);
    const reader = writer === shopA.port ? shopB : shopA;
    const started = performance.now();
    let took: number | null = null;
    while (performance.now() - started <= 1_000) {
      if ((await direct(reader.port, path)).text.includes(shownPrice(50))) {
        took = Math.round(performance.now() - started);
        break;
      }
      await sleep(50);
    }
    console.info(
      `price change through ${writer === shopA.port ? 'A' : 'B'} reached ${reader.name}'s page in ${took} ms`,
    );
    expect(took, `${reader.name}'s product page shows the new price within a second`).not.toBeNull();
    for (let read = 0; read < 2; read += 1) {
      expect((await send('127.0.13.2', 'GET', path)).text).toContain(shownPrice(50));
    }
  });

  it('a process SIGKILLed mid-load loses no acknowledged order; nginx sends the rest to the other', async () => {
    const started = performance.now();
    const CLIENTS = 6;
    const buyers = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, index) => {
        const from = `127.0.14.${index + 1}`;
        const email = `balance.buyer.${index}.${Date.now()}@example.com`;
        return { from, email, token: (await register(from, email)).token, card: cardFor(1000 + index) };
      }),
    );
    interface Acknowledged {
      orderId: number;
      sessionId: string;
      email: string;
      lines: { productId: number; quantity: number }[];
      at: number;
      via: 'answered' | 'retried-200' | 'retried-201';
    }
    const acknowledged: Acknowledged[] = [];
    const cutOff: string[] = [];
    const unexpected: string[] = [];
    const browsing = { ok: 0, failed: [] as string[] };
    let stopping = false;
    let sequence = 0;

    async function buyer(slot: number): Promise<void> {
      const me = buyers[slot] as (typeof buyers)[number];
      while (!stopping) {
        sequence += 1;
        const lines = [...productIds]
          .sort(() => Math.random() - 0.5)
          .slice(0, 1 + (sequence % 3))
          .map((productId) => ({ productId, quantity: 1 + (sequence % 2) }));
        const sessionId = `balancer-load-${Date.now()}-${sequence}`;
        const body = orderBody(me.email, me.card, sessionId, lines);
        // A real client sends a cut-off order again with the same key until it gets an answer.
        for (let attempt = 0; ; attempt += 1) {
          let answer: Answer | null = null;
          try {
            answer = await send(me.from, 'POST', '/api/orders', { token: me.token, body });
          } catch (error) {
            cutOff.push(`${sessionId}: ${(error as Error).message}`);
          }
          if (answer && (answer.status === 201 || answer.status === 200)) {
            const order = (answer.json() as { status: string; order: { id: number } }).order;
            acknowledged.push({
              orderId: order.id,
              sessionId,
              email: me.email,
              lines,
              at: performance.now(),
              via: attempt === 0 ? 'answered' : answer.status === 200 ? 'retried-200' : 'retried-201',
            });
            break;
          }
          if (answer && answer.status !== 503 && answer.status !== 502) {
            unexpected.push(`${answer.status} ${answer.text.slice(0, 200)}`);
            break;
          }
          if (answer) cutOff.push(`${sessionId}: ${answer.status} ${answer.text.slice(0, 100)}`);
          if (attempt >= 20) {
            unexpected.push(`${sessionId} never answered`);
            break;
          }
          await sleep(100);
        }
      }
    }

    /** A signed-out shopper reading pages and product JSON: each GET must succeed throughout. */
    async function browser(slot: number): Promise<void> {
      const from = `127.0.15.${slot + 1}`;
      let turn = 0;
      while (!stopping) {
        turn += 1;
        const id = productIds[turn % productIds.length] as number;
        const path = turn % 2 ? `/product/${id}` : `/api/products/${id}`;
        try {
          const answer = await send(from, 'GET', path);
          if (answer.status === 200) browsing.ok += 1;
          else browsing.failed.push(`${path}: ${answer.status}`);
        } catch (error) {
          browsing.failed.push(`${path}: ${(error as Error).message}`);
        }
      }
    }

    const clients = [...buyers.map((_, slot) => buyer(slot)), browser(0), browser(1)];
    let killedAt = 0;
    try {
      await sleep(1_500);
      killedAt = performance.now();
      await shopB.kill('SIGKILL');
      // Past deploy/nginx.conf's fail_timeout (5 s), so nginx tries the dead process again too.
      await sleep(6_500);
    } finally {
      stopping = true;
      await Promise.all(clients);
    }

    const beforeKill = acknowledged.filter((order) => order.at < killedAt);
    const afterKill = acknowledged.filter((order) => order.at >= killedAt);
    const orderLines = nginx
      .entries()
      .filter((line) => line.from.startsWith('127.0.14.') && line.method === 'POST' && line.path === '/api/orders');
    const failedOver = orderLines.filter((line) => line.upstreams.length === 2 && line.status === 201).length;
    // Every request nginx handed to B after the kill (once it tried B again) was refused and went on to A.
    const triedDeadThenA = nginx
      .entries()
      .filter((line) => line.upstreams.length === 2 && portOf(line.upstreams[0] as string) === shopB.port);
    const answeredBy = (port: number) =>
      orderLines.filter((line) => line.status === 201 && portOf(line.upstreams.at(-1) as string) === port).length;
    console.info(
      `kill under load: ${acknowledged.length} orders acknowledged (${beforeKill.length} before the SIGKILL, ${afterKill.length} after; ` +
        `${acknowledged.filter((order) => order.via === 'retried-200').length} had committed when cut off and were answered on retry, ` +
        `${acknowledged.filter((order) => order.via === 'retried-201').length} placed on retry); ${cutOff.length} answers cut off (503 from nginx); ` +
        `nginx: ${answeredBy(shopA.port)} orders answered by A, ${answeredBy(shopB.port)} by B; ` +
        `requests nginx tried on the dead B and sent on to A: ${triedDeadThenA.length} (${failedOver} of them orders); ` +
        `${browsing.ok} GETs answered, ${browsing.failed.length} failed; ${Math.round(performance.now() - started)} ms`,
    );
    expect(unexpected).toEqual([]);
    expect(answeredBy(shopA.port), 'orders answered by A').toBeGreaterThan(0);
    expect(answeredBy(shopB.port), 'orders answered by B before its death').toBeGreaterThan(0);
    expect(afterKill.length, 'orders placed through the survivor after the kill').toBeGreaterThan(0);
    expect(triedDeadThenA.length, 'requests nginx tried on the dead process and sent on to A').toBeGreaterThan(0);
    for (const line of triedDeadThenA) {
      expect(portOf(line.upstreams[1] as string)).toBe(shopA.port);
      expect(line.status, `${line.method} ${line.path}`).toBeLessThan(300);
    }
    // Idempotent requests were sent to the survivor: no page or product read failed.
    expect(browsing.failed).toEqual([]);
    expect(browsing.ok).toBeGreaterThan(0);

    // The database: exactly the acknowledged orders of these buyers, each once, paid, with its lines.
    const buyerRows = await (database as DatabaseHandle).db
      .select({ id: users.id })
      .from(users)
      .where(
        inArray(
          users.email,
          buyers.map((one) => one.email),
        ),
      );
    expect(buyerRows).toHaveLength(CLIENTS);
    const rows = await (database as DatabaseHandle).db
      .select()
      .from(orders)
      .where(
        inArray(
          orders.userId,
          buyerRows.map((row) => row.id),
        ),
      );
    const items = await (database as DatabaseHandle).db
      .select()
      .from(orderItems)
      .where(inArray(orderItems.orderId, rows.map((row) => row.id).concat(0)));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const sortLines = (lines: { productId: number; quantity: number }[]) =>
      [...lines].sort((a, b) => a.productId - b.productId);
    for (const order of acknowledged) {
      const row = byId.get(order.orderId);
      expect(row, `acknowledged order ${order.orderId}`).toBeDefined();
      expect(row?.idempotencyKey).toBe(order.sessionId);
      expect(row?.status).toBe('Processing');
      expect(row?.paymentStatus).toBe('Paid');
      const lines = items
        .filter((item) => item.orderId === order.orderId)
        .map((item) => ({ productId: item.productId, quantity: item.quantity }));
      expect(sortLines(lines)).toEqual(sortLines(order.lines));
    }
    expect(new Set(acknowledged.map((order) => order.orderId)).size).toBe(acknowledged.length);
    expect(rows.length, 'orders in the database = orders acknowledged').toBe(acknowledged.length);
    expect(new Set(rows.map((row) => row.transactionId)).size).toBe(rows.length);

    // Stock: the starting stock less what every order of the file holds.
    const allRows = await (database as DatabaseHandle).db.select().from(orders);
    const live = new Set(allRows.filter((row) => row.status !== 'Cancelled').map((row) => row.id));
    const allItems = await (database as DatabaseHandle).db.select().from(orderItems);
    const held = new Map<number, number>();
    for (const item of allItems) {
      if (live.has(item.orderId)) held.set(item.productId, (held.get(item.productId) ?? 0) + item.quantity);
    }
    const stocks = await (database as DatabaseHandle).db
      .select({ id: products.id, stock: products.stockQuantity })
      .from(products)
      .where(inArray(products.id, productIds));
    for (const { id, stock } of stocks) {
      expect(stock, `stock of product ${id}`).toBe(START_STOCK - (held.get(id) ?? 0));
    }
  }, 60_000);
});
