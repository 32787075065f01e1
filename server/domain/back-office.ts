import { and, asc, count, desc, eq, gte, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { centsToDollars, formatDollars } from '../../contracts/money.ts';
import { POINTS_MESSAGES, type PointsAdjustmentInput } from '../../contracts/points.ts';
import type { Database } from '../../db/client.ts';
import { contactMessages, orderEvents, orderItems, orders, returnRequests, users } from '../../db/schema.ts';
import { type Actor, recordAudit } from './audit.ts';
import { renderEmail } from './email-layout.ts';
import { ConflictError, NotFoundError } from './errors.ts';
import { recordPlainFulfilment } from './fulfilment.ts';
import type { Mailer } from './mail.ts';
import { type OrderEmailShop, orderStatusNoticeEmail, returnRejectedEmail } from './order-emails.ts';
import type { Orders } from './orders.ts';
import type { PaymentGateway } from './payments.ts';
import {
  addLedgerEntry,
  adjustPoints,
  listLedger,
  lockBalance,
  pointsForReturnedLines,
  pointsStillHeldBy,
  releaseHeld,
  reverseEarned,
} from './points.ts';
import { mayEmailOrderNotice } from './preferences.ts';
import { returnApprovedEmail } from './refund-emails.ts';
import {
  type AdjustmentNoteRow,
  recordPointsRefund,
  recordRefund,
  returnedSoFar,
  returnRefundFigures,
} from './refunds.ts';
import { releaseStock } from './stock.ts';

export const ADMIN_ORDER_STATUSES = ['Pending', 'Processing', 'Succeeded', 'Cancelled'] as const;
type OrderStatus = (typeof ADMIN_ORDER_STATUSES)[number];

/** The moves the shop may make (spec-decisions "Stock"); anything else is 409. */
const ALLOWED_MOVES: Record<OrderStatus, OrderStatus[]> = {
  Pending: ['Processing', 'Cancelled'],
  Processing: ['Succeeded', 'Cancelled'],
  Succeeded: [],
  Cancelled: [],
};

export function allowedMoves(status: string): OrderStatus[] {
  return ALLOWED_MOVES[status as OrderStatus] ?? [];
}

/**
 * The shop owner's side of orders, returns and messages: lists with search, status moves
 * (Pending → Processing → Succeeded; Cancelled from Pending or Processing with stock put
 * back), return approvals with stock back and a refund, each recorded in the audit log and
 * the order's history, and the customer e-mailed at every step.
 */
export function createBackOffice(deps: {
  db: Database;
  orderService: Orders;
  gateway: PaymentGateway;
  mailer: Mailer;
  /** Who the e-mails are from and where their links point. */
  emailShop: OrderEmailShop;
}) {
  const { db, orderService, gateway, mailer, emailShop } = deps;

  async function orderRow(id: number) {
    const [row] = await db.select().from(orders).where(eq(orders.id, id));
    if (!row) throw new NotFoundError('Order not found');
    return row;
  }

  return {
    /** Orders, newest first; `q` matches an order number (HT-100001 or 100001) or part of an e-mail. */
    async listOrders(options: {
      status?: OrderStatus | undefined;
      q?: string | undefined;
      page?: number;
      pageSize?: number;
    }) {
      const pageSize = options.pageSize ?? 25;
      const page = Math.max(1, options.page ?? 1);
      const filters: SQL[] = [];
      if (options.status) filters.push(eq(orders.status, options.status));
      const q = options.q?.trim();
      if (q) {
        const number = /^(?:HT-?)?(\d{6,})$/i.exec(q)?.[1];
        filters.push(
          or(
            ilike(orders.email, `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
            number ? eq(orders.orderNumber, `HT-${number}`) : sql`false`,
          )!,
        );
      }
      const where = filters.length ? and(...filters) : undefined;
      const [rows, [total]] = await Promise.all([
        db
          .select({
            id: orders.id,
            orderNumber: orders.orderNumber,
            email: orders.email,
            status: orders.status,
            paymentStatus: orders.paymentStatus,
            totalCents: orders.totalCents,
            createdAt: orders.createdAt,
            // Qualified by hand: in a one-table select drizzle writes bare column names, and a bare
            // "id" inside this subquery would be the order line's id, not the order's.
            itemCount: sql<number>`(select coalesce(sum(oi.quantity), 0)::int from order_items oi where oi.order_id = "orders"."id")`,
          })
          .from(orders)
          .where(where)
          .orderBy(desc(orders.createdAt), desc(orders.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        db.select({ count: count() }).from(orders).where(where),
      ]);
      const totalCount = Number(total?.count ?? 0);
      return {
        items: rows.map((row) => ({
          ...row,
          total: centsToDollars(row.totalCents),
          createdAt: row.createdAt.toISOString(),
        })),
        page,
        pageSize,
        totalCount,
        totalPages: Math.max(1, Math.ceil(totalCount / pageSize)),
      };
    },

    /** One order with its customer, history and return requests. */
    async getOrder(id: number) {
      const row = await orderRow(id);
      const [customer] = row.userId
        ? await db
            .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
            .from(users)
            .where(eq(users.id, row.userId))
        : [];
      const [order, history, returns] = await Promise.all([
        row.userId ? orderService.getOrder(row.userId, id) : orderService.getAnyOrder(id),
        db
          .select()
          .from(orderEvents)
          .where(eq(orderEvents.orderId, id))
          .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
        db.select().from(returnRequests).where(eq(returnRequests.orderId, id)).orderBy(asc(returnRequests.id)),
      ]);
      return {
        order,
        customer: customer
          ? { id: customer.id, email: customer.email, name: `${customer.firstName} ${customer.lastName}`.trim() }
          : null,
        history: history.map((event) => ({
          status: event.status,
          actor: event.actor,
          note: event.note,
          createdAt: event.createdAt.toISOString(),
        })),
        returns: returns.map((request) => ({
          id: request.id,
          status: request.status,
          reason: request.reason,
          items: request.items,
          resolutionNote: request.resolutionNote,
          createdAt: request.createdAt.toISOString(),
        })),
        allowedMoves: allowedMoves(order.status),
      };
    },

    /** Moves an order on (409 for a move the rules do not allow); the customer is e-mailed. */
    async moveOrder(id: number, to: OrderStatus, actor: Actor) {
      const row = await orderRow(id);
      if (!allowedMoves(row.status).includes(to)) {
        throw new ConflictError(`An order that is ${row.status} cannot be moved to ${to}.`);
      }
      if (to === 'Cancelled') await orderService.cancelOrder(id, { admin: true, by: `admin ${actor.email}` });
      // The spec's client moves an order to Succeeded in one step: recorded as shipped (no carrier) or collected.
      else if (to === 'Succeeded') await orderService.markSucceeded(id, `admin ${actor.email}`, recordPlainFulfilment);
      else await orderService.markProcessing(id, `admin ${actor.email}`);
      await recordAudit(db, actor, {
        action: `order.${to.toLowerCase()}`,
        entity: 'order',
        entityId: id,
        details: { from: row.status, to },
      });
      const detail = await this.getOrder(id);
      // A cancel e-mails its own record (what was refunded, the adjustment note) from cancelOrder;
      // the other moves are notices the shopper's order-update preference can stop.
      const email = row.email;
      if (email && (to === 'Processing' || to === 'Succeeded') && (await mayEmailOrderNotice(db, row.userId))) {
        void mailer.send(renderEmail(orderStatusNoticeEmail({ ...detail.order, email }, to, emailShop), emailShop));
      }
      return detail;
    },

    /** Return requests, open ones first. */
    async listReturns(options: { status?: 'Requested' | 'Approved' | 'Rejected' | undefined } = {}) {
      const rows = await db
        .select({ request: returnRequests, orderNumber: orders.orderNumber, email: orders.email })
        .from(returnRequests)
        .innerJoin(orders, eq(orders.id, returnRequests.orderId))
        .where(options.status ? eq(returnRequests.status, options.status) : undefined)
        .orderBy(sql`${returnRequests.status} = 'Requested' desc`, desc(returnRequests.createdAt));
      const itemIds = rows.flatMap((row) => row.request.items.map((item) => item.orderItemId));
      const names = itemIds.length
        ? new Map(
            (
              await db
                .select({ id: orderItems.id, name: orderItems.productName })
                .from(orderItems)
                .where(inArray(orderItems.id, itemIds))
            ).map((item) => [item.id, item.name]),
          )
        : new Map<number, string>();
      return rows.map(({ request, orderNumber, email }) => ({
        id: request.id,
        orderId: request.orderId,
        orderNumber,
        email,
        status: request.status,
        reason: request.reason,
        resolutionNote: request.resolutionNote,
        createdAt: request.createdAt.toISOString(),
        items: request.items.map((item) => ({ ...item, productName: names.get(item.orderItemId) ?? 'Unknown item' })),
      }));
    },

    /**
     * Approves a return: the returned units go back into stock and their price with GST is
     * refunded through the gateway, in one transaction; the order then shows 'Returned'.
     */
    async approveReturn(id: number, actor: Actor) {
      const result = await db.transaction(async (tx) => {
        const [request] = await tx.select().from(returnRequests).where(eq(returnRequests.id, id)).for('update');
        if (!request) throw new NotFoundError('Return request not found');
        if (request.status !== 'Requested')
          throw new ConflictError(`This return has already been ${request.status.toLowerCase()}.`);
        const [order] = await tx.select().from(orders).where(eq(orders.id, request.orderId)).for('update');
        if (!order) throw new NotFoundError('Order not found');
        const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id));
        const returned = request.items.flatMap((wanted) => {
          const item = items.find((candidate) => candidate.id === wanted.orderItemId);
          return item
            ? [
                {
                  productId: item.productId,
                  variantId: item.variantId,
                  quantity: Math.min(wanted.quantity, item.quantity),
                  unitPriceCents: item.unitPriceCents,
                },
              ]
            : [];
        });
        const linesCents = returned.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
        // Points the order earned go back in proportion to what is returned: the returned lines'
        // share of the subtotal, rounded down (the shopper's row is locked before any product row,
        // the order redemptions lock them in). Still pending, they go in full (reverseEarned).
        if (order.userId && order.subtotalCents > 0) {
          const held = await pointsStillHeldBy(tx, order.id);
          const share = pointsForReturnedLines(held, linesCents, order.subtotalCents);
          await reverseEarned(
            tx,
            { userId: order.userId, orderId: order.id, fulfilledAt: order.fulfilledAt },
            share,
            `Order ${order.orderNumber} returned`,
          );
        }
        // A redemption order was paid with points: what comes back gives back its share of them.
        let pointsBack = 0;
        if (order.userId && order.pointsSpent > 0) {
          const ordered = items.reduce((sum, item) => sum + item.quantity, 0);
          const back = returned.reduce((sum, line) => sum + line.quantity, 0);
          pointsBack = ordered > 0 ? Math.floor((order.pointsSpent * back) / ordered) : 0;
          await lockBalance(tx, order.userId);
          await addLedgerEntry(tx, {
            userId: order.userId,
            kind: 'reverse',
            points: pointsBack,
            orderId: order.id,
            note: `Order ${order.orderNumber} returned: points returned`,
          });
        }
        await releaseStock(tx, returned);
        // The returned lines and their GST come back (none on a GST-free export); the delivery
        // charge stays, as the delivery was made. Recorded with its adjustment note in this transaction.
        const figures = returnRefundFigures(order, items, request.items, await returnedSoFar(tx, order.id));
        let refundNote = 'No payment to refund';
        let note: AdjustmentNoteRow | null = null;
        if (pointsBack > 0) {
          refundNote = `Returned ${pointsBack} points`;
          await recordPointsRefund(tx, order, pointsBack === order.pointsSpent);
        } else if (order.transactionId && figures.totalCents > 0) {
          const { refundId } = await gateway.refund({
            transactionId: order.transactionId,
            amountCents: figures.totalCents,
          });
          refundNote = `Refunded ${formatDollars(centsToDollars(figures.totalCents))} (${refundId})`;
          note = (
            await recordRefund(tx, order, figures, {
              reason: `Goods returned: ${request.reason}`,
              refundId,
              returnRequestId: request.id,
            })
          ).note;
        }
        await tx
          .update(returnRequests)
          .set({ status: 'Approved', resolutionNote: refundNote, updatedAt: new Date() })
          .where(eq(returnRequests.id, id));
        await tx
          .insert(orderEvents)
          .values({ orderId: order.id, status: 'Returned', actor: `admin ${actor.email}`, note: refundNote });
        await recordAudit(tx, actor, {
          action: 'return.approve',
          entity: 'return',
          entityId: id,
          details: {
            orderId: order.id,
            refundCents: note ? figures.totalCents : 0,
            ...(note ? { adjustmentNote: note.noteNumber } : {}),
          },
        });
        return { order, refundNote, note, productIds: returned.map((line) => line.productId) };
      });
      orderService.stockChanged(result.productIds);
      const decided = await this.getOrder(result.order.id);
      // A refund is a record: e-mailed whatever the shopper's order-update preference.
      if (result.order.email) {
        const content = returnApprovedEmail(
          { ...decided.order, email: result.order.email },
          result.note,
          result.refundNote,
          emailShop,
        );
        void mailer.send(renderEmail(content, emailShop));
      }
      return decided;
    },

    /** Rejects a return with a reason the customer is told. */
    async rejectReturn(id: number, reason: string, actor: Actor) {
      const order = await db.transaction(async (tx) => {
        const [request] = await tx.select().from(returnRequests).where(eq(returnRequests.id, id)).for('update');
        if (!request) throw new NotFoundError('Return request not found');
        if (request.status !== 'Requested')
          throw new ConflictError(`This return has already been ${request.status.toLowerCase()}.`);
        await tx
          .update(returnRequests)
          .set({ status: 'Rejected', resolutionNote: reason, updatedAt: new Date() })
          .where(eq(returnRequests.id, id));
        // The order's points held for the decision are pending again until its window ends.
        const [held] = await tx
          .select({ fulfilledAt: orders.fulfilledAt })
          .from(orders)
          .where(eq(orders.id, request.orderId))
          .for('update');
        await releaseHeld(tx, request.orderId, held?.fulfilledAt ?? null);
        await tx
          .insert(orderEvents)
          .values({ orderId: request.orderId, status: 'Return rejected', actor: `admin ${actor.email}`, note: reason });
        await recordAudit(tx, actor, {
          action: 'return.reject',
          entity: 'return',
          entityId: id,
          details: { orderId: request.orderId, reason },
        });
        const [row] = await tx.select().from(orders).where(eq(orders.id, request.orderId));
        return { ...row!, returnedItems: request.items };
      });
      const decided = await this.getOrder(order.id);
      // A return decided is a notice: the shopper's order-update preference can stop it.
      if (order.email && (await mayEmailOrderNotice(db, order.userId))) {
        const content = returnRejectedEmail(
          { ...decided.order, email: order.email },
          { reason, items: order.returnedItems },
          emailShop,
        );
        void mailer.send(renderEmail(content, emailShop));
      }
      return decided;
    },

    /**
     * A member of staff grants (positive) or takes back (negative) a shopper's points with a
     * reason: one ledger entry of kind 'adjust', available at once, and an audit entry, in one
     * transaction. 404 for an unknown user; 409 when a take-back exceeds the available balance.
     * Answers the shopper's ledger.
     */
    async adjustPoints(userId: number, input: PointsAdjustmentInput, actor: Actor) {
      await db.transaction(async (tx) => {
        const { available } = await adjustPoints(tx, { userId, points: input.points, note: input.reason });
        await recordAudit(tx, actor, {
          action: input.points > 0 ? 'points.grant' : 'points.take-back',
          entity: 'user',
          entityId: userId,
          details: { points: input.points, reason: input.reason, availableAfter: available },
        });
      });
      return listLedger(db, userId);
    },

    /** A shopper's points ledger for staff (404 for an unknown user). */
    async userPoints(userId: number, options: { page?: number } = {}) {
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
      if (!user) throw new NotFoundError(POINTS_MESSAGES.userNotFound);
      return listLedger(db, userId, options);
    },

    /** What the contact form stored, newest first. */
    async listMessages(options: { page?: number; pageSize?: number } = {}) {
      const pageSize = options.pageSize ?? 25;
      const page = Math.max(1, options.page ?? 1);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(contactMessages)
          .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        db.select({ count: count() }).from(contactMessages),
      ]);
      const totalCount = Number(total?.count ?? 0);
      return {
        items: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
        page,
        totalCount,
        totalPages: Math.max(1, Math.ceil(totalCount / pageSize)),
      };
    },

    /** The dashboard's counts: orders by status, open returns, messages this week. */
    async summary() {
      const [byStatus, [openReturns], [recentMessages]] = await Promise.all([
        db.select({ status: orders.status, count: count() }).from(orders).groupBy(orders.status),
        db.select({ count: count() }).from(returnRequests).where(eq(returnRequests.status, 'Requested')),
        db
          .select({ count: count() })
          .from(contactMessages)
          .where(gte(contactMessages.createdAt, sql`now() - interval '7 days'`)),
      ]);
      return {
        orders: Object.fromEntries(
          ADMIN_ORDER_STATUSES.map((status) => [
            status,
            Number(byStatus.find((row) => row.status === status)?.count ?? 0),
          ]),
        ) as Record<OrderStatus, number>,
        openReturns: Number(openReturns?.count ?? 0),
        recentMessages: Number(recentMessages?.count ?? 0),
      };
    },
  };
}

export type BackOffice = ReturnType<typeof createBackOffice>;
