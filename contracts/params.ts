import { z } from 'zod';

const MAX_INT32 = 2_147_483_647;

/** A database id in a path or query: digits only, so "1.5", "1e3" and "abc" are 400s, not 404s. */
export const idSchema = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, 'Must be a positive whole number')
  .transform(Number)
  .refine((id) => id <= MAX_INT32, 'Must be a positive whole number')
  .meta({ type: 'integer', minimum: 1 });

export const idParamsSchema = z.object({ id: idSchema });

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
  .pipe(z.array(z.string().regex(/^[1-9]\d{0,9}$/, 'Must be a comma-separated list of ids')).max(50))
  .transform((ids) => [...new Set(ids.map(Number))]);
