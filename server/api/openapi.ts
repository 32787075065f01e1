import { z } from 'zod';

export const errorBodySchema = z
  .object({
    message: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: 'Error' });

const errorDescriptions: Record<number, string> = {
  400: 'Bad input: the message names the field',
  401: 'Not signed in',
  403: 'Not allowed',
  404: 'Not found',
  402: 'Payment declined',
  409: 'Conflict',
  422: 'Idempotency key reused with another body',
  429: 'Too many requests',
};

/** The `{ message, errors? }` error responses a route can give, for its OpenAPI entry. */
export function errorResponses(...statuses: number[]): Record<number, typeof errorBodySchema> {
  return Object.fromEntries(
    statuses.map((status) => [status, errorBodySchema.describe(errorDescriptions[status] ?? 'Error')]),
  );
}
