import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OAuth2Server } from 'oauth2-mock-server';
import type { TestProject } from 'vitest/node';

/** Who the mock Google provider says signed in (tests/e2e/account-google.test.ts). */
export interface MockGoogleUser {
  email: string;
  givenName: string;
  familyName: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** Where the shop writes its e-mails as .eml files (no SMTP_URL in tests). */
    outboxDir: string;
    googleUser: MockGoogleUser;
    /** The mock Google provider's issuer URL (GOOGLE_ISSUER_URL of the shop). */
    googleIssuer: string;
    /** The shop's staff account (ADMIN_EMAIL / ADMIN_PASSWORD), made at start (tests/e2e/admin-*.test.ts). */
    adminEmail: string;
    adminPassword: string;
    /** When the shop was started and when it first answered (ms since the epoch): its "first start". */
    serverStartedAt: number;
    serverReadyAt: number;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The shop server exited (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The shop server did not become healthy in 120 s:\n${output()}`);
}

/**
 * A local OpenID Connect provider standing in for Google: it signs every id token for
 * `user` (the shop checks state, nonce, PKCE, audience and signature as it would Google's).
 */
async function startMockGoogle(user: MockGoogleUser): Promise<OAuth2Server> {
  const provider = new OAuth2Server();
  await provider.issuer.keys.generate('RS256');
  provider.service.on('beforeTokenSigning', (token) => {
    token.payload.email = user.email;
    token.payload.email_verified = true;
    token.payload.given_name = user.givenName;
    token.payload.family_name = user.familyName;
    token.payload.name = `${user.givenName} ${user.familyName}`;
  });
  await provider.start(0, '127.0.0.1');
  return provider;
}

/**
 * Starts the real built server (`node server/main.ts`, as `npm start` does after
 * its build) on a free port with its own embedded database and demo catalogue, its
 * e-mail outbox in the same temporary folder, and Google sign-in pointed at a local
 * mock provider.
 */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'harbour-e2e-'));
  const outboxDir = join(dataDir, 'outbox');
  const googleUser: MockGoogleUser = {
    email: `google.shopper.${Date.now()}@example.com`,
    givenName: 'Gwendolyn',
    familyName: 'Googleton',
  };
  const google = await startMockGoogle(googleUser);
  const googleIssuer = google.issuer.url;
  if (!googleIssuer) throw new Error('The mock Google provider has no issuer URL');
  // The back office's account: the shop makes it at start (there is no built-in admin).
  const adminEmail = `owner.${Date.now()}@example.com`;
  const adminPassword = 'Harbour-Owner-Ledger-58';
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let log = '';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    // The address e-mailed links point at (the reset link is built from it, never from a request's Host).
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    SEED_PRODUCTS: '400',
    LOG_LEVEL: 'warn',
    MAIL_OUTBOX_DIR: outboxDir,
    GOOGLE_CLIENT_ID: 'harbour-e2e-client',
    GOOGLE_CLIENT_SECRET: 'harbour-e2e-secret',
    GOOGLE_ISSUER_URL: googleIssuer,
    ADMIN_EMAIL: adminEmail,
    ADMIN_PASSWORD: adminPassword,
  };
  // Every e-mail goes to the outbox folder, where the password-reset journey reads it.
  delete env.SMTP_URL;
  const serverStartedAt = Date.now();
  const child = spawn(process.execPath, ['server/main.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  try {
    await waitForHealth(baseUrl, child, () => log);
  } catch (error) {
    await google.stop();
    throw error;
  }
  project.provide('serverStartedAt', serverStartedAt);
  project.provide('serverReadyAt', Date.now());
  project.provide('baseUrl', baseUrl);
  project.provide('outboxDir', outboxDir);
  project.provide('googleUser', googleUser);
  project.provide('googleIssuer', googleIssuer);
  project.provide('adminEmail', adminEmail);
  project.provide('adminPassword', adminPassword);

  let stopping = false;
  child.once('exit', (code, signal) => {
    // A server that dies under the tests says why, instead of leaving only "connection refused".
    if (!stopping) console.error(`The shop server exited during the tests (${code ?? signal}):\n${log}`);
  });

  return async () => {
    stopping = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    await google.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
