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

/**
 * Every operation that takes a body also answers 415 when the body is not of its media type
 * (Fastify's own answer, in the `{ message }` shape): added to the document once here rather
 * than to each route's schema.
 */
export function withUnsupportedMediaType<T>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      if (!operation || typeof operation !== 'object' || !('requestBody' in operation)) continue;
      const entry = operation as { responses?: Record<string, unknown> };
      entry.responses ??= {};
      entry.responses['415'] ??= {
        description: 'Unsupported content type: the body is not of the media type the operation takes',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
  }
  return document;
}
