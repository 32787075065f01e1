import { z } from 'zod';

/**
 * Returns are accepted for this many days after an order is fulfilled (becomes Succeeded), and
 * the points it earned stay pending, not spendable, for as long (spec-decisions "Stock").
 */
export const RETURN_WINDOW_DAYS = 30;

/** The most points one staff adjustment may grant or take back. */
export const POINTS_ADJUSTMENT_LIMIT = 100_000;

export const POINTS_MESSAGES = {
  returnWindowClosed: `Returns are accepted within ${RETURN_WINDOW_DAYS} days of delivery or collection, and that time has passed for this order. If something is faulty, please contact support: we will put it right.`,
  takeBackTooLarge: 'That would take the balance below zero',
  userNotFound: 'User not found',
} as const;

/** The kinds of ledger entry: earned on a fulfilled order, spent, given back or taken back, a staff adjustment. */
export const LEDGER_KINDS = ['earn', 'redeem', 'reverse', 'adjust'] as const;

/** `POST /api/admin/users/:userId/points`: a member of staff grants (positive) or takes back (negative) points. */
export const pointsAdjustmentSchema = z
  .object({
    points: z
      .number({ error: 'points must be a whole number' })
      .int('points must be a whole number')
      .min(
        -POINTS_ADJUSTMENT_LIMIT,
        `points must be between -${POINTS_ADJUSTMENT_LIMIT} and ${POINTS_ADJUSTMENT_LIMIT}`,
      )
      .max(POINTS_ADJUSTMENT_LIMIT, `points must be between -${POINTS_ADJUSTMENT_LIMIT} and ${POINTS_ADJUSTMENT_LIMIT}`)
      .refine((points) => points !== 0, 'points must not be 0'),
    reason: z
      .string({ error: 'Please give a reason' })
      .trim()
      .min(3, 'The reason must be at least 3 characters')
      .max(200, 'The reason must be 200 characters or fewer'),
  })
  .meta({ id: 'PointsAdjustment' });
export type PointsAdjustmentInput = z.output<typeof pointsAdjustmentSchema>;

/** The points ledger of one shopper, newest first (`GET /api/points`, `GET /api/admin/users/:userId/points`). */
export const pointsLedgerSchema = z
  .object({
    /** Spendable points now (the same number as `available`; the old client reads this). */
    balance: z.number().int(),
    available: z.number().int(),
    /** Points earned on orders still inside their return window (or with a return being decided). */
    pending: z.number().int(),
    /** When pending points free up, soonest first; `availableAt` null: held while a return is decided. */
    pendingReleases: z.array(z.object({ points: z.number().int(), availableAt: z.string().nullable() })),
    entries: z.array(
      z.object({
        id: z.number(),
        kind: z.enum(LEDGER_KINDS),
        points: z.number().int(),
        orderId: z.number().nullable(),
        note: z.string(),
        createdAt: z.string(),
        /** When the entry counts as spendable; a future date while pending, null while a return is decided. */
        availableAt: z.string().nullable(),
        /** The ledger's running sum after this entry, pending points included. */
        balanceAfter: z.number().int(),
      }),
    ),
    page: z.number(),
    totalCount: z.number(),
    totalPages: z.number(),
  })
  .meta({ id: 'PointsLedger' });
export type PointsLedger = z.infer<typeof pointsLedgerSchema>;
