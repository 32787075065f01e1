import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { User } from '../../contracts/account.ts';

/**
 * One shopper's registration, as the API tests send it: a Sydney address and a mobile number
 * (the spec's body, with `PhoneNumber` spelt as its old client does). Tests that need other
 * fields pass them in `extra`.
 */
export function registrationBody(input: {
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  extra?: Record<string, unknown>;
}): Record<string, unknown> {
  return {
    firstName: input.firstName ?? 'Ann',
    lastName: input.lastName ?? 'Lee',
    email: input.email,
    password: input.password,
    PhoneNumber: input.phone ?? '0412 345 678',
    address: { addressLine1: '1 Main St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'Australia' },
    ...input.extra,
  };
}

/**
 * Registers a shopper through `POST /api/auth/register` (from `remoteAddress`, so the
 * per-address limit counts as it would for many shoppers) and fails the test unless it is 201.
 */
export async function registerShopper(
  app: FastifyInstance,
  input: Parameters<typeof registrationBody>[0] & { remoteAddress?: string },
): Promise<{ token: string; user: User; email: string }> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    ...(input.remoteAddress ? { remoteAddress: input.remoteAddress } : {}),
    payload: registrationBody(input),
  });
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json() as { token: string; user: User };
  return { token: body.token, user: body.user, email: input.email };
}
