import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { shopSettings } from '../../db/schema.ts';
import {
  createKitLaunch,
  DEMO_KIT_COUNTDOWN_MS,
  KIT_LAUNCH_SETTING_KEY,
  resolveKitLaunchDate,
} from '../../server/domain/kit-launch.ts';
import { createScratchDatabase, isPostgresReachable } from '../helpers/postgres.ts';

const postgresAvailable = await isPostgresReachable();

for (const kind of ['pglite', 'postgres'] as const) {
  describe.skipIf(kind === 'postgres' && !postgresAvailable)(`kit launch date on ${kind}`, () => {
    let database: DatabaseHandle;
    let drop: (() => Promise<void>) | undefined;

    beforeAll(async () => {
      if (kind === 'postgres') {
        const scratch = await createScratchDatabase();
        drop = scratch.drop;
        database = await openDatabase({ kind: 'postgres', url: scratch.url, maxConnections: 4 });
      } else {
        database = await openDatabase({ kind: 'pglite' });
      }
      await database.migrate();
    });
    afterAll(async () => {
      await database?.close();
      await drop?.();
    });

    it('uses KIT_LAUNCH_DATE when configured, storing nothing', async () => {
      const date = await resolveKitLaunchDate(database.db, '2030-05-01T09:00:00+10:00');
      expect(date.toISOString()).toBe('2030-04-30T23:00:00.000Z');
      expect(await database.db.$count(shopSettings)).toBe(0);
    });

    it('fixes the demo date once, 30 d 12 h 45 min after the first start, and keeps it across restarts', async () => {
      const firstStart = new Date('2025-06-01T00:00:00.000Z');
      // Two processes starting together: one insert wins, both see the same date.
      const [first, second] = await Promise.all([
        resolveKitLaunchDate(database.db, undefined, firstStart),
        resolveKitLaunchDate(database.db, undefined, new Date(firstStart.getTime() + 5000)),
      ]);
      expect(first.toISOString()).toBe(second.toISOString());
      expect([firstStart.getTime(), firstStart.getTime() + 5000].map((at) => at + DEMO_KIT_COUNTDOWN_MS)).toContain(
        first.getTime(),
      );

      // A restart a week later counts down to the same moment.
      const restarted = createKitLaunch(database.db, undefined);
      expect((await restarted.launchDate()).toISOString()).toBe(first.toISOString());
      const rows = await database.db.select().from(shopSettings);
      expect(rows).toEqual([expect.objectContaining({ key: KIT_LAUNCH_SETTING_KEY, value: first.toISOString() })]);
    });

    it('starts a fresh countdown when the stored value is not a date', async () => {
      await database.db.update(shopSettings).set({ value: 'soon' });
      const now = new Date('2026-01-01T00:00:00.000Z');
      const date = await resolveKitLaunchDate(database.db, undefined, now);
      expect(date.getTime()).toBe(now.getTime() + DEMO_KIT_COUNTDOWN_MS);
      expect((await resolveKitLaunchDate(database.db, undefined)).toISOString()).toBe(date.toISOString());
    });
  });
}
