/**
 * `npm run db:backup`: one backup file of the database and the media folder in BACKUP_DIR
 * (encrypted with BACKUP_KEY when set), then keeps the newest BACKUP_KEEP. On the embedded
 * database it asks the running server for it through its socket when one holds the database,
 * else it opens the database itself; on PostgreSQL (DATABASE_URL) it runs pg_dump.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../db/client.ts';
import { DatabaseLockedError, lockDataDirectory } from '../db/pglite-lock.ts';
import { requestBackup } from '../server/backup-server.ts';
import { ConfigError, loadConfig } from '../server/config.ts';
import { type BackupResult, type BackupSettings, takeBackup } from '../server/domain/backups.ts';

async function main(): Promise<BackupResult & { via: string }> {
  const config = loadConfig(process.env);
  const settings: BackupSettings = {
    backupDir: config.backup.dir,
    key: config.backup.key,
    keep: config.backup.keep,
    mediaDir: config.mediaDir,
  };
  if (config.database.kind === 'postgres') {
    return {
      ...(await takeBackup(settings, { database: undefined, databaseUrl: config.database.url })),
      via: 'pg_dump',
    };
  }
  if (!existsSync(join(config.database.dataDir, 'PG_VERSION'))) {
    throw new Error(`There is no embedded database in ${config.database.dataDir} to back up (check DATA_DIR).`);
  }
  let release: () => void;
  try {
    release = lockDataDirectory(config.dataDir);
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    // A server holds the database: it takes the backup itself, writing into its own BACKUP_DIR.
    return { ...(await requestBackup(config.dataDir)), via: 'the running server' };
  }
  try {
    const database = await openDatabase({ kind: 'pglite', dataDir: config.database.dataDir });
    try {
      return { ...(await takeBackup(settings, { database, databaseUrl: undefined })), via: 'this command' };
    } finally {
      await database.close();
    }
  } finally {
    release();
  }
}

main().then(
  (result) => {
    const megabytes = (result.bytes / 1024 / 1024).toFixed(1);
    console.log(
      `Backup written by ${result.via}: ${result.file} (${megabytes} MB${result.encrypted ? ', encrypted' : ''}; shoppers paused ${Math.round(result.pauseMs)} ms)`,
    );
  },
  (error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
