/**
 * `npm run db:restore -- FILE [--force]`: restores a backup made by `npm run db:backup` into an
 * empty DATA_DIR (the embedded database and the media folder) or, for a PostgreSQL backup, into
 * the empty database DATABASE_URL names. It refuses data already there unless --force, which
 * sets the old folders aside (renamed, not deleted). Stop the server first.
 */
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { DatabaseLockedError, lockDataDirectory } from '../db/pglite-lock.ts';
import { loadConfig } from '../server/config.ts';
import { restoreBackup } from '../server/domain/backups.ts';

const USAGE = 'Usage: npm run db:restore -- FILE [--force]';

async function main(): Promise<string> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { force: { type: 'boolean', default: false } },
  });
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new Error(`Name one backup file.\n${USAGE}`);
  const config = loadConfig(process.env);
  const databaseUrl = config.database.kind === 'postgres' ? config.database.url : undefined;
  let release: () => void = () => {};
  if (!databaseUrl) {
    try {
      release = lockDataDirectory(config.dataDir);
    } catch (error) {
      if (error instanceof DatabaseLockedError) {
        throw new Error(`A server is running on ${config.dataDir}: stop it before restoring (${error.message})`);
      }
      throw error;
    }
  }
  try {
    const result = await restoreBackup(file, {
      dataDir: config.dataDir,
      mediaDir: config.mediaDir,
      databaseUrl,
      key: config.backup.key,
      force: values.force,
      databaseHasTables: databaseUrl
        ? async () => {
            const client = postgres(databaseUrl, { max: 1, onnotice: () => {} });
            try {
              const [row] = await client`select count(*)::int as tables from pg_tables where schemaname = 'public'`;
              return (row?.tables ?? 0) > 0;
            } finally {
              await client.end();
            }
          }
        : undefined,
    });
    const aside =
      result.setAside.length > 0 ? ` The data that was there is kept as ${result.setAside.join(' and ')}.` : '';
    return `Restored ${file} into ${result.database === 'postgres' ? 'DATABASE_URL' : config.dataDir} and ${config.mediaDir}.${aside} Start the shop to use it.`;
  } finally {
    release();
  }
}

main().then(
  (message) => console.log(message),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
