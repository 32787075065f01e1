/**
 * Backups of issue 23 on the embedded database, with files in a temp folder:
 * - `npm run db:backup` while a server holds the database asks it through its socket; the server
 *   writes the file; the shop is wiped; `npm run db:restore` brings back identical orders,
 *   accounts and pictures; a second restore over that data is refused without --force;
 * - an encrypted backup (BACKUP_KEY) cannot be restored without its key, nor with another one;
 * - the scheduled job, driven with its own clock, takes one when due and keeps BACKUP_KEEP.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { openConfiguredDatabase } from '../../db/open-configured.ts';
import { orderItems, orders, products, users } from '../../db/schema.ts';
import { seedCatalogue } from '../../db/seed/seed-catalogue.ts';
import { buildApp } from '../../server/app.ts';
import { type Config, loadConfig } from '../../server/config.ts';
import {
  backupDiskWarning,
  createBackupJob,
  lastSuccessfulBackupAt,
  listBackups,
} from '../../server/domain/backups.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PASSWORD = 'Harbour-Backup-Test-Pass-42';
const EXPIRY = `12/${String((new Date().getFullYear() + 1) % 100).padStart(2, '0')}`;
const KEY = 'a backup passphrase for the test';

/**
 * Runs one of the package's scripts as `npm run` does (Node 24, the repository as cwd); not
 * spawnSync, which would stop this process's event loop and with it the server the script asks.
 */
function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', (status) => done({ status, output }));
  });
}

