import { spawn } from 'node:child_process';
import { createDecipheriv, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, open, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import * as tar from 'tar';
import type { DatabaseHandle } from '../../db/client.ts';
import { CHECK_BYTES, deriveKey, HEADER_BYTES, MAGIC, NONCE_BYTES, SALT_BYTES, TAG_BYTES } from './backup-files.ts';
import type { BackupWorkerReply, BackupWorkerRequest } from './backup-worker.ts';

/*
 * Backups (issue 23): one file per backup, `harbour-backup-<UTC time>.tar.gz`, holding
 * `manifest.json`, the embedded database's folder (`pglite/`) or a pg_dump (`database.dump`),
 * and the media folder (`media/`). With BACKUP_KEY it is encrypted as `….tar.gz.enc` (the format
 * is in backup-files.ts). The copies and the archive run on a worker thread (backup-worker.ts).
 */

export const BACKUP_FILE_PATTERN = /^harbour-backup-(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ)\.tar\.gz(\.enc)?$/;
/** Copy passes before the pause: each copies what changed during the one before. */
const MAX_COPY_PASSES = 4;
/** Stop the passes once this little changed in one: the pause copies the rest. */
const SETTLED_BYTES = 16 * 1024 * 1024;

export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupSettings {
  backupDir: string;
  /** BACKUP_KEY: encrypt with it when set. */
  key: string | undefined;
  /** How many backups BACKUP_DIR keeps; older ones are deleted after each new one. */
  keep: number;
  mediaDir: string;
}

export interface BackupResult {
  file: string;
  bytes: number;
  takenAt: Date;
  /** How long shoppers' statements waited on the embedded database while its files were copied. */
  pauseMs: number;
  encrypted: boolean;
}

let lastSuccessful: Date | undefined;

/** When this process last finished a backup (or, after a restart, the newest in BACKUP_DIR once the job looked). */
export function lastSuccessfulBackupAt(): Date | undefined {
  return lastSuccessful;
}

function noteSuccess(at: Date): void {
  if (!lastSuccessful || at > lastSuccessful) lastSuccessful = at;
}

export function backupFileName(takenAt: Date, encrypted: boolean): string {
  const stamp = takenAt
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
  return `harbour-backup-${stamp}.tar.gz${encrypted ? '.enc' : ''}`;
}

/** The backups in a folder, oldest first, with the time each name carries. */
export function listBackups(backupDir: string): { file: string; takenAt: Date }[] {
  if (!existsSync(backupDir)) return [];
  return readdirSync(backupDir)
    .flatMap((name) => {
      const match = BACKUP_FILE_PATTERN.exec(name);
      if (!match?.[1]) return [];
      const [day, time] = match[1].split('T') as [string, string];
      return [{ file: join(backupDir, name), takenAt: new Date(`${day}T${time.replace(/-/g, ':')}`) }];
    })
    .sort((a, b) => a.takenAt.getTime() - b.takenAt.getTime() || a.file.localeCompare(b.file));
}

/** Deletes all but the newest `keep` backups; returns the files deleted. */
export async function pruneBackups(backupDir: string, keep: number): Promise<string[]> {
  const backups = listBackups(backupDir);
  const doomed = backups.slice(0, Math.max(0, backups.length - Math.max(1, keep)));
  for (const { file } of doomed) await rm(file, { force: true });
  return doomed.map(({ file }) => file);
}

/**
 * A consistent copy of the embedded database's folder while the shop keeps serving: copy every
 * file, then again what changed meanwhile (a few passes), then hold the database's one
 * connection only while the last changes are copied. What lands is what a crash at that instant
 * leaves (every committed transaction is in the write-ahead log), and PGlite opens it as it opens
 * a folder after a crash. A checkpoint first keeps that replay, and the last pass, short.
 */
async function copyEmbeddedDatabase(
  embedded: NonNullable<DatabaseHandle['embedded']>,
  target: string,
  worker: BackupWorker,
): Promise<{ pauseMs: number }> {
  const { client, dataDir } = embedded;
  if (!dataDir) throw new BackupError('The database is in memory: there is no folder to back up.');
  await client.exec('CHECKPOINT');
  const copy = () => worker.run({ op: 'copy', source: dataDir, target });
  for (let pass = 0; pass < MAX_COPY_PASSES; pass++) {
    const bytes = await copy();
    if (pass > 0 && bytes < SETTLED_BYTES) break;
  }
  let pauseMs = 0;
  await client.runExclusive(async () => {
    const started = performance.now();
    await copy();
    pauseMs = performance.now() - started;
  });
  // The lock file of the running process means nothing in a restored folder.
  await rm(join(target, 'postmaster.pid'), { force: true });
  return { pauseMs };
}

interface BackupWorker {
  /** Runs one step on the worker; resolves with the bytes a copy copied. */
  run(request: BackupWorkerRequest): Promise<number>;
  close(): Promise<void>;
}

/** One backup's worker thread (backup-worker.ts), asked one step at a time. */
function startBackupWorker(): BackupWorker {
  const worker = new Worker(new URL('./backup-worker.ts', import.meta.url));
  let waiting: { done: (bytes: number) => void; fail: (error: Error) => void } | undefined;
  const settle = (outcome: { bytes: number } | { error: Error }) => {
    const step = waiting;
    waiting = undefined;
    if ('error' in outcome) step?.fail(outcome.error);
    else step?.done(outcome.bytes);
  };
  worker.on('message', (reply: BackupWorkerReply) =>
    settle(
      reply.ok ? { bytes: reply.bytes } : { error: Object.assign(new Error(reply.message), { code: reply.code }) },
    ),
  );
  worker.on('error', (error) => settle({ error }));
  worker.on('exit', (code) => settle({ error: new Error(`The backup worker ended (exit ${code}).`) }));
  return {
    run(request) {
      return new Promise((done, fail) => {
        waiting = { done, fail };
        worker.postMessage(request);
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}

/** pg_dump of a PostgreSQL database into `file` (custom format: pg_restore reads it). */
async function runPgDump(databaseUrl: string, file: string): Promise<void> {
  await new Promise<void>((done, fail) => {
    let stderr = '';
    const child = spawn('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', '--file', file, databaseUrl], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        error.code === 'ENOENT'
          ? new BackupError(
              'pg_dump is not installed. Install PostgreSQL’s client tools of the server’s major version (Debian: apt-get install postgresql-client), or run pg_dump yourself as the README shows.',
            )
          : error,
      ),
    );
    child.once('exit', (code) =>
      code === 0 ? done() : fail(new BackupError(`pg_dump failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}

export interface BackupSource {
  database: DatabaseHandle | undefined;
  /** PostgreSQL: the URL pg_dump connects to. */
  databaseUrl: string | undefined;
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Takes one backup into BACKUP_DIR (written as a hidden partial file, renamed when whole), then
 * deletes all but the newest BACKUP_KEEP. One at a time per process.
 */
export function takeBackup(settings: BackupSettings, source: BackupSource, now = new Date()): Promise<BackupResult> {
  const run = queue.then(() => takeBackupNow(settings, source, now));
  queue = run.catch(() => {});
  return run;
}

async function takeBackupNow(settings: BackupSettings, source: BackupSource, now: Date): Promise<BackupResult> {
  await mkdir(settings.backupDir, { recursive: true });
  const staging = await mkdtemp(join(settings.backupDir, '.staging-'));
  const worker = startBackupWorker();
  try {
    let pauseMs = 0;
    let kind: 'pglite' | 'postgres';
    if (source.databaseUrl) {
      kind = 'postgres';
      await runPgDump(source.databaseUrl, join(staging, 'database.dump'));
    } else if (source.database?.embedded) {
      kind = 'pglite';
      ({ pauseMs } = await copyEmbeddedDatabase(source.database.embedded, join(staging, 'pglite'), worker));
    } else {
      throw new BackupError('No database to back up.');
    }
    const entries = ['manifest.json', kind === 'postgres' ? 'database.dump' : 'pglite'];
    if (existsSync(settings.mediaDir)) {
      // A link, followed by tar, so the pictures are read in place rather than copied twice.
      await symlink(resolve(settings.mediaDir), join(staging, 'media'), 'dir');
      entries.push('media');
    }
    await writeFile(
      join(staging, 'manifest.json'),
      JSON.stringify({ format: 'harbour-backup', version: 1, database: kind, takenAt: now.toISOString() }),
    );

    const encrypt = settings.key !== undefined;
    let takenAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
    while (existsSync(join(settings.backupDir, backupFileName(takenAt, encrypt)))) {
      takenAt = new Date(takenAt.getTime() + 1000);
    }
    const file = join(settings.backupDir, backupFileName(takenAt, encrypt));
    const partial = join(settings.backupDir, `.partial-${backupFileName(takenAt, encrypt)}`);
    await worker.run({ op: 'archive', staging, entries, file: partial, key: settings.key });
    await rename(partial, file);
    await pruneBackups(settings.backupDir, settings.keep);
    noteSuccess(takenAt);
    return { file, bytes: statSync(file).size, takenAt, pauseMs, encrypted: encrypt };
  } finally {
    await worker.close();
    await rm(staging, { recursive: true, force: true });
  }
}

export interface RestoreTarget {
  /** DATA_DIR: the embedded database goes to its `pglite` folder. */
  dataDir: string;
  mediaDir: string;
  /** PostgreSQL backups go here through pg_restore. */
  databaseUrl: string | undefined;
  key: string | undefined;
  force: boolean;
  /** PostgreSQL: whether DATABASE_URL already holds tables (then only `force` restores over them). */
  databaseHasTables?: () => Promise<boolean>;
}

function isNonEmptyFolder(path: string): boolean {
  return existsSync(path) && readdirSync(path).length > 0;
}

/** Opens a backup file as the tar.gz stream inside it (decrypting and checking an encrypted one). */
async function openArchive(file: string, key: string | undefined): Promise<{ stream: NodeJS.ReadableStream }> {
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const head = Buffer.alloc(Math.min(HEADER_BYTES, size));
    await handle.read(head, 0, head.length, 0);
    if (head[0] === 0x1f && head[1] === 0x8b) return { stream: createReadStream(file) };
    if (
      head.length < HEADER_BYTES ||
      !head.subarray(0, MAGIC.length).equals(MAGIC) ||
      size < HEADER_BYTES + TAG_BYTES
    ) {
      throw new BackupError(`${file} is not a Harbour Tools backup.`);
    }
    if (key === undefined) {
      throw new BackupError(`${file} is encrypted: set BACKUP_KEY to the key it was made with.`);
    }
    const salt = head.subarray(MAGIC.length, MAGIC.length + SALT_BYTES);
    const nonce = head.subarray(MAGIC.length + SALT_BYTES, MAGIC.length + SALT_BYTES + NONCE_BYTES);
    const check = head.subarray(HEADER_BYTES - CHECK_BYTES, HEADER_BYTES);
    const derived = await deriveKey(key, salt);
    if (!timingSafeEqual(derived.check, check)) {
      throw new BackupError(`BACKUP_KEY does not open ${file}: it was encrypted with another key.`);
    }
    const tag = Buffer.alloc(TAG_BYTES);
    await handle.read(tag, 0, TAG_BYTES, size - TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', derived.key, nonce);
    decipher.setAAD(head);
    decipher.setAuthTag(tag);
    const body = createReadStream(file, { start: HEADER_BYTES, end: size - TAG_BYTES - 1 });
    body.on('error', (error) => decipher.destroy(error));
    return { stream: body.pipe(decipher) };
  } finally {
    await handle.close();
  }
}

async function runPgRestore(databaseUrl: string, dump: string, force: boolean): Promise<void> {
  await new Promise<void>((done, fail) => {
    let stderr = '';
    const args = ['--no-owner', '--no-privileges', '--exit-on-error', ...(force ? ['--clean', '--if-exists'] : [])];
    const child = spawn('pg_restore', [...args, '--dbname', databaseUrl, dump], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        error.code === 'ENOENT'
          ? new BackupError('pg_restore is not installed: install PostgreSQL’s client tools, or see the README.')
          : error,
      ),
    );
    child.once('exit', (code) =>
      code === 0 ? done() : fail(new BackupError(`pg_restore failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}

/** Moves a folder into place (a copy when it crosses disks), replacing what `force` set aside. */
async function moveInto(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await cp(from, to, { recursive: true });
  }
}

/**
 * Restores a backup: the embedded database into DATA_DIR/pglite (and the pictures into
 * MEDIA_DIR), refusing folders that hold anything unless `force`, which sets the old ones aside
 * as `….replaced-<time>` rather than deleting them. A PostgreSQL backup goes through pg_restore
 * into DATABASE_URL. Nothing lands until the whole file has been read and, if encrypted, checked.
 */
export async function restoreBackup(
  file: string,
  target: RestoreTarget,
): Promise<{ database: 'pglite' | 'postgres'; setAside: string[] }> {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist.`);
  const pgliteDir = join(target.dataDir, 'pglite');
  await mkdir(target.dataDir, { recursive: true });
  const scratch = await mkdtemp(join(target.dataDir, '.restore-'));
  try {
    const { stream } = await openArchive(file, target.key);
    try {
      await pipeline(stream, tar.extract({ cwd: scratch, strict: true }));
    } catch (error) {
      if (error instanceof BackupError) throw error;
      throw new BackupError(
        `${file} could not be read whole (${(error as Error).message}): it is damaged or incomplete; nothing was restored.`,
      );
    }
    const manifestPath = join(scratch, 'manifest.json');
    if (!existsSync(manifestPath)) throw new BackupError(`${file} is not a Harbour Tools backup (no manifest).`);
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as {
      database: 'pglite' | 'postgres';
    };

    const occupied: string[] = [];
    if (manifest.database === 'pglite' && isNonEmptyFolder(pgliteDir)) occupied.push(pgliteDir);
    if (isNonEmptyFolder(target.mediaDir) && existsSync(join(scratch, 'media'))) occupied.push(target.mediaDir);
    if (manifest.database === 'postgres' && !target.databaseUrl) {
      throw new BackupError(
        `${file} holds a PostgreSQL database: set DATABASE_URL to the (empty) database to restore it into.`,
      );
    }
    if (manifest.database === 'pglite' && target.databaseUrl) {
      throw new BackupError(`${file} holds the embedded database: unset DATABASE_URL to restore it into DATA_DIR.`);
    }
    if (manifest.database === 'postgres' && (await target.databaseHasTables?.())) occupied.push('DATABASE_URL');
    if (occupied.length > 0 && !target.force) {
      throw new BackupError(
        `Refusing to restore over data: ${occupied.join(' and ')} ${occupied.length > 1 ? 'are' : 'is'} not empty. Restore into an empty DATA_DIR, or add --force to set the current data aside (renamed, not deleted) and restore.`,
      );
    }
    const setAside: string[] = [];
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    for (const folder of occupied) {
      // pg_restore --clean replaces the database's tables itself.
      if (folder === 'DATABASE_URL') continue;
      const aside = `${folder}.replaced-${stamp}`;
      await rename(folder, aside);
      setAside.push(aside);
    }
    if (manifest.database === 'postgres') {
      await runPgRestore(target.databaseUrl as string, join(scratch, 'database.dump'), target.force);
    } else {
      await rm(pgliteDir, { recursive: true, force: true });
      await moveInto(join(scratch, 'pglite'), pgliteDir);
    }
    if (existsSync(join(scratch, 'media'))) {
      await rm(target.mediaDir, { recursive: true, force: true });
      await moveInto(join(scratch, 'media'), target.mediaDir);
    }
    return { database: manifest.database, setAside };
  } finally {
    // tar may still be finishing a file when a damaged stream fails: retry, and never hide the reason.
    await rm(scratch, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => {});
  }
}

interface JobLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * The scheduled backup (BACKUP_EVERY_HOURS): a backup is due when the newest in BACKUP_DIR is
 * that old (so restarts neither skip nor repeat one); the process looks every minute, the first
 * time 10 minutes after it starts.
 * `runOnce(now)` does one look with the given clock (tests drive it).
 */
export function createBackupJob(options: {
  settings: BackupSettings;
  source: BackupSource;
  everyHours: number;
  checkEveryMs?: number;
  /** The first look waits this long, so a short-lived process (a test's, a crash loop) takes none. */
  firstCheckAfterMs?: number;
}) {
  const { settings, source } = options;
  const everyMs = options.everyHours * 3_600_000;
  let timer: ReturnType<typeof setInterval> | undefined;
  let firstTimer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<unknown> | undefined;

  async function runOnce(now: Date = new Date()): Promise<BackupResult | undefined> {
    const newest = listBackups(settings.backupDir).at(-1);
    if (newest) noteSuccess(newest.takenAt);
    if (newest && now.getTime() - newest.takenAt.getTime() < everyMs) return undefined;
    return takeBackup(settings, source, now);
  }

  return {
    runOnce,
    start(log: JobLog): void {
      const tick = () => {
        if (running) return;
        running = runOnce(new Date())
          .then((result) => {
            if (result) {
              log.info(
                { file: result.file, bytes: result.bytes, pauseMs: Math.round(result.pauseMs) },
                'scheduled backup written',
              );
            }
          })
          .catch((error: unknown) => log.error({ err: error }, 'scheduled backup failed'))
          .finally(() => {
            running = undefined;
          });
      };
      const newest = listBackups(settings.backupDir).at(-1);
      if (newest) noteSuccess(newest.takenAt);
      firstTimer = setTimeout(
        () => {
          tick();
          timer = setInterval(tick, options.checkEveryMs ?? 60_000);
          timer.unref();
        },
        options.firstCheckAfterMs ?? 10 * 60_000,
      );
      firstTimer.unref();
    },
    async stop(): Promise<void> {
      if (firstTimer) clearTimeout(firstTimer);
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

/** The start-up warning when backups would die with the disk they protect (same device as DATA_DIR). */
export function backupDiskWarning(backupDir: string, dataDir: string): string | undefined {
  const existing = (path: string): string => {
    let current = resolve(path);
    while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
    return current;
  };
  try {
    if (statSync(existing(backupDir)).dev !== statSync(existing(dataDir)).dev) return undefined;
  } catch {
    return undefined;
  }
  return `BACKUP_DIR (${resolve(backupDir)}) is on the same disk as DATA_DIR (${resolve(dataDir)}): a failed disk takes the backups with the shop. Copy them off the machine (see the README) or point BACKUP_DIR at another disk.`;
}
