import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { membershipCharges, memberships, paymentMethods, users } from '../../db/schema.ts';
import { seedCatalogue } from '../../db/seed/seed-catalogue.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { createScratchDatabase, isPostgresReachable } from '../helpers/postgres.ts';

/*
 * Renewals with several app processes on one PostgreSQL (issue 21 acceptance): every process
 * runs the renewal job, all at the same moment, over the same members; each member is charged
 * exactly once for the period, counted at both processes' gateways and in membership_charges.
 * PGlite is one process by construction (a lock file stops a second), so this runs on
 * PostgreSQL only and is skipped, saying so, when none answers.
 */

const postgresAvailable = await isPostgresReachable();
if (!postgresAvailable) {
  console.warn('membership renewal across processes skipped: it needs a real PostgreSQL shared by two app processes.');
}

const MEMBERS = 30;
const DAY = 86_400_000;

interface Process {
  app: FastifyInstance;
  database: DatabaseHandle;
  spy: MockInstance;
}

describe.skipIf(!postgresAvailable)('renewal job in two processes on one PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  const processes: Process[] = [];
  const renewsOn = new Date(Date.now() + 30 * DAY);

  async function openProcess(url: string): Promise<Process> {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: '/tmp/harbour-tests-unused',
      DATABASE_URL: url,
      PAYMENT_DECLINE_RATE: '1',
    });
    const database = await openDatabase({ kind: 'postgres', url, maxConnections: 5 });
    const app = await buildApp({ config, database, logger: false });
    await app.ready();
    return { app, database, spy: vi.spyOn(app.services.gateway, 'charge') };
  }

  function runOnce(process: Process, now: Date): Promise<unknown> {
    return (
      process.app.services as unknown as { membershipBilling: { runOnce(now: Date): Promise<unknown> } }
    ).membershipBilling.runOnce(now);
  }

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    const setup = await openDatabase({ kind: 'postgres', url: scratch.url, maxConnections: 2 });
    await setup.migrate();
    await seedCatalogue(setup.db, { products: 3, mediaDir: null });
    // Members with a saved card each, due on the same date; half of them ending 0002 (declined).
    for (let index = 0; index < MEMBERS; index += 1) {
      const [user] = await setup.db
        .insert(users)
        .values({ email: `renewal.${index}@example.com`, firstName: 'Re', lastName: `New ${index}`, role: 'customer' })
        .returning({ id: users.id });
      const [method] = await setup.db
        .insert(paymentMethods)
        .values({
          userId: user!.id,
          paymentType: 'Credit Card',
          provider: 'Visa',
          last4Digits: index % 2 === 0 ? '4242' : '0002',
          expiryMonth: '07',
          expiryYear: new Date().getFullYear() + 2,
        })
        .returning({ id: paymentMethods.id });
      await setup.db.insert(memberships).values({
        userId: user!.id,
        plan: index % 3 === 0 ? 'premium' : 'basic',
        status: 'active',
        startedAt: new Date(renewsOn.getTime() - 30 * DAY),
        periodStartedAt: new Date(renewsOn.getTime() - 30 * DAY),
        renewsOn,
        paymentMethodId: method!.id,
      });
    }
    await setup.close();
    processes.push(await openProcess(scratch.url), await openProcess(scratch.url));
  });

  afterAll(async () => {
    for (const process of processes) {
      process.spy.mockRestore();
      await process.app.close();
      await process.database.close();
    }
    await scratch?.drop();
  });

  it('charges every member once a period however many processes run the job at once', async () => {
    const { db } = processes[0]!.database;
    const calls = () => processes.reduce((sum, process) => sum + process.spy.mock.calls.length, 0);
    // Each attempt day: both processes, three runs each, all at the same time.
    for (const [day, expected] of [
      [0, MEMBERS],
      [1, MEMBERS + MEMBERS / 2],
      [2, MEMBERS + MEMBERS],
      [3, MEMBERS + MEMBERS],
    ] as const) {
      const now = new Date(renewsOn.getTime() + day * DAY + 60_000);
      await Promise.all(
        processes.flatMap((process) => [runOnce(process, now), runOnce(process, now), runOnce(process, now)]),
      );
      expect(calls(), `gateway calls after day ${day}`).toBe(expected);
    }
    const charges = await db.select().from(membershipCharges);
    expect(charges).toHaveLength(MEMBERS);
    expect(charges.filter((charge) => charge.status === 'approved')).toHaveLength(MEMBERS / 2);
    expect(charges.filter((charge) => charge.status === 'declined' && charge.attempts === 3)).toHaveLength(MEMBERS / 2);
    const rows = await db.select().from(memberships);
    expect(rows.filter((row) => row.status === 'active')).toHaveLength(MEMBERS / 2);
    expect(rows.filter((row) => row.status === 'lapsed')).toHaveLength(MEMBERS / 2);
    for (const row of rows.filter((candidate) => candidate.status === 'active')) {
      expect(row.renewsOn.getTime()).toBeGreaterThan(renewsOn.getTime() + 27 * DAY);
    }
    const [first] = await db.select().from(membershipCharges).where(eq(membershipCharges.status, 'approved')).limit(1);
    expect(first?.transactionId).toMatch(/^sim_/);
  });
});
