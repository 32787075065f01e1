import { parentPort } from 'node:worker_threads';
import { type Copied, copyChanged, writeArchive } from './backup-files.ts';

/*
 * One backup's work on files, on a thread of its own (started by takeBackup in backups.ts). On the
 * embedded database every statement runs on the main thread, so a busy shop makes each turn of
 * the main event loop long; a backup that needed a turn for every file it stats and copies and
 * every 64 kB it archives made no progress under load (a gigabyte of WAL at 100,000 products).
 * Here the turns are the worker's own. It keeps what it copied between passes, so each pass
 * copies only what changed since the last.
 */

export type BackupWorkerRequest =
  | { op: 'copy'; source: string; target: string }
  | { op: 'archive'; staging: string; entries: string[]; file: string; key: string | undefined };

export type BackupWorkerReply = { ok: true; bytes: number } | { ok: false; message: string; code: string | undefined };

const copied: Copied = new Map();

parentPort?.on('message', async (request: BackupWorkerRequest) => {
  let reply: BackupWorkerReply;
  try {
    if (request.op === 'copy') {
      reply = { ok: true, bytes: await copyChanged(request.source, request.target, copied) };
    } else {
      const { op: _op, ...archive } = request;
      await writeArchive(archive);
      reply = { ok: true, bytes: 0 };
    }
  } catch (error) {
    reply = {
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      code: (error as NodeJS.ErrnoException).code,
    };
  }
  parentPort?.postMessage(reply);
});
