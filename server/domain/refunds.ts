import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { centsToDollars } from '../../contracts/money.ts';
import type { AdjustmentNoteSummary } from '../../contracts/orders.ts';
import { gstCents } from '../../contracts/pricing.ts';
import type { Database } from '../../db/client.ts';
import { adjustmentNotes, type OrderItemRow, type OrderRow, orders } from '../../db/schema.ts';
import type { Transaction } from './stock.ts';

/*
 * Refunds as records (issue 22, spec-decisions "Money"): every refund of money — a cancel, an
 * approved return — adds to the order's refunded amount and date, sets its payment status
 * (Refunded once all it cost is back, Partially refunded before) and issues an adjustment note
 * (the ATO's credit note) with the lines, the GST adjusted and the reason, in the refund's own
 * transaction. A points order gives its points back instead and issues no note.
 */

export type AdjustmentNoteRow = typeof adjustmentNotes.$inferSelect;
export type AdjustmentNoteLine = AdjustmentNoteRow['lines'][number];

/** What one refund gives back, as its adjustment note states it (cents, ex GST lines as on the invoice). */
export interface RefundFigures {
  lines: AdjustmentNoteLine[];
  subtotalCents: number;
  gstCents: number;
  /** The delivery charge refunded (GST-inclusive, as charged); 0 when delivery is kept. */
  shippingCents: number;
  /** The delivery charge's GST share refunded: what the invoice showed (none on an invoice issued before it did). */
  shippingGstCents: number;
  totalCents: number;
}

function noteLine(item: OrderItemRow, quantity: number): AdjustmentNoteLine {
  return {
    orderItemId: item.id,
    productName: item.variantName ? `${item.productName} (${item.variantName})` : item.productName,
    sku: item.sku,
    quantity,
    unitPriceCents: item.unitPriceCents,
    totalCents: item.unitPriceCents * quantity,
  };
}

/** A cancel gives back everything the order cost: every line, its GST and the delivery charge. */
export function cancelRefundFigures(order: OrderRow, items: OrderItemRow[]): RefundFigures {
  return {
    lines: items.map((item) => noteLine(item, item.quantity)),
    subtotalCents: order.subtotalCents,
    gstCents: order.gstCents,
    shippingCents: order.shippingCents,
    shippingGstCents: order.shippingCents > 0 ? (order.shippingGstCents ?? 0) : 0,
    totalCents: order.totalCents,
  };
}

/** What earlier approved returns of the order gave back (their adjustment notes' goods and GST). */
export interface ReturnedSoFar {
  subtotalCents: number;
  gstCents: number;
}

/**
 * An approved return gives back the returned lines and their GST; the delivery charge is kept
 * (the delivery was made). GST is counted on everything returned so far, less what earlier
 * returns refunded, so returns one after another add up to 10 % of all they returned — and to
 * exactly the order's GST once every line is back — never more than was charged; none when the
 * order charged none (a GST-free export).
 */
export function returnRefundFigures(
  order: OrderRow,
  items: OrderItemRow[],
  wanted: { orderItemId: number; quantity: number }[],
  before: ReturnedSoFar = { subtotalCents: 0, gstCents: 0 },
): RefundFigures {
  const lines = wanted.flatMap((line) => {
    const item = items.find((candidate) => candidate.id === line.orderItemId);
    const quantity = item ? Math.min(line.quantity, item.quantity) : 0;
    return item && quantity > 0 ? [noteLine(item, quantity)] : [];
  });
  const subtotal = lines.reduce((sum, line) => sum + line.totalCents, 0);
  const returned = before.subtotalCents + subtotal;
  const gstOfAllReturned =
    returned >= order.subtotalCents ? order.gstCents : Math.min(gstCents(returned), order.gstCents);
  const gst = order.gstCents === 0 ? 0 : Math.max(0, gstOfAllReturned - before.gstCents);
  return {
    lines,
    subtotalCents: subtotal,
    gstCents: gst,
    shippingCents: 0,
    shippingGstCents: 0,
    totalCents: subtotal + gst,
  };
}

/** Refunded in full once everything the order cost is back; partly before that. */
export function paymentStatusAfterRefund(totalCents: number, refundedCents: number): 'Refunded' | 'Partially refunded' {
  return refundedCents >= totalCents ? 'Refunded' : 'Partially refunded';
}

/**
 * Records a refund of money made through the gateway: the adjustment note and the order's
 * refunded amount, date and payment status, in the caller's transaction (which holds the
 * order's row). Answers the note and the order as it now stands.
 */
