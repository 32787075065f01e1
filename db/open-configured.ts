import { type DatabaseHandle, type DatabaseOptions, openDatabase } from './client.ts';
import { lockDataDirectory } from './pglite-lock.ts';

/**
 * Opens the database the configuration names and applies migrations. For the
 * embedded database it first takes the data-directory lock, released on close.
 */
export async function openConfiguredDatabase(config: {
  database: DatabaseOptions;
  /** The embedded database's folder: its lock is taken here (the server's configuration passes itself). */
  dataDir: string;
}): Promise<DatabaseHandle> {
  if (config.database.kind === 'postgres') {
    const handle = await openDatabase(config.database);
    await handle.migrate();
    return handle;
  }
  const release = lockDataDirectory(config.dataDir);
  try {
    const handle = await openDatabase(config.database);
    await handle.migrate();
    return {
      ...handle,
      close: async () => {
        try {
          await handle.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
