/**
 * A backup of the embedded database while the server is busy (issue 23's pause at 100,000
 * products). The embedded database runs its statements on the main thread, so under load every
 * turn of the event loop is long; a backup that needs a turn for each file it lists, copies and
 * archives (the data folder holds over a thousand files, a big one a gigabyte of WAL in 64 kB
 * chunks) never finishes while shoppers keep the loop busy: the bench's run at 100,000 products
 * had copied nothing after 17 minutes. The work on files belongs off the main thread; only the
 * last copy, while the database is held, waits for it.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { takeBackup } from '../../server/domain/backups.ts';

/** How long each turn of the event loop is kept busy: a slow statement on the embedded database. */
const TURN_MS = 20;

describe('a backup while the event loop is busy', () => {
  let root: string;
  let database: DatabaseHandle;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'harbour-backup-busy-'));
    database = await openDatabase({ kind: 'pglite', dataDir: join(root, 'pglite') });
    await database.migrate();
    mkdirSync(join(root, 'media'));
    writeFileSync(join(root, 'media', 'drill.webp'), 'picture');
  }, 60_000);

  afterAll(async () => {
    await database?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it(`finishes in seconds when every turn of the loop takes ${TURN_MS} ms`, async () => {
    let busy = true;
    const hog = () => {
      if (!busy) return;
      const until = performance.now() + TURN_MS;
      while (performance.now() < until) {
        // a statement of the embedded database, holding the main thread
      }
      setImmediate(hog);
    };
    setImmediate(hog);
    const started = performance.now();
    const outcome = await Promise.race([
      takeBackup(
        { backupDir: join(root, 'backups'), key: 'a passphrase', keep: 1, mediaDir: join(root, 'media') },
        { database, databaseUrl: undefined },
      ).then((result) => ({ result })),
      new Promise<{ result: undefined }>((done) => setTimeout(() => done({ result: undefined }), 20_000)),
    ]);
    const tookMs = performance.now() - started;
    busy = false;
    expect(outcome.result, `no backup after ${Math.round(tookMs)} ms`).toBeDefined();
    expect(existsSync(outcome.result?.file ?? '')).toBe(true);
    expect(tookMs).toBeLessThan(15_000);
  }, 60_000);
});