export async function recordRefund(
  tx: Transaction,
  order: OrderRow,
  figures: RefundFigures,
  details: { reason: string; refundId: string | null; returnRequestId?: number | null },
): Promise<{ note: AdjustmentNoteRow; order: OrderRow }> {
  const [note] = await tx
    .insert(adjustmentNotes)
    .values({
      orderId: order.id,
      returnRequestId: details.returnRequestId ?? null,
      reason: details.reason,
      lines: figures.lines,
      subtotalCents: figures.subtotalCents,
      gstCents: figures.gstCents,
      shippingCents: figures.shippingCents,
      shippingGstCents: figures.shippingGstCents,
      totalCents: figures.totalCents,
      refundId: details.refundId,
    })
    .returning();
  if (!note) throw new Error('Inserting an adjustment note returned no row');
  const refunded = Math.min(order.totalCents, order.refundedCents + figures.totalCents);
  const [updated] = await tx
    .update(orders)
    .set({
      refundedCents: refunded,
      refundedAt: sql`now()`,
      paymentStatus: paymentStatusAfterRefund(order.totalCents, refunded),
      ...(details.refundId ? { refundId: details.refundId } : {}),
      updatedAt: new Date(),
    })
    .where(eq(orders.id, order.id))
    .returning();
  return { note, order: updated ?? order };
}

/**
 * Records points given back for a points order (no money moved, so no adjustment note): its
 * payment is Refunded once every point is back, Partially refunded before; the date is kept.
 */
export async function recordPointsRefund(tx: Transaction, order: OrderRow, allPointsBack: boolean): Promise<OrderRow> {
  const [updated] = await tx
    .update(orders)
    .set({
      paymentStatus: allPointsBack ? 'Refunded' : 'Partially refunded',
      refundedAt: sql`now()`,
      updatedAt: new Date(),
    })
    .where(eq(orders.id, order.id))
    .returning();
  return updated ?? order;
}

/** Where an order's adjustment note is served to its owner (and staff) through the API. */
export function adjustmentNoteApiPath(orderId: number, noteNumber: string): string {
  return `/api/orders/${orderId}/adjustment-notes/${noteNumber}.pdf`;
}

/** The page route of the same note: what the order page and the e-mails link to (a browser signs in on the way). */
export function adjustmentNotePagePath(orderId: number, noteNumber: string): string {
  return `/orders/${orderId}/adjustment-notes/${noteNumber}.pdf`;
}

export function toAdjustmentNoteSummary(note: AdjustmentNoteRow): AdjustmentNoteSummary {
  return {
    number: note.noteNumber,
    date: note.createdAt.toISOString(),
    amount: centsToDollars(note.totalCents),
    reason: note.reason,
    url: adjustmentNoteApiPath(note.orderId, note.noteNumber),
  };
}

/** What the order's earlier approved returns gave back, from their adjustment notes (in the caller's transaction). */
export async function returnedSoFar(tx: Database | Transaction, orderId: number): Promise<ReturnedSoFar> {
  const [row] = await tx
    .select({
      subtotalCents: sql<number>`coalesce(sum(${adjustmentNotes.subtotalCents}), 0)::int`,
      gstCents: sql<number>`coalesce(sum(${adjustmentNotes.gstCents}), 0)::int`,
    })
    .from(adjustmentNotes)
    .where(and(eq(adjustmentNotes.orderId, orderId), isNotNull(adjustmentNotes.returnRequestId)));
  return { subtotalCents: Number(row?.subtotalCents ?? 0), gstCents: Number(row?.gstCents ?? 0) };
}

/** The adjustment notes of these orders, oldest first, in one query (lists stay one query per kind). */
export async function loadAdjustmentNotes(
  db: Database | Transaction,
  orderIds: number[],
): Promise<Map<number, AdjustmentNoteSummary[]>> {
  const byOrder = new Map<number, AdjustmentNoteSummary[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db
    .select()
    .from(adjustmentNotes)
    .where(inArray(adjustmentNotes.orderId, orderIds))
    .orderBy(asc(adjustmentNotes.id));
  for (const row of rows) byOrder.set(row.orderId, [...(byOrder.get(row.orderId) ?? []), toAdjustmentNoteSummary(row)]);
  return byOrder;
}

/** One adjustment note of an order by its number (AN-…); null when the order has no such note. */
export async function findAdjustmentNote(
  db: Database,
  orderId: number,
  noteNumber: string,
): Promise<AdjustmentNoteRow | null> {
  const [row] = await db
    .select()
    .from(adjustmentNotes)
    .where(and(eq(adjustmentNotes.orderId, orderId), eq(adjustmentNotes.noteNumber, noteNumber)));
  return row ?? null;
}
