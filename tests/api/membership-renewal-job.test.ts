import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { membershipCharges, memberships } from '../../db/schema.ts';
import { buildApp } from '../../server/app.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/*
 * The renewal job is wired into every app process: started when the app is ready (one pass at
 * once, then every minute) and stopped when it closes. The billing rules themselves are
 * tested through runOnce(now) in membership-billing.test.ts, with the job off.
 */
describe('the membership renewal job in a running app', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 5 });
  });
  afterAll(() => shop.close());

  it('a process that starts charges a member whose renewal is due, without being asked', async () => {
    const register = await shop.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: '127.0.21.1',
      payload: {
        firstName: 'Job',
        lastName: 'Runner',
        email: 'job.runner@example.com',
        password: 'Renewal-Job-Pass-42',
        phoneNumber: '0412 345 678',
        address: { addressLine1: '1 Main St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'Australia' },
      },
    });
    const { token, user } = register.json<{ token: string; user: { id: number } }>();
    const joined = await shop.app.inject({
      method: 'POST',
      url: '/api/membership',
      remoteAddress: '127.0.21.2',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        plan: 'basic',
        password: 'Renewal-Job-Pass-42',
        confirmPassword: 'Renewal-Job-Pass-42',
        cardData: { Number: '4242 4242 4242 4242', Expiry: '07/40', Cvc: '123', Name: 'Job Runner' },
      },
    });
    expect(joined.statusCode, joined.body).toBe(201);
    const day = 86_400_000;
    await shop.database.db
      .update(memberships)
      .set({ periodStartedAt: new Date(Date.now() - 31 * day), renewsOn: new Date(Date.now() - 60_000) })
      .where(eq(memberships.userId, user.id));

    const process = await buildApp({ config: shop.app.config, database: shop.database, logger: false });
    try {
      await process.ready();
      const renewals = async () =>
        (await shop.database.db.select().from(membershipCharges).where(eq(membershipCharges.userId, user.id))).filter(
          (charge) => charge.kind === 'renewal' && charge.status === 'approved',
        );
      await expect.poll(async () => (await renewals()).length, { timeout: 15_000, interval: 100 }).toBe(1);
    } finally {
      await process.close();
    }
  });
});
