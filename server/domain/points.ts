import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { MEMBERSHIP_PLANS, type MembershipPlanId } from '../../contracts/membership.ts';
import { POINTS_MESSAGES, type PointsLedger, RETURN_WINDOW_DAYS } from '../../contracts/points.ts';
import type { Database } from '../../db/client.ts';
import { pointsLedger, users } from '../../db/schema.ts';
import { ConflictError, NotFoundError } from './errors.ts';
import type { Transaction } from './stock.ts';

export type LedgerKind = 'earn' | 'redeem' | 'reverse' | 'adjust';

/*
 * The ledger is the only record of a balance. Each entry carries `available_at`: the moment it
 * starts to count towards the spendable (available) balance. Points earned on an order become
 * available RETURN_WINDOW_DAYS after the order was fulfilled; every other entry at once; an
 * entry whose order has a return being decided has none (null) until the decision. The
 * available balance is the sum of entries available now; pending is the sum of the rest.
 * "Now" is the database's clock. Entries are written available from their transaction's start
 * (`now()`), and read against the reading statement's start (`statement_timestamp()`): a
 * redemption that waited for the shopper's lock must count the spend committed meanwhile by a
 * transaction that began after its own, which a comparison with its own `now()` would not.
 */

/** An entry counts towards the spendable balance. */
const isAvailable = sql`(${pointsLedger.availableAt} is not null and ${pointsLedger.availableAt} <= statement_timestamp())`;
/** The end of the return window of an order fulfilled at `fulfilledAt`: whole days of 24 hours, whatever the time zone. */
const windowEnd = (fulfilledAt: SQL | Date) =>
  sql`(${fulfilledAt instanceof Date ? fulfilledAt.toISOString() : fulfilledAt}::timestamptz + make_interval(hours => ${RETURN_WINDOW_DAYS * 24}))`;

/** Points a plan earns on an order: per whole dollar of its subtotal (spec §9 plans, contracts/membership.ts). */
export function pointsEarned(subtotalCents: number, plan: MembershipPlanId | null): number {
  if (!plan) return 0;
  const rate = MEMBERSHIP_PLANS.find((candidate) => candidate.id === plan)?.pointsPerDollar ?? 0;
  return Math.floor(subtotalCents / 100) * rate;
}

/**
 * The points a return takes back: the returned lines' share of the order's subtotal (ex GST, in
 * cents) of the points the order holds, rounded down — in the shopper's favour, by less than
 * one point. A whole return (linesCents = subtotalCents) takes them all.
 */
export function pointsForReturnedLines(heldPoints: number, linesCents: number, subtotalCents: number): number {
  if (subtotalCents <= 0 || heldPoints <= 0) return 0;
  return Math.floor((heldPoints * Math.min(linesCents, subtotalCents)) / subtotalCents);
}

/** Spendable points and points still pending (earned inside a return window, or held while a return is decided). */
export async function pointsBalances(
  db: Database | Transaction,
  userId: number,
): Promise<{ available: number; pending: number }> {
  const [row] = await db
    .select({
      available: sql<number>`coalesce(sum(${pointsLedger.points}) filter (where ${isAvailable}), 0)::int`,
      pending: sql<number>`coalesce(sum(${pointsLedger.points}) filter (where not ${isAvailable}), 0)::int`,
    })
    .from(pointsLedger)
    .where(eq(pointsLedger.userId, userId));
  return { available: Number(row?.available ?? 0), pending: Number(row?.pending ?? 0) };
}

/** The spendable balance: the sum of the ledger's entries available now. */
export async function pointsBalance(db: Database | Transaction, userId: number): Promise<number> {
  return (await pointsBalances(db, userId)).available;
}

/**
 * Locks the shopper's row for the rest of the transaction and answers the spendable balance:
 * every change of a balance goes through here first, so two redemptions cannot both spend the
 * same points.
 */
export async function lockBalance(tx: Transaction, userId: number): Promise<number> {
  await tx.execute(sql`select 1 from ${users} where ${users.id} = ${userId} for update`);
  return pointsBalance(tx, userId);
}

