import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, inject, it } from 'vitest';

const baseUrl = inject('baseUrl');

describe('the running shop server', () => {
  it('serves hashed assets with immutable caching and compresses HTML', async () => {
    const html = await (await fetch(`${baseUrl}/`)).text();
    const script = html.match(/\/assets\/[\w.-]+\.js/)?.[0];
    expect(script).toBeTruthy();
    const asset = await fetch(`${baseUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toMatch(/immutable/);
    expect(asset.headers.get('cache-control')).toMatch(/max-age=31536000/);

    // fetch() decompresses on its own, so ask with node:http to see the bytes on the wire.
    const compressed = await new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
      get(`${baseUrl}/`, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ encoding: response.headers['content-encoding'], bytes: Buffer.concat(chunks) }),
        );
      }).on('error', reject);
    });
    expect(compressed.encoding).toBe('gzip');
    const body = gunzipSync(compressed.bytes).toString();
    expect(body).toMatch(/^<!DOCTYPE html>/i);
  });

  it('answers /api/health and documents the API at /api/docs', async () => {
    const health = await fetch(`${baseUrl}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', database: 'up' });
    const docs = await fetch(`${baseUrl}/api/docs`, { redirect: 'follow' });
    expect(docs.status).toBe(200);
    expect(await docs.text()).toMatch(/swagger/i);
  });

  it('serves the seeded pictures from /media', async () => {
    const [category] = (await (await fetch(`${baseUrl}/api/categories`)).json()) as { imageUrl: string }[];
    const image = await fetch(`${baseUrl}${category!.imageUrl}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/image\/svg\+xml/);
    expect(await image.text()).toMatch(/<svg/);
  });
});

describe('starting and stopping', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'harbour-lifecycle-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  function start(env: Record<string, string>) {
    let output = '';
    const child = spawn(process.execPath, ['server/main.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED_PRODUCTS: '30',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, exit, output: () => output };
  }

  it('stops with a message naming a bad variable', async () => {
    const server = start({ PORT: 'eighty' });
    expect(await server.exit).toBe(1);
    expect(server.output()).toMatch(/PORT/);
  });

  it('locks the embedded database against a second process and shuts down cleanly on SIGTERM', async () => {
    const first = start({ PORT: '0' });
    await expect.poll(() => first.output(), { timeout: 90_000, interval: 200 }).toMatch(/is open/);
    expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(true);

    const second = start({ PORT: '0' });
    expect(await second.exit).toBe(1);
    expect(second.output()).toMatch(/in use by process/);

    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);
  });
});
