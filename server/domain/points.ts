import { and, desc, eq, sql } from 'drizzle-orm';
import { MEMBERSHIP_PLANS, type MembershipPlanId } from '../../contracts/membership.ts';
import type { Database } from '../../db/client.ts';
import { pointsLedger, users } from '../../db/schema.ts';
import type { Transaction } from './stock.ts';

export type LedgerKind = 'earn' | 'redeem' | 'reverse';

/** Points a plan earns on an order: per whole dollar of its subtotal (spec §9 plans, contracts/membership.ts). */
export function pointsEarned(subtotalCents: number, plan: MembershipPlanId | null): number {
  if (!plan) return 0;
  const rate = MEMBERSHIP_PLANS.find((candidate) => candidate.id === plan)?.pointsPerDollar ?? 0;
  return Math.floor(subtotalCents / 100) * rate;
}

/** The balance: the ledger's sum. */
export async function pointsBalance(db: Database | Transaction, userId: number): Promise<number> {
  const [row] = await db
    .select({ balance: sql<number>`coalesce(sum(${pointsLedger.points}), 0)::int` })
    .from(pointsLedger)
    .where(eq(pointsLedger.userId, userId));
  return Number(row?.balance ?? 0);
}

/**
 * Locks the shopper's row for the rest of the transaction: every change of a balance goes
 * through here first, so two redemptions cannot both spend the same points.
 */
export async function lockBalance(tx: Transaction, userId: number): Promise<number> {
  await tx.execute(sql`select 1 from ${users} where ${users.id} = ${userId} for update`);
  return pointsBalance(tx, userId);
}

export async function addLedgerEntry(
  tx: Transaction,
  entry: { userId: number; kind: LedgerKind; points: number; orderId: number | null; note: string },
): Promise<void> {
  if (entry.points === 0) return;
  await tx.insert(pointsLedger).values(entry);
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
 * Takes back points an order earned (a cancellation or a return), never more than the
 * shopper still has: the balance cannot go below zero.
 */
export async function reverseEarned(
  tx: Transaction,
  userId: number,
  orderId: number,
  points: number,
  note: string,
): Promise<number> {
  const balance = await lockBalance(tx, userId);
  const held = await pointsStillHeldBy(tx, orderId);
  const taken = Math.max(0, Math.min(points, held, balance));
  await addLedgerEntry(tx, { userId, kind: 'reverse', points: -taken, orderId, note });
  return taken;
}

/**
 * The ledger newest first, each row with the balance after it. Entries are ordered by id, the
 * order they were written in: every write takes the shopper's lock first (`lockBalance`), so ids
 * follow the order the balance changed. `created_at` is the writing transaction's start, which
 * under concurrency can be earlier than that of an entry written before it.
 */
export async function listLedger(db: Database, userId: number, options: { page?: number; pageSize?: number } = {}) {
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
      balanceAfter: sql<number>`(sum(${pointsLedger.points}) over (order by ${pointsLedger.id}))::int`,
    })
    .from(pointsLedger)
    .where(and(eq(pointsLedger.userId, userId)))
    .orderBy(desc(pointsLedger.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [total] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(pointsLedger)
    .where(eq(pointsLedger.userId, userId));
  const totalCount = Number(total?.count ?? 0);
  return {
    balance: await pointsBalance(db, userId),
    entries: rows.map((row) => ({
      ...row,
      balanceAfter: Number(row.balanceAfter),
      createdAt: row.createdAt.toISOString(),
    })),
    page,
    totalCount,
    totalPages: Math.max(1, Math.ceil(totalCount / pageSize)),
  };
}
