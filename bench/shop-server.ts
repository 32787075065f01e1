import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serverNodeFlags } from './api-load.ts';

/** The flags that let Debian's Chromium run headless as root on a machine with no outside network (as tests/e2e/browser.ts). */
export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface ShopServer {
  baseUrl: string;
  buildDir: string;
  stop(): Promise<void>;
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

/** `react-router build` into buildDir, the production build the shop serves. */
export function buildStorefront(buildDir: string): void {
  const started = performance.now();
  const result = spawnSync('npx', ['react-router', 'build'], {
    env: { ...process.env, BUILD_DIR: buildDir, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`storefront build failed (exit ${result.status})`);
  console.error(`built the storefront into ${buildDir} in ${Math.round((performance.now() - started) / 1000)} s`);
}

/**
 * Starts the real built shop (`node server/main.ts` in production mode, as
 * `npm start` and tests/e2e/global-setup.ts do) on a free port with its own
 * embedded database seeded with the demo catalogue and its pictures.
 */
export async function startShopServer(options: { buildDir: string; products: number }): Promise<ShopServer> {
  const buildDir = resolve(options.buildDir);
  if (!existsSync(join(buildDir, 'server', 'index.js'))) throw new Error(`no storefront build in ${buildDir}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'harbour-bench-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [...serverNodeFlags(), 'server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BUILD_DIR: buildDir,
      SEED_PRODUCTS: String(options.products),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the shop server exited (${child.exitCode}):\n${log}`);
    if (Date.now() > deadline) throw new Error(`the shop server did not become healthy in 300 s:\n${log}`);
    const healthy = await fetch(`${baseUrl}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    await new Promise((done) => setTimeout(done, 250));
  }
  return {
    baseUrl,
    buildDir,
    stop: async () => {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A process's memory as the kernel counts it (Linux, /proc/<pid>/status), in MB: resident set
 * (VmRSS), its peak (VmHWM) and its split into anonymous memory (heaps) and mapped files.
 */
export function processMemoryMb(pid: number): { rssMb: number; peakMb: number; anonMb: number; fileMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (field: string) =>
    Math.round(Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? 0) / 1024);
  return { rssMb: mb('VmRSS'), peakMb: mb('VmHWM'), anonMb: mb('RssAnon'), fileMb: mb('RssFile') };
}

/** CPU time a process has used so far (user + system, /proc/<pid>/stat), in ms. */
export function processCpuMs(pid: number): number {
  // Fields after the command name (which may hold spaces) start at the state, field 3; utime and stime are 14 and 15.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** CPU time the whole machine has been busy and its total, over all cores (/proc/stat), in clock ticks. */
export function machineCpuTicks(): { busy: number; total: number } {
  const times = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = times.reduce((sum, value) => sum + value, 0);
  // idle and iowait are the 4th and 5th.
  return { busy: total - (times[3] ?? 0) - (times[4] ?? 0), total };
}

/** Linux's USER_HZ: the unit of /proc's CPU times (100 on every common build). */
const CLOCK_TICKS = 100;

export interface BenchPage {
  name: string;
  path: string;
}

/**
 * The three pages the storefront issue measures: home, a well-stocked
 * subcategory listing and a product page that shows everything (gallery,
 * discount, reviews, related items), found through the API.
 */
export async function pickBenchPages(baseUrl: string): Promise<BenchPage[]> {
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`);
    if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
    return (await response.json()) as T;
  };
  const subcategories = await get<{ id: number; categoryId: number; productCount: number }[]>('/api/subcategories');
  const subcategory = subcategories.toSorted((a, b) => b.productCount - a.productCount)[0];
  if (!subcategory) throw new Error('the catalogue has no subcategories');
  const featured = await get<{ items: { id: number; discountPrice: number | null; reviewCount: number }[] }>(
    '/api/products?featured=true&inStock=true&onSale=true&limit=20',
  );
  const product =
    featured.items.find((item) => item.reviewCount > 0) ??
    featured.items[0] ??
    (await get<{ items: { id: number }[] }>('/api/products?limit=1')).items[0];
  if (!product) throw new Error('the catalogue has no products');
  return [
    { name: 'home', path: '/' },
    { name: 'subcategory', path: `/category/${subcategory.categoryId}/subcategory/${subcategory.id}` },
    { name: 'product', path: `/product/${product.id}` },
  ];
}
