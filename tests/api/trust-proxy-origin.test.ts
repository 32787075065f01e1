import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/*
 * Issue 21: behind a balancer the client is the address the trusted proxy saw, not whatever
 * the client wrote first in X-Forwarded-For; and a page's canonical, og and JSON-LD URLs
 * never take the request's Host, so a cached page cannot be poisoned for everyone.
 */

describe('TRUST_PROXY with a hop count', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 20, env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => shop.close());

  it('keys per-address limits on the address the proxy appended, whatever the client forged before it', async () => {
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 11; attempt += 1) {
      const response = await shop.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        remoteAddress: '10.0.0.2', // the balancer
        headers: { 'x-forwarded-for': `203.0.113.${attempt}, 198.51.100.7` },
        payload: { email: `nobody${attempt}@example.com` },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(202));
    expect(statuses[10]).toBe(429);
  });

  it('tells shoppers behind the same balancer apart', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      remoteAddress: '10.0.0.2',
      headers: { 'x-forwarded-for': '198.51.100.8' },
      payload: { email: 'someone@example.com' },
    });
    expect(response.statusCode).toBe(202);
  });
});

const built = existsSync(resolve('build/server/index.js'));

describe.skipIf(!built)('page origin without PUBLIC_URL (needs `npm run build`)', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 20, storefront: true, env: { PORT: '4123' } });
  });
  afterAll(() => shop.close());

  it('a page asked for with a forged Host links to http://localhost:PORT, for that request and the cached copy after', async () => {
    const forged = await shop.app.inject({
      method: 'GET',
      url: '/product/1',
      headers: { host: 'evil.example', 'user-agent': 'Mozilla/5.0 Chrome/130.0' },
    });
    expect(forged.statusCode).toBe(200);
    expect(forged.body).not.toContain('evil.example');
    expect(forged.body).toContain('<link rel="canonical" href="http://localhost:4123/product/1"/>');
    const after = await shop.app.inject({
      method: 'GET',
      url: '/product/1',
      headers: { host: 'shop.example.com', 'user-agent': 'Mozilla/5.0 Chrome/130.0' },
    });
    expect(after.body).not.toContain('evil.example');
    const robots = await shop.app.inject({ method: 'GET', url: '/robots.txt', headers: { host: 'evil.example' } });
    expect(robots.body).toContain('Sitemap: http://localhost:4123/sitemap.xml');
  });
});
if (!built) console.info('trust-proxy-origin: page origin tests skipped — no build in build/ (run `npm run build`)');

describe('per-address limits over IPv6', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 5 });
  });
  afterAll(() => shop.close());

  it('count a client’s whole /64 as one address: the 11th forgot-password request from one /64 is 429', async () => {
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 11; attempt += 1) {
      const response = await shop.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        remoteAddress: `2001:db8:7:7::${attempt.toString(16)}`,
        payload: { email: `v6-${attempt}@example.com` },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(202));
    expect(statuses[10]).toBe(429);
    const neighbour = await shop.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      remoteAddress: '2001:db8:7:8::1',
      payload: { email: 'v6-other@example.com' },
    });
    expect(neighbour.statusCode).toBe(202);
  });
});
