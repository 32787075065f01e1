import type { DatabaseHandle } from '../../db/client.ts';

export const CATALOG_CHANNEL = 'harbour_catalog_changed';

/**
 * Catalogue changes reach every app process: a write in one process clears its own cache at
 * once and sends a PostgreSQL NOTIFY; every process LISTENs and clears its cache when one
 * arrives, so listings show a new or changed product within a second, not after the cache's
 * CATALOG_CACHE_SECONDS.
 */
export function createCatalogEvents(
  database: DatabaseHandle,
  onRemoteChange: () => void,
  log: { warn(object: object, message: string): void },
) {
  let stop: (() => Promise<void>) | undefined;
  return {
    async start(): Promise<void> {
      stop = await database.listen(CATALOG_CHANNEL, () => onRemoteChange());
    },
    /** Tells the other processes; a failure only delays them to the cache's own expiry. */
    announce(): void {
      database.notify(CATALOG_CHANNEL, String(process.pid)).catch((error: unknown) => {
        log.warn(
          { reason: error instanceof Error ? error.message : String(error) },
          'could not announce a catalogue change',
        );
      });
    },
    async close(): Promise<void> {
      await stop?.();
    },
  };
}
