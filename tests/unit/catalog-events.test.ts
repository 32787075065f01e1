import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { type CatalogChange, createCatalogEvents, parseCatalogChange } from '../../server/domain/catalog-events.ts';

/** Two processes' catalogue events over one in-memory channel, as PostgreSQL NOTIFY delivers them. */
function sharedChannel() {
  const listeners = new Set<(payload: string) => void>();
  const sent: string[] = [];
  const database = {
    listen: async (_channel: string, onMessage: (payload: string) => void) => {
      listeners.add(onMessage);
      return async () => {
        listeners.delete(onMessage);
      };
    },
    notify: async (_channel: string, payload = '') => {
      sent.push(payload);
      for (const listener of listeners) listener(payload);
    },
  } as unknown as DatabaseHandle;
  return { database, sent };
}

const quiet = { warn: () => {} };

describe('parseCatalogChange', () => {
  it('reads a stock change with its product ids', () => {
    expect(parseCatalogChange(JSON.stringify({ origin: 'a', productIds: [3, 5] }))).toEqual({
      origin: 'a',
      change: { productIds: [3, 5] },
    });
  });

  it('takes anything it cannot read as "everything changed", never as nothing', () => {
    fc.assert(
      fc.property(fc.string(), (payload) => {
        const { change } = parseCatalogChange(payload);
        if ('productIds' in change) {
          // Only a well-formed list of whole numbers is read as a stock change.
          expect(change.productIds.every((id) => Number.isSafeInteger(id))).toBe(true);
        } else {
          expect(change).toEqual({ everything: true });
        }
      }),
    );
    for (const payload of ['', 'not json', '{"productIds":["1"]}', '{"productIds":[1.5]}', 'null', '42']) {
      expect(parseCatalogChange(payload).change, payload).toEqual({ everything: true });
    }
  });
});

describe('createCatalogEvents', () => {
  it('delivers one process’s change to the other and not back to itself', async () => {
    const { database } = sharedChannel();
    const heardByA: CatalogChange[] = [];
    const heardByB: CatalogChange[] = [];
    const a = createCatalogEvents(database, (change) => heardByA.push(change), quiet);
    const b = createCatalogEvents(database, (change) => heardByB.push(change), quiet);
    await a.start();
    await b.start();
    a.announce({ productIds: [7] });
    b.announce({ everything: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect(heardByB).toEqual([{ productIds: [7] }]);
    expect(heardByA).toEqual([{ everything: true }]);
    await a.close();
    await b.close();
  });

  it('sends a very large stock change as "everything", within NOTIFY’s 8,000-byte payload', async () => {
    const { database, sent } = sharedChannel();
    const heard: CatalogChange[] = [];
    const a = createCatalogEvents(database, () => {}, quiet);
    const b = createCatalogEvents(database, (change) => heard.push(change), quiet);
    await b.start();
    a.announce({ productIds: Array.from({ length: 5000 }, (_, index) => 100_000 + index) });
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual([{ everything: true }]);
    expect(Math.max(...sent.map((payload) => payload.length))).toBeLessThan(8000);
    await b.close();
  });
});
