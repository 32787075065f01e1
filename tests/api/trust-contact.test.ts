/**
 * The contact form's limit (issue 21 "Contact form"): 5 messages per client address per 15
 * minutes, counted in the shared counter store (PostgreSQL or Redis), so the page form and
 * `POST /api/contact` share one count, a second app process on the same database sees it, and
 * no process keeps a map that grows with every sender.
 *
 * The page action is called as the server calls it (the route module's `action` with the
 * request context the server fills in), so it does not need a storefront build.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestContext } from '../../app/lib/request-context.ts';
import { shopContext } from '../../app/lib/shop-context.ts';
import { action as contactAction } from '../../app/routes/contact.tsx';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { CONTACT_RATE_LIMIT } from '../../server/domain/contact.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

const MESSAGE = {
  name: 'Sam Builder',
  phone: '0412 345 678',
  subject: 'Drill question',
  message: 'Does the DCD791 kit come with two batteries?',
};

describe('the contact limit counts the client address in the shared store', () => {
  let shop: TestShop;
  let second: FastifyInstance;
  let sequence = 0;
  const email = () => {
    sequence += 1;
    return `sender.${sequence}@example.com`;
  };

  /** The page form's post, through the route's action as the server runs it. */
  async function sendByPage(app: FastifyInstance, clientAddress: string, from = email()): Promise<number> {
    const context = new RouterContextProvider();
    context.set(shopContext, app.services);
    context.set(requestContext, {
      viewer: null,
      clientAddress,
      nonce: '',
      secureCookies: false,
      partFailed: () => {},
      failed: () => {},
      sharedPage: () => {},
      showsStock: () => {},
    });
    const request = new Request('http://localhost/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...MESSAGE, email: from, orderNumber: '' }).toString(),
    });
    const result = (await contactAction({ request, context, params: {} } as never)) as {
      init?: { status?: number } | null;
    };
    return result.init?.status ?? 200;
  }

  async function sendByApi(app: FastifyInstance, clientAddress: string, from = email()): Promise<number> {
    const response = await app.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: clientAddress,
      payload: { ...MESSAGE, email: from },
    });
    return response.statusCode;
  }

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 1 });
    // A second app process on the same database (what a load balancer spreads shoppers over).
    second = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/harbour-tests-unused' }),
      database: shop.database,
      logger: false,
    });
    await second.ready();
  });
  afterAll(async () => {
    await second?.close();
    await shop?.close();
  });

  it(`answers the page form's ${CONTACT_RATE_LIMIT.limit + 1}th message from one address with 429, whatever e-mail is typed`, async () => {
    const address = '192.0.2.21';
    for (let index = 0; index < CONTACT_RATE_LIMIT.limit; index += 1) {
      expect(await sendByPage(shop.app, address)).toBe(200);
    }
    expect(await sendByPage(shop.app, address)).toBe(429);
    // Another address is not affected.
    expect(await sendByPage(shop.app, '192.0.2.22')).toBe(200);
  });

  it('counts the page form and the API together', async () => {
    const address = '192.0.2.23';
    for (let index = 0; index < CONTACT_RATE_LIMIT.limit; index += 1) {
      expect(await (index % 2 ? sendByPage(shop.app, address) : sendByApi(shop.app, address))).toBeLessThan(300);
    }
    expect(await sendByApi(shop.app, address)).toBe(429);
    expect(await sendByPage(shop.app, address)).toBe(429);
  });

  it('holds across app processes on one database', async () => {
    const address = '192.0.2.24';
    for (let index = 0; index < CONTACT_RATE_LIMIT.limit; index += 1) {
      expect(await sendByApi(index % 2 ? second : shop.app, address)).toBe(201);
    }
    expect(await sendByApi(second, address)).toBe(429);
    expect(await sendByPage(shop.app, address)).toBe(429);
  });

  it('keeps no per-sender map in the process', () => {
    const source = readFileSync(resolve(import.meta.dirname, '../../server/domain/contact.ts'), 'utf8');
    expect(source).not.toMatch(/new Map\b/);
  });
});
