/**
 * Saved payment methods never keep a card number in their free text (issue 21): a value with a
 * Luhn-valid run of 13–19 digits (spaces, dashes or dots between them) is refused with 400 and
 * the card-data message, on create and on update, and nothing is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentMethod } from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES } from '../../contracts/account-fields.ts';
import { paymentMethods } from '../../db/schema.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

const METHOD = {
  paymentType: 'Credit Card',
  provider: 'Visa',
  last4Digits: '4242',
  expiryMonth: '07',
  expiryYear: new Date().getFullYear() + 1,
};

describe('card numbers in the free text of payment methods', () => {
  let shop: TestShop;
  let token = '';
  let saved: PaymentMethod;

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 1 });
    const registered = await shop.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: '10.55.0.1',
      payload: {
        firstName: 'Ann',
        lastName: 'Lee',
        email: 'card-text@example.com',
        password: 'Harbour-Card-Text-42',
        PhoneNumber: '0412 345 678',
        address: { addressLine1: '1 Main St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'Australia' },
      },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    token = (registered.json() as { token: string }).token;
    const created = await send('POST', '/api/paymentmethods', { ...METHOD, paymentMethodId: 'pm_1A2B3C' });
    expect(created.statusCode, created.body).toBe(201);
    saved = created.json() as PaymentMethod;
  });
  afterAll(async () => {
    await shop?.close();
  });

  function send(method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) {
    return shop.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload });
  }

  it.each(['4242.4242.4242.4242', 'pm_4111111111111111', 'card 4000 0000 0000 0002 please', '5555-5555-5555-4444'])(
    'refuses paymentMethodId %j on create and on update, storing nothing',
    async (value) => {
      const before = await shop.database.db.select().from(paymentMethods);
      for (const [method, url] of [
        ['POST', '/api/paymentmethods'],
        ['PUT', `/api/paymentmethods/${saved.id}`],
      ] as const) {
        const answer = await send(method, url, { ...METHOD, paymentMethodId: value });
        expect(answer.statusCode, answer.body).toBe(400);
        expect((answer.json() as { errors?: Record<string, string[]> }).errors?.paymentMethodId).toEqual([
          ACCOUNT_MESSAGES.cardDataRefused,
        ]);
        expect(answer.body).not.toContain(value);
      }
      expect(await shop.database.db.select().from(paymentMethods)).toEqual(before);
    },
  );
});
