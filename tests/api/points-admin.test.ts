import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POINTS_ADJUSTMENT_LIMIT, POINTS_MESSAGES, type PointsLedger } from '../../contracts/points.ts';
import { auditLog, pointsLedger, users } from '../../db/schema.ts';
import { createSession } from '../../server/domain/sessions.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/*
 * Issue 21, staff grant or take back points: POST /api/admin/users/:userId/points
 * `{ points, reason }` writes one 'adjust' ledger entry, available at once, and an audit entry;
 * a take-back larger than the available balance is 409 and writes nothing; bad input is 400
 * naming the field; an unknown user is 404. GET lists a shopper's ledger for staff. The
 * route × role matrix is in admin-matrix.test.ts.
 */

describe('staff grant and take back points', () => {
  let shop: TestShop;
  let staffToken: string;
  let staffEmail: string;
  let sequence = 0;

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 2 });
    staffEmail = 'points.admin.staff@example.com';
    const [row] = await shop.database.db
      .insert(users)
      .values({ email: staffEmail, firstName: 'Points', lastName: 'Staff', role: 'admin' })
      .returning({ id: users.id });
    staffToken = (await createSession(shop.database.db, row!.id, 'points-admin')).token;
  });
  afterAll(async () => {
    await shop?.close();
  });

  async function call<T>(token: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
    sequence += 1;
    const response = await shop.app.inject({
      method,
      url,
      remoteAddress: `127.0.5.${sequence % 250}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: response.statusCode, body: response.json() as T };
  }

  async function shopper() {
    sequence += 1;
    const [row] = await shop.database.db
      .insert(users)
      .values({ email: `points.admin.${sequence}@example.com`, firstName: 'Points', lastName: 'Shopper' })
      .returning({ id: users.id });
    return { userId: row!.id, token: (await createSession(shop.database.db, row!.id, 'points-admin')).token };
  }

  const adjust = (userId: number, body: unknown) =>
    call<PointsLedger & { message?: string; errors?: Record<string, string[]> }>(
      staffToken,
      'POST',
      `/api/admin/users/${userId}/points`,
      body,
    );

  it('a grant is one adjust entry, available at once, audited; the shopper sees it on GET /api/points', async () => {
    const customer = await shopper();
    const granted = await adjust(customer.userId, { points: 250, reason: '  Sorry about the late delivery  ' });
    expect(granted.status).toBe(201);
    expect(granted.body).toMatchObject({ balance: 250, available: 250, pending: 0, pendingReleases: [] });
    expect(granted.body.entries).toEqual([
      {
        id: expect.any(Number),
        kind: 'adjust',
        points: 250,
        orderId: null,
        note: 'Sorry about the late delivery',
        createdAt: expect.any(String),
        availableAt: expect.any(String),
        balanceAfter: 250,
      },
    ]);
    const [audit] = await shop.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({
      actorEmail: staffEmail,
      action: 'points.grant',
      entity: 'user',
      entityId: String(customer.userId),
      details: { points: 250, reason: 'Sorry about the late delivery', availableAfter: 250 },
    });
    const mine = await call<PointsLedger>(customer.token, 'GET', '/api/points');
    expect(mine.body).toMatchObject({ balance: 250, available: 250 });
    const staffView = await call<PointsLedger>(staffToken, 'GET', `/api/admin/users/${customer.userId}/points`);
    expect(staffView.status).toBe(200);
    expect(staffView.body).toEqual(mine.body);
  });

  it('a take-back within the available balance → 201; beyond it → 409 with the balance named, nothing written', async () => {
    const customer = await shopper();
    expect((await adjust(customer.userId, { points: 100, reason: 'Goodwill' })).status).toBe(201);
    const taken = await adjust(customer.userId, { points: -60, reason: 'Granted twice by mistake' });
    expect(taken.status).toBe(201);
    expect(taken.body).toMatchObject({ available: 40 });
    const auditBefore = await shop.database.db.$count(auditLog);
    const tooMuch = await adjust(customer.userId, { points: -41, reason: 'Granted twice by mistake' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body).toEqual({
      message: POINTS_MESSAGES.takeBackTooLarge,
      errors: { points: ['The available balance is 40 points: at most 40 can be taken back'] },
    });
    expect(await shop.database.db.$count(pointsLedger, eq(pointsLedger.userId, customer.userId))).toBe(2);
    expect(await shop.database.db.$count(auditLog)).toBe(auditBefore);
    expect((await adjust(customer.userId, { points: -40, reason: 'Closing the balance' })).body).toMatchObject({
      available: 0,
    });
  });

  const limit = POINTS_ADJUSTMENT_LIMIT;
  const bounds = `points must be between -${limit} and ${limit}`;
  for (const [label, body, field, message] of [
    ['0 points', { points: 0, reason: 'Nothing' }, 'points', 'points must not be 0'],
    ['too many points', { points: limit + 1, reason: 'Too generous' }, 'points', bounds],
    ['too large a take-back', { points: -limit - 1, reason: 'Too harsh' }, 'points', bounds],
    ['a fraction', { points: 1.5, reason: 'Half a point' }, 'points', 'points must be a whole number'],
    ['points as text', { points: '10', reason: 'Text' }, 'points', 'points must be a whole number'],
    ['no reason', { points: 10 }, 'reason', 'Please give a reason'],
    ['a reason of 2 characters', { points: 10, reason: ' ok ' }, 'reason', 'The reason must be at least 3 characters'],
    [
      'a reason of 201 characters',
      { points: 10, reason: 'x'.repeat(201) },
      'reason',
      'The reason must be 200 characters or fewer',
    ],
  ] as const) {
    it(`${label} → 400 on ${field}, nothing written`, async () => {
      const customer = await shopper();
      const answer = await adjust(customer.userId, body);
      expect(answer.status).toBe(400);
      expect(answer.body.errors?.[field]).toEqual([message]);
      expect(await shop.database.db.$count(pointsLedger, eq(pointsLedger.userId, customer.userId))).toBe(0);
    });
  }

  it('the bounds themselves are accepted', async () => {
    const customer = await shopper();
    expect((await adjust(customer.userId, { points: limit, reason: 'Top' })).status).toBe(201);
    expect((await adjust(customer.userId, { points: -limit, reason: 'Bottom' })).status).toBe(201);
  });

  it('an unknown user → 404 on both routes; a malformed id → 400', async () => {
    const missing = await adjust(2_000_000_000, { points: 10, reason: 'Nobody' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: POINTS_MESSAGES.userNotFound });
    const read = await call(staffToken, 'GET', '/api/admin/users/2000000000/points');
    expect(read.status).toBe(404);
    expect((await call(staffToken, 'GET', '/api/admin/users/abc/points')).status).toBe(400);
    expect((await call(staffToken, 'GET', '/api/admin/users/3000000000/points')).status).toBe(400);
  });

  it('/api/docs shows the routes and the new ledger fields', async () => {
    const answer = await shop.app.inject({ method: 'GET', url: '/api/docs/json' });
    const document = answer.json() as {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(Object.keys(document.paths['/api/admin/users/{userId}/points'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.components.schemas.PointsLedger?.properties ?? {})).toEqual(
      expect.arrayContaining(['balance', 'available', 'pending', 'pendingReleases', 'entries']),
    );
    expect(document.components.schemas.PointsAdjustment).toBeDefined();
  });
});
