/**
 * One root error handler, and logs without query parameters (issue 21).
 *
 * - With the storefront on, an error outside /api answers like the API does: a 5xx hides its
 *   details (no message, SQL or stack), a 4xx is JSON `{ message }`.
 * - A database error's parameters (a password hash, an e-mail, an address) reach no log line:
 *   the error handler's JSON log and what page actions write with console.error keep the SQL
 *   and the error code only.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inspect } from 'node:util';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { RouterContextProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { requestContext } from '../../app/lib/request-context.ts';
import { shopContext } from '../../app/lib/shop-context.ts';
import { action as contactAction } from '../../app/routes/contact.tsx';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { seedCatalogue } from '../../db/seed/seed-catalogue.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { registerErrorHandler } from '../../server/plugins/errors.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

const SECRET = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0LXNhbHQ$leaked-hash-of-a-password';
const SECRET_EMAIL = 'private.person@example.com';
const HIDDEN = 'Something went wrong on our side. Please try again.';
const built = existsSync(resolve(import.meta.dirname, '../../build/server/index.js'));

/*
 * What page actions write with console.error, captured from the start: the app cleans what
 * reaches console.error once it is built, so the capture must be in place before.
 */
const consoleLines: string[] = [];
const writeConsoleError = console.error;
console.error = (...args: unknown[]) => {
  consoleLines.push(args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { depth: 5 }))).join(' '));
  writeConsoleError.apply(console, args);
};

const CONTACT = {
  name: 'Sam Builder',
  email: 'sam@example.com',
  subject: 'Drill question',
  message: 'Does the DCD791 kit come with two batteries?',
};

describe.skipIf(!built)('root-scope errors with the storefront on', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 5, storefront: true });
  });
  afterAll(async () => {
    await shop?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('answers a failure outside /api with 500 and no details', async () => {
    vi.spyOn(shop.app.services.sessions, 'validate').mockRejectedValue(
      new Error(`Failed query: select * from sessions where token = $1\nparams: ${SECRET}`),
    );
    const response = await shop.app.inject({
      method: 'GET',
      url: '/products',
      headers: { authorization: 'Bearer not-a-real-session-token' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: HIDDEN });
    expect(response.body).not.toContain('argon2id');
    expect(response.body).not.toContain('sessions');
  });

  it('answers bad input outside /api with JSON { message }', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: "'/%E0%A4%A' is not a valid url component" });
  });
});

describe('the error handler on a bare Fastify instance', () => {
  it('hides a 5xx and keeps a 4xx message', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/boom', async () => {
      throw new Error(`params: ${SECRET}`);
    });
    app.get('/teapot', async () => {
      throw Object.assign(new Error('I am a teapot'), { statusCode: 418 });
    });
    const boom = await app.inject({ method: 'GET', url: '/boom' });
    expect(boom.statusCode).toBe(500);
    expect(boom.json()).toEqual({ message: HIDDEN });
    const teapot = await app.inject({ method: 'GET', url: '/teapot' });
    expect(teapot.statusCode).toBe(418);
    expect(teapot.json()).toEqual({ message: 'I am a teapot' });
    await app.close();
  });
});

describe('database errors in the logs', () => {
  let app: FastifyInstance;
  let database: DatabaseHandle;
  let dataDir: string;
  const lines: string[] = [];

  /** A query that fails on the database with the secrets among its parameters (and in PostgreSQL's own message). */
  const failingQuery = () => database.db.execute(sql`select ${SECRET}::int as hash, ${SECRET_EMAIL}::int as email`);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'harbour-log-params-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      MAIL_OUTBOX_DIR: join(dataDir, 'outbox'),
    });
    database = await openDatabase({ kind: 'pglite' });
    await database.migrate();
    await seedCatalogue(database.db, { products: 2, mediaDir: null });
    app = await buildApp({
      config,
      database,
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('the failing query really carries the secrets (the test means something)', async () => {
    const error = await failingQuery().then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(inspect(error, { depth: 5 })).toContain(SECRET);
  });

  it('logs an API request that failed on the database with its SQL and code, not its parameters', async () => {
    vi.spyOn(app.services.contact, 'send').mockImplementation(failingQuery as never);
    const response = await app.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: '10.66.0.1',
      payload: CONTACT,
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: HIDDEN });
    const log = lines.join('\n');
    expect(log).toContain('request failed');
    expect(log).toContain('select $1::int as hash');
    expect(log).toContain('22P02');
    expect(log).not.toContain('leaked-hash');
    expect(log).not.toContain(SECRET_EMAIL);
  });

  it("writes a page action's failure to the console with its SQL and code, not its parameters", async () => {
    vi.spyOn(app.services.contact, 'send').mockImplementation(failingQuery as never);
    consoleLines.length = 0;
    const context = new RouterContextProvider();
    context.set(shopContext, app.services);
    context.set(requestContext, {
      viewer: null,
      clientAddress: '10.66.0.2',
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
      body: new URLSearchParams({ ...CONTACT, phone: '', orderNumber: '' }).toString(),
    });
    const result = (await contactAction({ request, context, params: {} } as never)) as { init?: { status?: number } };
    expect(result.init?.status).toBe(500);

    const written = consoleLines.join('\n');
    expect(written).toContain('Storing a contact message failed');
    expect(written).toContain('select $1::int as hash');
    expect(written).not.toContain('leaked-hash');
    expect(written).not.toContain(SECRET_EMAIL);
  });
});
