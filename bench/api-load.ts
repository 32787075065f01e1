import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Category, ProductPage } from '../contracts/catalog.ts';
import { type LoadResult, measureLoad } from './load.ts';

/** Budgets of the foundation issue: throughput as a share of a bare Fastify route, and p99 latency. */
export const API_BUDGETS = { productById: 0.15, categoryListing: 0.08, p99Ms: 50 };

export interface ServerHandle {
  child: ChildProcess;
  shopUrl: string;
  bareUrl: string;
  database: string;
}

/**
 * The Node flags `npm start` gives the shop (package.json's start script), so the bench's
 * server is sized as a running shop is; BENCH_SERVER_FLAGS replaces them for an experiment.
 */
export function startScriptNodeFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  const words = scripts.start.split(/\s+/);
  const afterNode = words.slice(words.indexOf('node') + 1);
  // Node's flags come before the script; what follows the script is the script's own.
  const script = afterNode.findIndex((word) => !word.startsWith('--'));
  return script === -1 ? afterNode : afterNode.slice(0, script);
}

/** The Node flags a bench's server process runs with: npm start's, or BENCH_SERVER_FLAGS for an experiment (a profile, say). */
export function serverNodeFlags(): string[] {
  return process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? startScriptNodeFlags();
}

/** Starts bench/catalogue-server.ts in its own process and waits for its ready line. */
export async function startServer(
  products: number,
  databaseUrl: string | undefined,
  options: { storefront?: boolean } = {},
): Promise<ServerHandle> {
  const child = spawn(process.execPath, [...serverNodeFlags(), 'bench/catalogue-server.ts'], {
    env: {
      ...process.env,
      // As `npm start`: React's production build (it reads NODE_ENV when first loaded).
      NODE_ENV: 'production',
      BENCH_PRODUCTS: String(products),
      ...(databaseUrl ? { BENCH_DATABASE_URL: databaseUrl } : {}),
      ...(options.storefront ? { BENCH_STOREFRONT: '1' } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const message = JSON.parse(line) as { ready: boolean; shopPort: number; barePort: number; database: string };
    if (message.ready) {
      return {
        child,
        shopUrl: `http://127.0.0.1:${message.shopPort}`,
        bareUrl: `http://127.0.0.1:${message.barePort}`,
        database: message.database,
      };
    }
  }
  throw new Error(`bench server exited (${child.exitCode}) before it was ready`);
}

export async function stopServer(server: ServerHandle): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** Deterministic spread of ids/pages so every run asks for the same mix. */
function spread(count: number, max: number): number[] {
  return Array.from({ length: count }, (_, index) => 1 + ((index * 7919) % max));
}

export interface ApiLoadFigures {
  products: number;
  database: string;
  bare: LoadResult;
  productById: LoadResult;
  categoryListing: LoadResult;
}

/**
 * Throughput and p99 of `GET /api/products/:id` and a category listing, against a
 * bare Fastify JSON route measured in the same run with the same connections.
 */
export async function benchApiLoad(options: {
  products: number;
  databaseUrl?: string;
  connections: number;
  durationSeconds: number;
}): Promise<ApiLoadFigures> {
  const server = await startServer(options.products, options.databaseUrl);
  try {
    const categories = (await (await fetch(`${server.shopUrl}/api/categories`)).json()) as Category[];
    const total = ((await (await fetch(`${server.shopUrl}/api/products?limit=1`)).json()) as ProductPage).totalCount;
    const productPaths = spread(500, total).map((id) => `/api/products/${id}`);
    const listingPaths = categories.flatMap((category) =>
      [1, 2, 3].map((page) => `/api/products?categoryId=${category.id}&page=${page}&limit=20`),
    );
    const common = { connections: options.connections, durationSeconds: options.durationSeconds };
    // Warm up the JIT and the database caches before measuring.
    await measureLoad({
      title: 'warm-up',
      baseUrl: server.shopUrl,
      paths: [...productPaths, ...listingPaths],
      ...common,
      durationSeconds: 3,
    });
    const bare = await measureLoad({
      title: 'bare Fastify route',
      baseUrl: server.bareUrl,
      paths: ['/bare'],
      ...common,
    });
    const productById = await measureLoad({
      title: 'GET /api/products/:id',
      baseUrl: server.shopUrl,
      paths: productPaths,
      ...common,
    });
    const categoryListing = await measureLoad({
      title: 'GET /api/products?categoryId=',
      baseUrl: server.shopUrl,
      paths: listingPaths,
      ...common,
    });
    return { products: options.products, database: server.database, bare, productById, categoryListing };
  } finally {
    await stopServer(server);
  }
}
