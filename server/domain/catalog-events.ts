import { randomUUID } from 'node:crypto';
import type { DatabaseHandle } from '../../db/client.ts';

export const CATALOG_CHANNEL = 'harbour_catalog_changed';

/**
 * Catalogue changes reach every app process: a write in one process clears its own cache at
 * once and sends a PostgreSQL NOTIFY; every process LISTENs and clears its caches when one
 * arrives, so listings, pages and suggestions show a new or changed product within a second,
 * not after the caches' CATALOG_CACHE_SECONDS. A stock change names its products, so the
 * other processes drop only what shows them.
 */
/** What changed: particular products' stock, or anything (prices, names, pictures, new products). */
export type CatalogChange = { productIds: readonly number[] } | { everything: true };

/** Parses another process's announcement; anything unreadable is taken as "everything changed". */
export function parseCatalogChange(payload: string): { origin: string; change: CatalogChange } {
  try {
    const parsed = JSON.parse(payload) as { origin?: unknown; productIds?: unknown };
    const origin = typeof parsed.origin === 'string' ? parsed.origin : '';
    if (Array.isArray(parsed.productIds) && parsed.productIds.every((id) => Number.isSafeInteger(id))) {
      return { origin, change: { productIds: parsed.productIds as number[] } };
    }
    return { origin, change: { everything: true } };
  } catch {
    return { origin: '', change: { everything: true } };
  }
}

export function createCatalogEvents(
  database: DatabaseHandle,
  onRemoteChange: (change: CatalogChange) => void,
  log: { warn(object: object, message: string): void },
) {
  // A random name rather than the pid: processes on two hosts can share a pid. A process
  // applies its own changes at once, so it skips its own announcements.
  const origin = randomUUID();
  let stop: (() => Promise<void>) | undefined;
  return {
    async start(): Promise<void> {
      stop = await database.listen(
        CATALOG_CHANNEL,
        (payload) => {
          const message = parseCatalogChange(payload);
          if (message.origin !== origin) onRemoteChange(message.change);
        },
        // Back after the database was out of reach: what was announced meanwhile is lost, so
        // nothing kept can be trusted.
        () => onRemoteChange({ everything: true }),
      );
    },
    /** Tells the other processes; a failure only delays them to the caches' own expiry. */
    announce(change: CatalogChange): void {
      // NOTIFY payloads are capped at 8000 bytes: a very large stock change is sent as "everything".
      const productIds = 'productIds' in change && change.productIds.length <= 500 ? change.productIds : undefined;
      database.notify(CATALOG_CHANNEL, JSON.stringify({ origin, productIds })).catch((error: unknown) => {
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