/** Writes one entry (none for 0 points); available at once unless `availableAt` says otherwise. */
export async function addLedgerEntry(
  tx: Transaction,
  entry: {
    userId: number;
    kind: LedgerKind;
    points: number;
    orderId: number | null;
    note: string;
    availableAt?: SQL | Date | null;
  },
): Promise<void> {
  if (entry.points === 0) return;
  await tx
    .insert(pointsLedger)
    .values({ ...entry, availableAt: entry.availableAt === undefined ? sql`now()` : entry.availableAt });
}

/**
 * Records the points an order earned on being fulfilled now: pending until its return window
 * ends. The caller holds the order's row and sets its `fulfilled_at` to now() in the same
 * transaction; takes the shopper's lock.
 */
export async function earnOnFulfilment(
  tx: Transaction,
  entry: { userId: number; orderId: number; points: number; note: string },
): Promise<void> {
  if (entry.points <= 0) return;
  await lockBalance(tx, entry.userId);
  await addLedgerEntry(tx, { ...entry, kind: 'earn', availableAt: windowEnd(sql`now()`) });
}

/**
 * A return was asked for inside the window: the order's points not yet available wait for the
 * decision (so a return asked for on day 29 and approved on day 32 still takes them back in full).
 */
export async function holdForReturn(tx: Transaction, orderId: number): Promise<void> {
  await tx
    .update(pointsLedger)
    .set({ availableAt: null })
    .where(and(eq(pointsLedger.orderId, orderId), sql`${pointsLedger.availableAt} > statement_timestamp()`));
}

/** A return was refused: the order's held points are pending again until the window's end (or available, if it has passed). */
export async function releaseHeld(tx: Transaction, orderId: number, fulfilledAt: Date | null): Promise<void> {
  await tx
    .update(pointsLedger)
    .set({ availableAt: fulfilledAt ? sql`greatest(${windowEnd(fulfilledAt)}, now())` : sql`now()` })
    .where(and(eq(pointsLedger.orderId, orderId), sql`${pointsLedger.availableAt} is null`));
}

/** Points an order earned and not yet reversed. */
export async function pointsStillHeldBy(tx: Transaction, orderId: number): Promise<number> {
  const [row] = await tx
    .select({
      held: sql<number>`coalesce(sum(${pointsLedger.points}) filter (where ${pointsLedger.kind} <> 'redeem'), 0)::int`,
    })
    .from(pointsLedger)
    .where(eq(pointsLedger.orderId, orderId));
  return Number(row?.held ?? 0);
}

/**
 * Takes back `points` an order earned (an approved return). Points still pending or held go in
 * full (never more than the order still holds): the reversal is timed like them, so the
 * spendable balance never counts one without the other, and what the order keeps becomes
 * available at the window's end (at once when nothing is left, or the window has passed).
 * Earned points already available — only entries written before points had a pending time —
 * go back at most down to a spendable balance of zero. Returns the points taken.
 */
export async function reverseEarned(
  tx: Transaction,
  order: { userId: number; orderId: number; fulfilledAt: Date | null },
  points: number,
  note: string,
): Promise<number> {
  const balance = await lockBalance(tx, order.userId);
  const held = await pointsStillHeldBy(tx, order.orderId);
  const [pendingRow] = await tx
    .select({
      pending: sql<number>`coalesce(sum(${pointsLedger.points}) filter (where ${pointsLedger.kind} <> 'redeem' and not ${isAvailable}), 0)::int`,
    })
    .from(pointsLedger)
    .where(eq(pointsLedger.orderId, order.orderId));
  const pending = Number(pendingRow?.pending ?? 0);
  if (pending > 0) {
    const taken = Math.max(0, Math.min(points, pending));
    const left = pending - taken;
    const releasedAt =
      left > 0 && order.fulfilledAt ? sql`greatest(${windowEnd(order.fulfilledAt)}, now())` : sql`now()`;
    await addLedgerEntry(tx, {
      userId: order.userId,
      kind: 'reverse',
      points: -taken,
      orderId: order.orderId,
      note,
      availableAt: null,
    });
    await tx
      .update(pointsLedger)
      .set({ availableAt: releasedAt })
      .where(and(eq(pointsLedger.orderId, order.orderId), sql`not ${isAvailable}`));
    return taken;
  }
  const taken = Math.max(0, Math.min(points, held, balance));
  await addLedgerEntry(tx, { userId: order.userId, kind: 'reverse', points: -taken, orderId: order.orderId, note });
  return taken;
}