function filesOf(folder: string): Record<string, string> {
  if (!existsSync(folder)) return {};
  const found: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    found[relative(folder, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return found;
}

interface Shop {
  config: Config;
  database: DatabaseHandle;
  app: FastifyInstance;
  close: () => Promise<void>;
}

async function openShop(env: Record<string, string>, seed: boolean): Promise<Shop> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env });
  const database = await openConfiguredDatabase(config);
  if (seed) await seedCatalogue(database.db, { products: 12, mediaDir: null });
  const app = await buildApp({ config, database, logger: false, backgroundJobs: false });
  await app.ready();
  return {
    config,
    database,
    app,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

async function contents(database: DatabaseHandle) {
  return {
    users: await database.db.select().from(users).orderBy(asc(users.id)),
    orders: await database.db.select().from(orders).orderBy(asc(orders.id)),
    items: await database.db.select().from(orderItems).orderBy(asc(orderItems.id)),
  };
}

describe('backups of the embedded database', () => {
  const root = mkdtempSync(join(tmpdir(), 'harbour-backup-'));
  const dataDir = join(root, 'data');
  const backupDir = join(root, 'backups');
  const env = { DATA_DIR: dataDir, BACKUP_DIR: backupDir };
  let shop: Shop | undefined;
  let before: Awaited<ReturnType<typeof contents>>;
  let mediaBefore: Record<string, string>;
  let plainBackup = '';

  beforeAll(async () => {
    shop = await openShop(env, true);
    const { app } = shop;
    const registered = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: '10.77.0.1',
      payload: {
        firstName: 'Bea',
        lastName: 'Backup',
        email: 'bea.backup@example.com',
        password: PASSWORD,
        PhoneNumber: '0412 345 678',
        address: {
          addressLine1: '1 Tape Street',
          city: 'Perth',
          state: 'WA',
          postalCode: '6000',
          country: 'Australia',
        },
      },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const { token } = registered.json() as { token: string };
    const [product] = await shop.database.db.select().from(products).orderBy(asc(products.id)).limit(1);
    const productId = product?.id ?? 0;
    await shop.database.db
      .update(products)
      .set({ stockQuantity: 1000, isActive: true })
      .where(eq(products.id, productId));
    for (let index = 0; index < 3; index++) {
      const placed = await app.inject({
        method: 'POST',
        url: '/api/orders',
        remoteAddress: '10.77.0.1',
        headers: { authorization: `Bearer ${token}` },
        payload: {
          sessionId: `session_backup_${index}`,
          userEmail: 'bea.backup@example.com',
          orderItems: [{ productId, quantity: 1, unitPrice: 0.01, productName: 'x' }],
          paymentMethod: 'credit_card',
          paymentMethodId: null,
          cardData: { Number: '4242 4242 4242 4242', Expiry: EXPIRY, Cvc: '123', Name: 'Bea Backup' },
          fulfilment: 'delivery',
          shippingAddress: {
            fullName: 'Bea Backup',
            addressLine1: '1 Tape Street',
            city: 'Perth',
            state: 'WA',
            postalCode: '6000',
            country: 'Australia',
          },
        },
      });
      expect(placed.statusCode, placed.body).toBe(201);
    }
    mkdirSync(join(shop.config.mediaDir, 'products'), { recursive: true });
    writeFileSync(join(shop.config.mediaDir, 'products', 'drill.webp'), Buffer.from('picture bytes of a drill'));
    writeFileSync(join(shop.config.mediaDir, 'brand.png'), Buffer.alloc(4096, 7));
    before = await contents(shop.database);
    mediaBefore = filesOf(shop.config.mediaDir);
    expect(before.orders).toHaveLength(3);
  }, 120_000);

  afterAll(async () => {
    await shop?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('db:backup asks the running server through its socket, which writes the file', async () => {
    // This test process holds the database (its lock), as a running server does.
    const started = Date.now();
    const run = await runScript('scripts/db-backup.ts', [], env);
    expect(run.status, run.output).toBe(0);
    expect(run.output).toMatch(
      /Backup written by the running server: .*harbour-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar\.gz/,
    );
    const backups = listBackups(backupDir);
    expect(backups).toHaveLength(1);
    plainBackup = backups[0]?.file ?? '';
    expect(readFileSync(plainBackup).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    // The server recorded it for the metrics.
    expect(lastSuccessfulBackupAt()?.getTime()).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000 - 1000);
    // The shop still serves after the pause.
    expect((await shop?.app.inject({ method: 'GET', url: '/api/categories' }))?.statusCode).toBe(200);
  }, 60_000);

  it('a restore is refused while the server runs', async () => {
    const run = await runScript('scripts/db-restore.ts', [plainBackup], env);
    expect(run.status).toBe(1);
    expect(run.output).toMatch(/A server is running on .*: stop it before restoring/);
  }, 60_000);

  it('backup → wipe → restore gives identical orders, accounts and media', async () => {
    await shop?.close();
    shop = undefined;
    rmSync(dataDir, { recursive: true, force: true });
    const run = await runScript('scripts/db-restore.ts', [plainBackup], env);
    expect(run.status, run.output).toBe(0);
    expect(run.output).toMatch(/Restored .* into /);
    shop = await openShop(env, false);
    expect(await contents(shop.database)).toEqual(before);
    expect(filesOf(shop.config.mediaDir)).toEqual(mediaBefore);
    // And the restored shop takes new orders on from there.
    const summary = await shop.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.77.0.2',
      payload: { email: 'bea.backup@example.com', password: PASSWORD },
    });
    expect(summary.statusCode, summary.body).toBe(200);
    await shop.close();
    shop = undefined;
  }, 120_000);

  it('a restore over data already there is refused without --force, and --force sets it aside', async () => {
    const refused = await runScript('scripts/db-restore.ts', [plainBackup], env);
    expect(refused.status).toBe(1);
    expect(refused.output).toMatch(/Refusing to restore over data: .*pglite.* not empty.*--force/);
    const forced = await runScript('scripts/db-restore.ts', [plainBackup, '--force'], env);
    expect(forced.status, forced.output).toBe(0);
    expect(forced.output).toMatch(/kept as .*pglite\.replaced-/);
    expect(readdirSync(dataDir).some((name) => name.startsWith('pglite.replaced-'))).toBe(true);
  }, 120_000);

  it('an encrypted backup (BACKUP_KEY) needs its key: none and a wrong one are refused with a clear message', async () => {
    // No server now: the command opens the database itself.
    const encryptedDir = join(root, 'encrypted');
    const made = await runScript('scripts/db-backup.ts', [], { ...env, BACKUP_DIR: encryptedDir, BACKUP_KEY: KEY });
    expect(made.status, made.output).toBe(0);
    expect(made.output).toMatch(/Backup written by this command: .*\.tar\.gz\.enc .*encrypted/);
    const [backup] = listBackups(encryptedDir);
    const file = backup?.file ?? '';
    expect(readFileSync(file).subarray(0, 8).toString()).toBe('HRBBAK01');
    // Nothing of the data readable in the file.
    expect(readFileSync(file).includes(Buffer.from('bea.backup@example.com'))).toBe(false);

    const elsewhere = { DATA_DIR: join(root, 'elsewhere') };
    const withoutKey = await runScript('scripts/db-restore.ts', [file], elsewhere);
    expect(withoutKey.status).toBe(1);
    expect(withoutKey.output).toMatch(/is encrypted: set BACKUP_KEY/);
    const wrongKey = await runScript('scripts/db-restore.ts', [file], {
      ...elsewhere,
      BACKUP_KEY: 'not the key it was made with',
    });
    expect(wrongKey.status).toBe(1);
    expect(wrongKey.output).toMatch(/BACKUP_KEY does not open .*another key/);
    expect(existsSync(join(root, 'elsewhere', 'pglite'))).toBe(false);

    // A damaged file is refused too, and leaves nothing behind.
    const damaged = join(root, 'damaged.tar.gz.enc');
    const bytes = readFileSync(file);
    bytes[bytes.length - 40] = (bytes[bytes.length - 40] ?? 0) ^ 0xff;
    writeFileSync(damaged, bytes);
    const broken = await runScript('scripts/db-restore.ts', [damaged], { ...elsewhere, BACKUP_KEY: KEY });
    expect(broken.status).toBe(1);
    expect(broken.output).toMatch(/damaged or incomplete; nothing was restored/);
    expect(existsSync(join(root, 'elsewhere', 'pglite'))).toBe(false);

    const restored = await runScript('scripts/db-restore.ts', [file], { ...elsewhere, BACKUP_KEY: KEY });
    expect(restored.status, restored.output).toBe(0);
    const reopened = await openShop(elsewhere, false);
    try {
      expect(await contents(reopened.database)).toEqual(before);
      expect(filesOf(reopened.config.mediaDir)).toEqual(mediaBefore);
    } finally {
      await reopened.close();
    }
  }, 180_000);

  it('the scheduled backup runs when due and keeps BACKUP_KEEP', async () => {
    shop = await openShop(env, false);
    const scheduledDir = join(root, 'scheduled');
    const job = createBackupJob({
      settings: { backupDir: scheduledDir, key: undefined, keep: 3, mediaDir: shop.config.mediaDir },
      source: { database: shop.database, databaseUrl: undefined },
      everyHours: 24,
    });
    const start = Date.parse('2026-11-27T19:50:00Z');
    const hours = (count: number) => new Date(start + count * 3_600_000);
    expect(await job.runOnce(hours(0))).toBeDefined();
    expect(await job.runOnce(hours(23))).toBeUndefined();
    for (const day of [1, 2, 3, 4]) expect(await job.runOnce(hours(24 * day))).toBeDefined();
    expect(await job.runOnce(hours(24 * 4 + 1))).toBeUndefined();
    const kept = listBackups(scheduledDir).map(({ file }) => file.split('/').pop());
    expect(kept).toEqual([
      'harbour-backup-2026-11-29T19-50-00Z.tar.gz',
      'harbour-backup-2026-11-30T19-50-00Z.tar.gz',
      'harbour-backup-2026-12-01T19-50-00Z.tar.gz',
    ]);
    expect(readdirSync(scheduledDir).filter((name) => !kept.includes(name))).toEqual([]);
    expect(lastSuccessfulBackupAt()?.toISOString()).toBe('2026-12-01T19:50:00.000Z');
    await job.stop();
  }, 120_000);

  it('warns when BACKUP_DIR is on the same disk as DATA_DIR', () => {
    expect(backupDiskWarning(backupDir, dataDir)).toMatch(/same disk as DATA_DIR/);
    if (existsSync('/dev/shm')) expect(backupDiskWarning('/dev/shm/harbour-backups', dataDir)).toBeUndefined();
  });
});
