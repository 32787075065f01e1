import { chmodSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  type BackupResult,
  type BackupSettings,
  type BackupSource,
  createBackupJob,
  takeBackup,
} from './domain/backups.ts';

/**
 * How `npm run db:backup` reaches the server that holds the embedded database: a Unix socket in
 * DATA_DIR (owner-only), not an HTTP route, so the command needs no admin password or second
 * factor and nothing of it is reachable from the network. Whoever can read DATA_DIR can copy the
 * database anyway.
 */
export function backupSocketPath(dataDir: string): string {
  return join(dataDir, 'backup.sock');
}

/** Unix socket paths are limited to ~107 bytes. */
const MAX_SOCKET_PATH = 100;

export async function listenForBackups(
  dataDir: string,
  takeBackup: () => Promise<BackupResult>,
  log: { warn(object: object, message: string): void; error(object: object, message: string): void },
): Promise<() => Promise<void>> {
  const path = backupSocketPath(dataDir);
  if (path.length > MAX_SOCKET_PATH) {
    log.warn({ path }, 'DATA_DIR is too long a path for the backup socket: stop the server to run npm run db:backup');
    return async () => {};
  }
  const server: Server = createServer((incoming, answer) => {
    if (incoming.method !== 'POST' || incoming.url !== '/backups') {
      answer.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not found' }));
      return;
    }
    takeBackup().then(
      (result) => answer.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ ...result })),
      (error: unknown) => {
        log.error({ err: error }, 'backup through the socket failed');
        answer
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: error instanceof Error ? error.message : String(error) }));
      },
    );
  });
  // This process holds the database's lock, so a socket file left here is a dead process's.
  rmSync(path, { force: true });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(path, () => done());
  });
  chmodSync(path, 0o600);
  return () =>
    new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
      rmSync(path, { force: true });
    });
}

/** Asks the running server for a backup; its answer, or the error it gave. */
export function requestBackup(dataDir: string): Promise<BackupResult> {
  return new Promise((done, fail) => {
    const call = request({ socketPath: backupSocketPath(dataDir), method: 'POST', path: '/backups' }, (answer) => {
      let body = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk) => {
        body += chunk;
      });
      answer.on('end', () => {
        try {
          const parsed = JSON.parse(body) as BackupResult & { message?: string };
          if (answer.statusCode === 201) done({ ...parsed, takenAt: new Date(parsed.takenAt) });
          else fail(new Error(`The running server could not take the backup: ${parsed.message ?? body}`));
        } catch {
          fail(new Error(`The running server answered ${answer.statusCode}: ${body.slice(0, 200)}`));
        }
      });
    });
    call.on('error', (error: NodeJS.ErrnoException) =>
      fail(
        new Error(
          `The embedded database is in use by a running server, but its backup socket (${backupSocketPath(dataDir)}) does not answer (${error.code ?? error.message}). Stop the server and run the command again.`,
        ),
      ),
    );
    call.end();
  });
}

/**
 * The running server's side of backups: the socket `npm run db:backup` asks through (when this
 * process holds the configured embedded database) and, with `scheduled`, the BACKUP_EVERY_HOURS
 * job. Test apps pass `scheduled: false`, as for the other background jobs.
 */
export function registerBackups(app: FastifyInstance, options: { scheduled: boolean }): void {
  const { config, database } = app;
  const settings: BackupSettings = {
    backupDir: config.backup.dir,
    key: config.backup.key,
    keep: config.backup.keep,
    mediaDir: config.mediaDir,
  };
  const source: BackupSource = {
    database,
    databaseUrl: config.database.kind === 'postgres' ? config.database.url : undefined,
  };
  const holdsConfiguredDatabase =
    config.database.kind === 'pglite' &&
    database.embedded?.dataDir !== undefined &&
    resolve(database.embedded.dataDir) === resolve(config.database.dataDir);
  if (holdsConfiguredDatabase) {
    let close: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      close = await listenForBackups(config.dataDir, () => takeBackup(settings, source), app.log);
    });
    app.addHook('onClose', async () => close?.());
  }
  const canSchedule = holdsConfiguredDatabase || config.database.kind === 'postgres';
  if (options.scheduled && canSchedule && config.backup.everyHours > 0) {
    const job = createBackupJob({ settings, source, everyHours: config.backup.everyHours });
    app.addHook('onReady', async () => job.start(app.log));
    app.addHook('onClose', () => job.stop());
  }
}