/**
 * A member of staff grants (positive) or takes back (negative) points, available at once. A
 * take-back larger than the spendable balance is refused (409): the balance never goes below
 * zero. 404 for an unknown user. Runs in the caller's transaction and takes the shopper's lock.
 */
export async function adjustPoints(
  tx: Transaction,
  entry: { userId: number; points: number; note: string },
): Promise<{ available: number }> {
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, entry.userId));
  if (!user) throw new NotFoundError(POINTS_MESSAGES.userNotFound);
  const available = await lockBalance(tx, entry.userId);
  if (available + entry.points < 0) {
    throw new ConflictError(POINTS_MESSAGES.takeBackTooLarge, {
      points: [`The available balance is ${available} points: at most ${available} can be taken back`],
    });
  }
  await addLedgerEntry(tx, {
    userId: entry.userId,
    kind: 'adjust',
    points: entry.points,
    orderId: null,
    note: entry.note,
  });
  return { available: available + entry.points };
}

/**
 * The ledger newest first, each row with the running sum after it (pending points included),
 * with the available and pending balances and when pending points free up. Entries are
 * ordered by id, the order they were written in: every write takes the shopper's lock first
 * (`lockBalance`), so ids follow the order the balance changed. `created_at` is the writing
 * transaction's start, which under concurrency can be earlier than that of an entry written
 * before it.
 */
export async function listLedger(
  db: Database,
  userId: number,
  options: { page?: number; pageSize?: number } = {},
): Promise<PointsLedger> {
  const pageSize = options.pageSize ?? 25;
  const page = Math.max(1, options.page ?? 1);
  const rows = await db
    .select({
      id: pointsLedger.id,
      kind: pointsLedger.kind,
      points: pointsLedger.points,
      orderId: pointsLedger.orderId,
      note: pointsLedger.note,
      createdAt: pointsLedger.createdAt,
      availableAt: pointsLedger.availableAt,
      balanceAfter: sql<number>`(sum(${pointsLedger.points}) over (order by ${pointsLedger.id}))::int`,
    })
    .from(pointsLedger)
    .where(eq(pointsLedger.userId, userId))
    .orderBy(desc(pointsLedger.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [total] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(pointsLedger)
    .where(eq(pointsLedger.userId, userId));
  const releases = await db
    .select({ availableAt: pointsLedger.availableAt, points: sql<number>`sum(${pointsLedger.points})::int` })
    .from(pointsLedger)
    .where(and(eq(pointsLedger.userId, userId), sql`not ${isAvailable}`))
    .groupBy(pointsLedger.availableAt)
    .orderBy(sql`${pointsLedger.availableAt} asc nulls last`);
  const { available, pending } = await pointsBalances(db, userId);
  const totalCount = Number(total?.count ?? 0);
  return {
    balance: available,
    available,
    pending,
    pendingReleases: releases
      .filter((release) => Number(release.points) !== 0)
      .map((release) => ({ points: Number(release.points), availableAt: release.availableAt?.toISOString() ?? null })),
    entries: rows.map((row) => ({
      ...row,
      balanceAfter: Number(row.balanceAfter),
      createdAt: row.createdAt.toISOString(),
      availableAt: row.availableAt?.toISOString() ?? null,
    })),
    page,
    totalCount,
    totalPages: Math.max(1, Math.ceil(totalCount / pageSize)),
  };
}
