import { z } from 'zod';

/** The largest id: ids are PostgreSQL integers. */
export const MAX_ID = 2_147_483_647;

/**
 * The one id parser, for every path, query and form id (API routes and page loaders and
 * actions): "1" … "2147483647", digits only (no sign, space, leading zero, decimal point or
 * exponent). Anything else is null, so a caller answers 404 (an id in the path) or 400 (one in
 * a body) instead of sending PostgreSQL a number it cannot hold.
 */
export function parseId(value: unknown): number | null {
  if (typeof value !== 'string' || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ID ? id : null;
}

/** A database id in a path or query (parseId): "1.5", "1e3" and "abc" are 400s, not 404s. */
export const idSchema = z
  .string()
  .refine((value) => parseId(value) !== null, 'Must be a positive whole number')
  .transform((value) => parseId(value) as number)
  .meta({ type: 'integer', minimum: 1, maximum: MAX_ID });

export const idParamsSchema = z.object({ id: idSchema });

/**
 * A database id sent as a JSON number (request bodies): a whole number from 1 to MAX_ID, with
 * one message for every way it can be wrong. The bound is parseId's, so a body id past what
 * PostgreSQL holds is a 400 like a path id's 404, never a failed query.
 */
export function numberIdSchema(message = 'Must be an id') {
  return z.number({ error: message }).int(message).min(1, message).max(MAX_ID, message);
}

/** Query booleans arrive as text; only the two obvious spellings are accepted. */
export const queryBooleanSchema = z
  .enum(['true', 'false'], { error: 'Must be true or false' })
  .transform((value) => value === 'true');

/** A non-negative dollar amount typed in a filter box. */
export const dollarAmountSchema = z.coerce
  .number({ error: 'Must be a number' })
  .min(0, 'Must be 0 or more')
  .max(1_000_000, 'Must be at most 1000000');

/** "3,7,12" → [3, 7, 12]; each id checked like a path id. */
export const idListSchema = z
  .string()
  .transform((value) => value.split(',').filter((part) => part !== ''))
  .pipe(z.array(z.string().refine((value) => parseId(value) !== null, 'Must be a comma-separated list of ids')).max(50))
  .transform((ids) => [...new Set(ids.map(Number))]);

/** A list's `?page=`: 1 to 10,000, 1 when absent. */
export const pageNumberSchema = z.coerce
  .number({ error: 'page must be a whole number' })
  .int('page must be a whole number')
  .min(1, 'page must be 1 or more')
  .max(10_000, 'page must be at most 10000')
  .default(1);
