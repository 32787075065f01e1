import { createHash, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { carrierName, trackingUrl } from '../../contracts/fulfilment.ts';
import { MEMBERSHIP_MESSAGES, type MembershipPlanId } from '../../contracts/membership.ts';
import type { RedemptionInput } from '../../contracts/membership-input.ts';
import { centsToDollars } from '../../contracts/money.ts';
import {
  type AdjustmentNoteSummary,
  ORDER_MESSAGES,
  type Order,
  type PlaceOrderInput,
  type ReturnRequestInput,
  type ShippingAddress,
} from '../../contracts/orders.ts';
import { POINTS_MESSAGES, RETURN_WINDOW_DAYS } from '../../contracts/points.ts';
import { isGstFreeExport, lineTotalCents, priceOrder } from '../../contracts/pricing.ts';
import type { Database } from '../../db/client.ts';
import { type ProcessLiveness, singleProcessLiveness } from '../../db/process-liveness.ts';
import {
  type OrderFulfilmentRow,
  type OrderItemRow,
  type OrderRow,
  orderEvents,
  orderFulfilments,
  orderItems,
  orders,
  paymentMethods,
  products,
  returnRequests,
  users,
} from '../../db/schema.ts';
import type { Tally } from '../metrics.ts';
import type { CardVelocity } from './card-velocity.ts';
import { clearSavedCart, mergeCart } from './cart.ts';
import { renderEmail } from './email-layout.ts';
import { ConflictError, DomainError, NotFoundError } from './errors.ts';
import type { IssuedInvoice } from './invoice.ts';
import type { Mailer } from './mail.ts';
import {
  newOrderToShopEmail,
  type OrderEmailShop,
  orderPlacedEmail,
  pointsOrderEmail,
  returnReceivedEmail,
} from './order-emails.ts';
import type { ChargeResult, PaymentGateway, PaymentSource } from './payments.ts';
import { addLedgerEntry, earnOnFulfilment, holdForReturn, lockBalance, pointsEarned } from './points.ts';
import { cancelledEmail } from './refund-emails.ts';
import {
  type AdjustmentNoteRow,
  cancelRefundFigures,
  findAdjustmentNote,
  loadAdjustmentNotes,
  recordPointsRefund,
  recordRefund,
} from './refunds.ts';
import { releaseStock, reserveStock, type Transaction } from './stock.ts';

/** A declined payment: 402 with the spec's text; the order's transaction has rolled back. */
export class PaymentDeclinedError extends DomainError {
  constructor(message: string) {
    super(402, message);
  }
}

type OrderStatus = OrderRow['status'];
/** Who moved an order: the customer, the system, or a member of staff ('admin <e-mail>'). */
export type OrderActor = 'customer' | 'system' | 'admin' | `admin ${string}`;

export interface OrderDeps {
  db: Database;
  gateway: PaymentGateway;
  mailer: Mailer;
  shopName: string;
  /** Who the order e-mails are from, where links point and where the owner hears of new orders. */
  emailShop: OrderEmailShop;
  /** Told which products' stock an order changed, after it commits (the catalogue cache forgets them). */
  onStockChange?: (productIds: number[]) => void;
  /** The shopper's membership plan now (Premium ships free; plans earn points); null for none. */
  shippingPlanOf?: (userId: number) => Promise<MembershipPlanId | null>;
  /** Caps on declined card attempts (issue 21): every charge at checkout is one counted attempt. */
  cardVelocity: CardVelocity;
  /** Counts orders placed and declined for /metrics (server/metrics.ts); none in tests that do not look. */
  tallies?: { ordersPlaced: Tally; ordersDeclined: Tally };
  /** Which processes are alive, to tell a reservation in flight from one a dead process left (db/process-liveness.ts). */
  liveness?: ProcessLiveness;
}

/** How long the same key waits for its order's payment in flight before 409 "Order in progress". */
const IN_FLIGHT_WAIT_MS = 10_000;
const IN_FLIGHT_POLL_MS = 50;
/** The sweep leaves younger reservations alone: their charge may still be on its way. */
const RESERVATION_GRACE_MS = 30_000;

/**
 * The gateway's idempotency key of a reservation: its shopper, checkout sessionId and order
 * row. A retry or the sweep settling that reservation asks with the same key; a declined one
 * is released (its row deleted), so the shopper's next card on the same checkout is a new key.
 */
function chargeKeyOf(row: Pick<OrderRow, 'id' | 'userId' | 'idempotencyKey'>): string {
  return `${row.userId}:${row.idempotencyKey}:${row.id}`;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Who is placing the order: their account and what the shop knows of their plan. */
export interface Buyer {
  userId: number;
  /** The client address the order came from (the caps on declined cards count it); null when unknown. */
  address?: string | null;
}

/** A new order's row before it is priced: no money yet, and where it goes (the inverse of `addressOf`); no address for click & collect. */
function unpricedTo(address: ShippingAddress | null) {
  return {
    subtotalCents: 0,
    gstCents: 0,
    shippingCents: 0,
    // Set, not null: an order placed from now on shows its delivery's GST on its invoice.
    shippingGstCents: 0,
    totalCents: 0,
    shipFullName: address?.fullName ?? null,
    shipAddressLine1: address?.addressLine1 ?? null,
    shipAddressLine2: address?.addressLine2 ?? null,
    shipCity: address?.city ?? null,
    shipState: address?.state ?? null,
    shipPostalCode: address?.postalCode ?? null,
    shipCountry: address?.country ?? null,
  };
}

function addressOf(row: OrderRow): ShippingAddress | null {
  if (!row.shipFullName || !row.shipAddressLine1 || !row.shipCity || !row.shipState || !row.shipPostalCode) return null;
  return {
    fullName: row.shipFullName,
    addressLine1: row.shipAddressLine1,
    addressLine2: row.shipAddressLine2,
    city: row.shipCity,
    state: row.shipState,
    postalCode: row.shipPostalCode,
    country: (row.shipCountry ?? 'Australia') as ShippingAddress['country'],
  };
}

export function toOrder(
  row: OrderRow,
  items: OrderItemRow[],
  returnStatus: Order['returnStatus'] = null,
  adjustmentNotes: AdjustmentNoteSummary[] = [],
  fulfilmentRow: OrderFulfilmentRow | null = null,
): Order {
  return {
    id: row.id,
    orderNumber: row.orderNumber,
    createdAt: row.createdAt.toISOString(),
    status: row.status,
    paymentStatus: row.paymentStatus,
    transactionId: row.transactionId,
    email: row.email,
    cardBrand: row.cardBrand,
    cardLast4: row.cardLast4,
    totalAmount: centsToDollars(row.subtotalCents),
    subtotal: centsToDollars(row.subtotalCents),
    taxAmount: centsToDollars(row.gstCents),
    shippingCost: centsToDollars(row.shippingCents),
    total: centsToDollars(row.totalCents),
    items: items.map((item) => ({
      id: item.id,
      productId: item.productId,
      productName: item.productName,
      variantId: item.variantId,
      variantName: item.variantName,
      sku: item.sku,
      quantity: item.quantity,
      unitPrice: centsToDollars(item.unitPriceCents),
      lineTotal: centsToDollars(lineTotalCents(item)),
      imageUrl: item.imageUrl,
    })),
    shippingAddress: addressOf(row),
    returnStatus,
    pointsSpent: row.pointsSpent,
    shippingTaxAmount: centsToDollars(row.shippingGstCents ?? 0),
    totalTaxAmount: centsToDollars(row.gstCents + (row.shippingGstCents ?? 0)),
    gstFreeExport: isGstFreeExportOrder(row),
    refundedAmount: centsToDollars(row.refundedCents),
    refundedAt: row.refundedAt?.toISOString() ?? null,
    adjustmentNotes,
    fulfilment: row.fulfilment,
    contactPhone: row.contactPhone,
    fulfilmentRecord: fulfilmentRecordOf(fulfilmentRow),
  };
}

/** The order's fulfilment record as the order page shows it: the carrier's name and tracking link added. */
function fulfilmentRecordOf(row: OrderFulfilmentRow | null): Order['fulfilmentRecord'] {
  if (!row) return null;
  return {
    method: row.method,
    carrier: row.carrier,
    carrierName: carrierName(row.carrier),
    trackingNumber: row.trackingNumber,
    trackingUrl: trackingUrl(row.carrier, row.trackingNumber),
    shippedAt: row.shippedAt?.toISOString() ?? null,
    readyAt: row.readyAt?.toISOString() ?? null,
    collectedAt: row.collectedAt?.toISOString() ?? null,
  };
}

/**
 * An order priced as a GST-free export (delivered outside Australia). Orders issued before
 * exports were GST-free (no stored delivery GST) charged GST and keep saying so.
 */
export function isGstFreeExportOrder(
  row: Pick<OrderRow, 'fulfilment' | 'shipCountry' | 'shippingGstCents' | 'pointsSpent'>,
): boolean {
  return (
    row.pointsSpent === 0 &&
    row.shippingGstCents !== null &&
    row.fulfilment === 'delivery' &&
    isGstFreeExport(row.shipCountry)
  );
}

/**
 * What an order was asked for, as a hash: the same idempotency key with a different body is
 * refused. Card numbers and CVCs are left out (a hash of a card number is still card data);
 * the card's last four digits and expiry stand in for it.
 */
export function requestHashOf(input: PlaceOrderInput): string {
  const canonical = {
    email: input.userEmail,
    items: [...input.orderItems]
      .map((line) => [line.productId, line.quantity, line.variantId ?? 0])
      .sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0)),
    address: input.fulfilment === 'collect' ? null : input.shippingAddress,
    fulfilment: input.fulfilment,
    contactPhone: input.contactPhone,
    paymentMethodId: input.paymentMethodId ?? null,
    card: input.cardData ? { last4: input.cardData.Number.slice(-4), expiry: input.cardData.Expiry } : null,
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

async function loadItems(db: Database | Transaction, orderIds: number[]): Promise<Map<number, OrderItemRow[]>> {
  const byOrder = new Map<number, OrderItemRow[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds))
    .orderBy(asc(orderItems.id));
  for (const row of rows) byOrder.set(row.orderId, [...(byOrder.get(row.orderId) ?? []), row]);
  return byOrder;
}

async function loadReturnStatuses(
  db: Database | Transaction,
  orderIds: number[],
): Promise<Map<number, Order['returnStatus']>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .select({ orderId: returnRequests.orderId, status: returnRequests.status })
    .from(returnRequests)
    .where(inArray(returnRequests.orderId, orderIds))
    .orderBy(asc(returnRequests.id));
  return new Map(rows.map((row) => [row.orderId, row.status]));
}

async function hydrate(db: Database | Transaction, rows: OrderRow[]): Promise<Order[]> {
  const ids = rows.map((row) => row.id);
  const [items, returns, notes, fulfilments] = await Promise.all([
    loadItems(db, ids),
    loadReturnStatuses(db, ids),
    loadAdjustmentNotes(db, ids),
    ids.length ? db.select().from(orderFulfilments).where(inArray(orderFulfilments.orderId, ids)) : [],
  ]);
  const fulfilmentOf = new Map(fulfilments.map((row) => [row.orderId, row]));
  return rows.map((row) =>
    toOrder(
      row,
      items.get(row.id) ?? [],
      returns.get(row.id) ?? null,
      notes.get(row.id) ?? [],
      fulfilmentOf.get(row.id) ?? null,
    ),
  );
}

const SORTS = {
  newest: [desc(orders.createdAt), desc(orders.id)],
  oldest: [asc(orders.createdAt), asc(orders.id)],
  total_desc: [desc(orders.totalCents), desc(orders.id)],
  total_asc: [asc(orders.totalCents), desc(orders.id)],
} as const;

/** Orders: placing, reading, cancelling, returns and reorders (spec §7 "Orders", spec-decisions "Stock"). */
export function createOrders({
  db,
  gateway,
  mailer,
  emailShop,
  onStockChange = () => {},
  shippingPlanOf = async () => null,
  cardVelocity,
  tallies,
  liveness = singleProcessLiveness(),
}: OrderDeps) {
  async function paymentSourceFor(buyer: Buyer, input: PlaceOrderInput): Promise<PaymentSource> {
    if (input.cardData) {
      return {
        kind: 'card',
        number: input.cardData.Number,
        expiry: input.cardData.Expiry,
        cvc: input.cardData.Cvc,
        name: input.cardData.Name,
      };
    }
    const [method] = await db
      .select({ last4: paymentMethods.last4Digits, provider: paymentMethods.provider })
      .from(paymentMethods)
      .where(and(eq(paymentMethods.id, input.paymentMethodId ?? 0), eq(paymentMethods.userId, buyer.userId)));
    if (!method) throw new NotFoundError('Payment method not found');
    return { kind: 'saved', last4: method.last4, provider: method.provider };
  }

  async function findByKey(tx: Database | Transaction, userId: number, key: string): Promise<OrderRow | undefined> {
    const [row] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
    return row;
  }

  /** The shopper's receipt (always sent) and the owner's new-order e-mail, for an order just placed (card or points). */
  function announceOrder(order: Order): void {
    if (order.email) {
      const content = order.pointsSpent > 0 ? pointsOrderEmail : orderPlacedEmail;
      void mailer.send(renderEmail(content({ ...order, email: order.email }, emailShop), emailShop));
    }
    void mailer.send(renderEmail(newOrderToShopEmail(order, emailShop), emailShop));
  }

  async function setStatus(
    tx: Transaction,
    row: OrderRow,
    status: OrderStatus,
    actor: OrderActor,
    note: string | null,
    extra: Partial<typeof orders.$inferInsert> = {},
  ) {
    const [updated] = await tx
      .update(orders)
      .set({ status, ...extra, updatedAt: new Date() })
      .where(eq(orders.id, row.id))
      .returning();
    await tx.insert(orderEvents).values({ orderId: row.id, status, actor, note });
    return updated ?? row;
  }

  /** The idempotency keys being placed in this process now, each with the tail of its queue. */
  const turns = new Map<string, Promise<unknown>>();
  /**
   * Runs `work` after every earlier request with the same idempotency key in this process has
   * finished. Held in memory for the request's length only: a crash leaves nothing behind.
   */
  /** Keys whose charge this process is making now: their reservations are not abandoned. */
  const inFlight = new Set<string>();

  /** Whether a reservation was left behind: its process died, or it is this process's and no charge of it is running. */
  async function abandoned(row: OrderRow): Promise<boolean> {
    if (inFlight.has(chargeKeyOf(row))) return false;
    if (row.reservedBy === (await liveness.id())) return true;
    return !(await liveness.isAlive(row.reservedBy ?? ''));
  }

  /**
   * Confirms a reservation whose charge was approved (Processing, Paid) or releases one whose
   * charge was declined or never made (stock back, the order and its lines gone, the key free).
   * Under the order's row lock, once: a reservation already settled answers as it was settled.
   */
  async function settleReservation(orderId: number, charge: ChargeResult | null): Promise<OrderRow | 'released'> {
    return db.transaction(async (tx) => {
      const [current] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
      if (!current) return 'released';
      if (!current.paymentStartedAt) return current;
      if (charge?.status === 'approved') {
        const row = await setStatus(tx, current, 'Processing', 'customer', 'Paid by card', {
          paymentStatus: 'Paid',
          transactionId: charge.transactionId,
          cardBrand: charge.cardBrand,
          cardLast4: charge.last4,
          paymentStartedAt: null,
          reservedBy: null,
        });
        if (current.userId !== null) await clearSavedCart(tx, current.userId);
        return row;
      }
      const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId));
      await releaseStock(tx, items);
      await tx.delete(orders).where(eq(orders.id, orderId));
      return 'released';
    });
  }

  /** Settles a reservation by what the gateway says its key's charge came to. */
  async function settleByGateway(row: OrderRow): Promise<OrderRow | 'released'> {
    const charge = await gateway.findCharge(chargeKeyOf(row));
    // Read before settling: a release deletes the order, and its lines with it.
    const items = await db
      .select({ productId: orderItems.productId })
      .from(orderItems)
      .where(eq(orderItems.orderId, row.id));
    const settled = await settleReservation(row.id, charge);
    if (settled === 'released') onStockChange(items.map((item) => item.productId));
    return settled;
  }

  async function oneAtATime<T>(userId: number, sessionId: string, work: () => Promise<T>): Promise<T> {
    const key = `${userId}:${sessionId}`;
    const mine = (turns.get(key) ?? Promise.resolve()).then(work, work);
    const tail = mine.catch(() => {});
    turns.set(key, tail);
    try {
      return await mine;
    } finally {
      if (turns.get(key) === tail) turns.delete(key);
    }
  }

  return {
    /**
     * Places an order in three steps, so no lock is held while the card gateway answers:
     * **reserve** (one short transaction: claim the idempotency key, take stock atomically —
     * 409 naming a short product, nothing changed — price every line from the database and
     * write the order, Pending, its payment in flight), **charge** the gateway outside any
     * transaction (the order's key is the gateway's idempotency key), then **confirm** it
     * (Processing, Paid) or, on a decline, **release** it (stock back, the order gone, 402).
     * The same key and body again answer the same order without a second charge or stock
     * change; while its order is in flight they wait for it (up to 10 s, else 409 "Order in
     * progress"); the same key with another body is 422. A reservation whose process died (or
     * whose confirmation failed) is settled by asking the gateway by key: the retry does it at
     * once, `settleReservations` (the sweep) otherwise.
     */
    async placeOrder(buyer: Buyer, input: PlaceOrderInput): Promise<{ order: Order; replayed: boolean }> {
      const requestHash = requestHashOf(input);
      const source = await paymentSourceFor(buyer, input);
      const plan = await shippingPlanOf(buyer.userId);
      // Click & collect keeps no address; the contact phone is the one given, else the account's.
      const fulfilment = input.fulfilment;
      const address = fulfilment === 'collect' ? null : (input.shippingAddress ?? null);
      const contactPhone =
        input.contactPhone ??
        (await db.select({ phone: users.phone }).from(users).where(eq(users.id, buyer.userId)))[0]?.phone ??
        null;

      /** The reservation: the key claimed, stock taken, the lines priced and written; or the key's order. */
      const reserve = async (): Promise<{ row: OrderRow; reserved: boolean }> => {
        const processId = await liveness.id();
        return db.transaction(async (tx) => {
          const [claimed] = await tx
            .insert(orders)
            .values({
              userId: buyer.userId,
              email: input.userEmail,
              idempotencyKey: input.sessionId,
              requestHash,
              ...unpricedTo(address),
              fulfilment,
              contactPhone,
              paymentStartedAt: new Date(),
              reservedBy: processId,
            })
            .onConflictDoNothing()
            .returning();
          if (!claimed) {
            // The key's first request has committed its reservation (the unique index made this one wait for it).
            const existing = await findByKey(tx, buyer.userId, input.sessionId);
            if (!existing) throw new ConflictError(ORDER_MESSAGES.failed);
            if (existing.requestHash !== requestHash) throw new DomainError(422, ORDER_MESSAGES.idempotencyMismatch);
            return { row: existing, reserved: false };
          }
          const lines = await reserveStock(tx, input.orderItems);
          const totals = priceOrder(lines, { plan, fulfilment, country: address?.country ?? null });
          await tx.insert(orderItems).values(
            lines.map((line) => ({
              orderId: claimed.id,
              productId: line.productId,
              productName: line.name,
              variantId: line.variantId ?? null,
              variantName: line.variantName,
              sku: line.sku,
              unitPriceCents: line.unitPriceCents,
              quantity: line.quantity,
              imageUrl: line.imageUrl,
            })),
          );
          const [row] = await tx
            .update(orders)
            .set({
              subtotalCents: totals.subtotalCents,
              gstCents: totals.gstCents,
              shippingCents: totals.shippingCents,
              shippingGstCents: totals.shippingGstCents,
              totalCents: totals.totalCents,
            })
            .where(eq(orders.id, claimed.id))
            .returning();
          return { row: row!, reserved: true };
        });
      };

      type Outcome = { row: OrderRow; replayed: boolean } | { declined: string };
      const place = async (): Promise<Outcome> => {
        const { row, reserved } = await reserve();
        if (!reserved) return answerExisting(row);
        const chargeKey = chargeKeyOf(row);
        inFlight.add(chargeKey);
        try {
          const charge = await gateway.charge({ amountCents: row.totalCents, source, idempotencyKey: chargeKey });
          const settled = await settleReservation(row.id, charge);
          if (settled === 'released') {
            // Its stock is back: what a cache read while it was held is stale.
            onStockChange(input.orderItems.map((item) => item.productId));
            if (charge.status === 'declined') return { declined: charge.message };
            // Released meanwhile by a sweep that took this process for dead: no order, so no charge.
            await gateway.refund({ transactionId: charge.transactionId, amountCents: row.totalCents });
            throw new ConflictError(ORDER_MESSAGES.failed);
          }
          return { row: settled, replayed: false };
        } finally {
          inFlight.delete(chargeKey);
        }
      };
      /** The key's order exists: the same order again, once its payment is settled. */
      const answerExisting = async (row: OrderRow): Promise<Outcome> => {
        let current: OrderRow | undefined = row;
        const waitUntil = Date.now() + IN_FLIGHT_WAIT_MS;
        while (current?.paymentStartedAt) {
          if (await abandoned(current)) {
            // Its process died, or its confirmation failed: what the gateway says settles it now.
            const settled = await settleByGateway(current);
            if (settled === 'released') return place();
            return { row: settled, replayed: false };
          }
          if (Date.now() > waitUntil) throw new ConflictError(ORDER_MESSAGES.inProgress);
          await sleep(IN_FLIGHT_POLL_MS);
          current = await findByKey(db, buyer.userId, input.sessionId);
        }
        // Released (declined) meanwhile: this request tries again as the first would.
        if (!current) return place();
        return { row: current, replayed: true };
      };
      // Requests with one key take turns (in this process), so a retried or doubled request waits
      // for the first and answers its order instead of counting as another card attempt.
      const outcome = await oneAtATime(buyer.userId, input.sessionId, async () =>
        // A key that already placed its order answers it (or 422) without counting as a card attempt.
        // The caps are counted outside the transaction: the embedded database has one connection.
        (await findByKey(db, buyer.userId, input.sessionId))
          ? place()
          : cardVelocity.attempt(
              {
                userId: buyer.userId,
                address: buyer.address ?? null,
                cardNumber: source.kind === 'card' ? source.number : null,
                purpose: 'order',
              },
              place,
              (attempt) => 'declined' in attempt,
            ),
      );
      if ('declined' in outcome) {
        tallies?.ordersDeclined.inc();
        throw new PaymentDeclinedError(outcome.declined);
      }
      const result = outcome;
      const [order] = await hydrate(db, [result.row]);
      if (!order) throw new Error('A placed order could not be read back');
      if (!result.replayed) {
        tallies?.ordersPlaced.inc();
        onStockChange(order.items.map((item) => item.productId));
        announceOrder(order);
      }
      return { order, replayed: result.replayed };
    },

    /**
     * The sweep: settles reservations left by a process that died (or whose confirmation
     * failed) by asking the gateway by key — charged: confirmed, and the shopper and owner
     * told; not charged: released. Runs at start and every minute; `olderThanMs` spares
     * reservations whose charge may still be on its way. Returns how many it settled.
     */
    async settleReservations(olderThanMs = RESERVATION_GRACE_MS): Promise<number> {
      const stale = await db
        .select()
        .from(orders)
        .where(and(isNotNull(orders.paymentStartedAt), lt(orders.paymentStartedAt, new Date(Date.now() - olderThanMs))))
        .limit(100);
      let settledCount = 0;
      for (const row of stale) {
        if (!(await abandoned(row))) continue;
        const settled = await settleByGateway(row);
        settledCount += 1;
        if (settled !== 'released') {
          const [order] = await hydrate(db, [settled]);
          if (order) {
            tallies?.ordersPlaced.inc();
            onStockChange(order.items.map((item) => item.productId));
            announceOrder(order);
          }
        }
      }
      return settledCount;
    },

    /** The shopper's orders, newest first by default, optionally of one status. */
    async listOrders(
      userId: number,
      options: {
        status?: 'all' | 'succeeded' | 'pending' | 'processing' | 'cancelled';
        sort?: keyof typeof SORTS;
        limit?: number;
      } = {},
    ): Promise<Order[]> {
      const status =
        options.status && options.status !== 'all'
          ? (options.status[0]?.toUpperCase() ?? '') + options.status.slice(1)
          : null;
      const rows = await db
        .select()
        .from(orders)
        .where(and(eq(orders.userId, userId), status ? eq(orders.status, status as OrderStatus) : undefined))
        .orderBy(...SORTS[options.sort ?? 'newest'])
        .limit(options.limit ?? 500);
      return hydrate(db, rows);
    },

    /** One of the shopper's orders; another shopper's or a missing one is 404. */
    async getOrder(userId: number, orderId: number): Promise<Order> {
      const [row] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
      if (!row) throw new NotFoundError(ORDER_MESSAGES.notFound);
      const [order] = await hydrate(db, [row]);
      return order!;
    },

    /**
     * The shopper's order's tax invoice as it was issued (404 for another's or a missing order);
     * a cancelled order has none (409).
     */
    async invoiceOf(userId: number, orderId: number): Promise<IssuedInvoice> {
      const order = await this.getOrder(userId, orderId);
      if (order.status === 'Cancelled') throw new ConflictError(ORDER_MESSAGES.noInvoiceWhenCancelled);
      const [row] = await db
        .select({ shippingGstCents: orders.shippingGstCents })
        .from(orders)
        .where(eq(orders.id, orderId));
      return { order, legacy: row?.shippingGstCents === null };
    },

    /**
     * One adjustment note of an order, for the order's owner or the shop's staff; 404 for
     * anyone else, a missing order or a note of another order.
     */
    async adjustmentNoteOf(
      viewer: { userId: number; staff: boolean },
      orderId: number,
      noteNumber: string,
    ): Promise<{ order: Order; note: AdjustmentNoteRow }> {
      const order = viewer.staff ? await this.getAnyOrder(orderId) : await this.getOrder(viewer.userId, orderId);
      const note = await findAdjustmentNote(db, order.id, noteNumber);
      if (!note) throw new NotFoundError(ORDER_MESSAGES.adjustmentNoteNotFound);
      return { order, note };
    },

    /**
     * Cancels a Pending or Processing order of the shopper (or of anyone, for the shop or the
     * system): stock goes back and a paid order is refunded in full through the gateway, with
     * its adjustment note, in one transaction; a points order gets its points back. The shopper
     * is e-mailed either way (a record: sent whatever their preferences).
     */
    async cancelOrder(
      orderId: number,
      by: { userId: number } | { admin: true; by?: OrderActor; reason?: string },
    ): Promise<Order> {
      const reason = 'userId' in by ? 'Cancelled at the customer’s request' : (by.reason ?? 'Cancelled by the shop');
      const outcome = await db.transaction(async (tx) => {
        const [current] = await tx
          .select()
          .from(orders)
          .where('userId' in by ? and(eq(orders.id, orderId), eq(orders.userId, by.userId)) : eq(orders.id, orderId))
          .for('update');
        if (!current) throw new NotFoundError(ORDER_MESSAGES.notFound);
        if (current.status === 'Cancelled') throw new ConflictError(ORDER_MESSAGES.alreadyCancelled);
        if (current.paymentStartedAt) throw new ConflictError(ORDER_MESSAGES.paymentInFlight);
        if (current.status !== 'Pending' && current.status !== 'Processing')
          throw new ConflictError(ORDER_MESSAGES.cannotCancel);
        let refunded = current;
        let note: AdjustmentNoteRow | null = null;
        // A redemption order gives its points back (the shopper's row first, as redemptions lock it):
        // its payment, in points, is refunded; no money moved, so no adjustment note.
        if (current.pointsSpent > 0 && current.userId) {
          await lockBalance(tx, current.userId);
          await addLedgerEntry(tx, {
            userId: current.userId,
            kind: 'reverse',
            points: current.pointsSpent,
            orderId: current.id,
            note: `Order ${current.orderNumber} cancelled: points returned`,
          });
          refunded = await recordPointsRefund(tx, current, true);
        }
        const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId));
        await releaseStock(tx, items);
        if (current.paymentStatus === 'Paid' && current.transactionId) {
          const figures = cancelRefundFigures(current, items);
          const { refundId } = await gateway.refund({
            transactionId: current.transactionId,
            amountCents: figures.totalCents,
          });
          const recorded = await recordRefund(tx, current, figures, { reason, refundId });
          refunded = recorded.order;
          note = recorded.note;
        }
        const row = await setStatus(
          tx,
          refunded,
          'Cancelled',
          'userId' in by ? 'customer' : (by.by ?? 'admin'),
          note ? 'Refunded in full' : null,
        );
        return { row, note };
      });
      const [order] = await hydrate(db, [outcome.row]);
      onStockChange(order!.items.map((item) => item.productId));
      if (order!.email) {
        const content = cancelledEmail({ ...order!, email: order!.email }, outcome.note, reason, emailShop);
        void mailer.send(renderEmail(content, emailShop));
      }
      return order!;
    },

    /**
     * Redeems a redemption product with loyalty points (membership issue): one transaction
     * locks the shopper's balance, checks it covers `pointsCost × quantity` (409 'Not enough
     * points'), takes the stock (409 when short) and records an order paid with points.
     */
    async redeem(userId: number, email: string, input: RedemptionInput): Promise<Order> {
      const row = await db.transaction(async (tx) => {
        const balance = await lockBalance(tx, userId);
        const [product] = await tx
          .select({ pointsCost: products.pointsCost, isRedemption: products.isRedemption })
          .from(products)
          .where(eq(products.id, input.productId));
        if (!product) throw new NotFoundError('Product not found');
        if (!product.isRedemption || product.pointsCost === null) {
          throw new DomainError(400, MEMBERSHIP_MESSAGES.notRedeemable, {
            productId: [MEMBERSHIP_MESSAGES.notRedeemable],
          });
        }
        const cost = product.pointsCost * input.quantity;
        if (balance < cost)
          throw new ConflictError(MEMBERSHIP_MESSAGES.notEnoughPoints, {
            points: [`You have ${balance} points; this needs ${cost}`],
          });
        const address = input.shippingAddress;
        const [created] = await tx
          .insert(orders)
          .values({
            userId,
            email,
            idempotencyKey: `redeem_${randomUUID()}`,
            requestHash: 'redemption',
            paymentMethod: 'points',
            pointsSpent: cost,
            ...unpricedTo(address),
          })
          .returning();
        if (!created) throw new Error('Inserting a redemption order returned no row');
        // A shortage names the field the redemption form has (`quantity`), not the checkout's `orderItems`.
        const [line] = await reserveStock(tx, [{ productId: input.productId, quantity: input.quantity }]).catch(
          (error: unknown) => {
            if (error instanceof ConflictError) throw new ConflictError(error.message, { quantity: [error.message] });
            throw error;
          },
        );
        await tx.insert(orderItems).values({
          orderId: created.id,
          productId: input.productId,
          productName: line!.name,
          sku: line!.sku,
          unitPriceCents: 0,
          quantity: input.quantity,
          imageUrl: line!.imageUrl,
        });
        await addLedgerEntry(tx, {
          userId,
          kind: 'redeem',
          points: -cost,
          orderId: created.id,
          note: `Redeemed ${input.quantity} × ${line!.name}`,
        });
        return setStatus(tx, created, 'Processing', 'customer', `Paid with ${cost} points`, { paymentStatus: 'Paid' });
      });
      const [order] = await hydrate(db, [row]);
      onStockChange([input.productId]);
      announceOrder(order!);
      return order!;
    },

    /** Any order by id, for the shop (an order whose customer deleted their account has no owner). */
    async getAnyOrder(orderId: number): Promise<Order> {
      const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
      if (!row) throw new NotFoundError(ORDER_MESSAGES.notFound);
      const [order] = await hydrate(db, [row]);
      return order!;
    },

    /** The shop received a Pending order's payment: Pending → Processing. */
    async markProcessing(orderId: number, actor: OrderActor = 'admin'): Promise<Order> {
      const row = await db.transaction(async (tx) => {
        const [current] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
        if (!current) throw new NotFoundError(ORDER_MESSAGES.notFound);
        if (current.paymentStartedAt) throw new ConflictError(ORDER_MESSAGES.paymentInFlight);
        if (current.status !== 'Pending')
          throw new ConflictError(`An order that is ${current.status} cannot be moved to Processing.`);
        return setStatus(tx, current, 'Processing', actor, null);
      });
      const [order] = await hydrate(db, [row]);
      return order!;
    },

    /** Tells the catalogue that these products' stock changed outside an order (a return put stock back). */
    stockChanged(productIds: number[]): void {
      onStockChange(productIds);
    },

    /**
     * Marks a paid order fulfilled (the shop's move, from the back office). `fulfil` runs in the
     * same transaction once the order is locked and found Processing: it checks the order may be
     * fulfilled that way and writes its fulfilment record (shipped, collected), so the status
     * and the record move together or not at all.
     */
    async markSucceeded(
      orderId: number,
      actor: OrderActor = 'admin',
      fulfil?: (tx: Transaction, current: OrderRow) => Promise<void>,
    ): Promise<Order> {
      // The plan is read before the transaction (see placeOrder).
      const [owner] = await db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId));
      const plan = owner?.userId ? await shippingPlanOf(owner.userId) : null;
      const row = await db.transaction(async (tx) => {
        const [current] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
        if (!current) throw new NotFoundError(ORDER_MESSAGES.notFound);
        if (current.status !== 'Processing')
          throw new ConflictError(`An order that is ${current.status} cannot be marked fulfilled.`);
        await fulfil?.(tx, current);
        // Points are earned when an order is fulfilled (spec-decisions "Stock"), at the plan held then,
        // and stay pending for the return window, which runs from now (`fulfilled_at`).
        const earned = current.userId ? pointsEarned(current.subtotalCents, plan) : 0;
        if (current.userId && earned > 0) {
          await earnOnFulfilment(tx, {
            userId: current.userId,
            orderId: current.id,
            points: earned,
            note: `Order ${current.orderNumber}`,
          });
        }
        await tx.update(orders).set({ fulfilledAt: sql`now()` }).where(eq(orders.id, current.id));
        return setStatus(tx, current, 'Succeeded', actor, earned > 0 ? `${earned} points earned` : null);
      });
      const [order] = await hydrate(db, [row]);
      return order!;
    },

    /** Records a return request on a Succeeded order (one open request per order). */
    async requestReturn(userId: number, orderId: number, input: ReturnRequestInput): Promise<Order> {
      const requested = await db.transaction(async (tx) => {
        const [current] = await tx
          .select()
          .from(orders)
          .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
          .for('update');
        if (!current) throw new NotFoundError(ORDER_MESSAGES.notFound);
        if (current.status !== 'Succeeded') throw new ConflictError(ORDER_MESSAGES.returnOnlySucceeded);
        if (!(await withinReturnWindow(tx, current.id))) throw new ConflictError(POINTS_MESSAGES.returnWindowClosed);
        const [open] = await tx
          .select({ id: returnRequests.id })
          .from(returnRequests)
          .where(and(eq(returnRequests.orderId, orderId), inArray(returnRequests.status, ['Requested', 'Approved'])));
        if (open) throw new ConflictError(ORDER_MESSAGES.returnAlreadyRequested);
        const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId));
        // One entry per line: two entries for the same line must not add up to more than was bought.
        const wantedById = new Map<number, number>();
        for (const wanted of input.items) {
          wantedById.set(wanted.orderItemId, (wantedById.get(wanted.orderItemId) ?? 0) + wanted.quantity);
        }
        const combined = [...wantedById].map(([orderItemId, quantity]) => ({ orderItemId, quantity }));
        for (const wanted of combined) {
          const item = items.find((candidate) => candidate.id === wanted.orderItemId);
          if (!item)
            throw new DomainError(400, 'That item is not part of this order', {
              items: ['That item is not part of this order'],
            });
          if (wanted.quantity > item.quantity) {
            throw new DomainError(400, `You can return at most ${item.quantity} of ${item.productName}`, {
              items: [`You can return at most ${item.quantity} of ${item.productName}`],
            });
          }
        }
        await tx.insert(returnRequests).values({ orderId, reason: input.reason, items: combined });
        await tx
          .insert(orderEvents)
          .values({ orderId, status: 'Return requested', actor: 'customer', note: input.reason });
        // The order's pending points wait for the decision, even past the window's end.
        await holdForReturn(tx, orderId);
        return combined;
      });
      const order = await this.getOrder(userId, orderId);
      // The shopper's record of asking inside the window: always sent (spec-decisions "Money").
      if (order.email) {
        const request = { reason: input.reason, items: requested, requestedAt: new Date() };
        void mailer.send(
          renderEmail(returnReceivedEmail({ ...order, email: order.email }, request, emailShop), emailShop),
        );
      }
      return order;
    },

    /**
     * The shopper's order's return window: when it was fulfilled, the last moment a return is
     * accepted (RETURN_WINDOW_DAYS later) and whether that is still ahead; nulls for an order
     * not fulfilled. 404 for another shopper's or a missing order.
     */
    async returnWindow(
      userId: number,
      orderId: number,
    ): Promise<{ fulfilledAt: string | null; returnsUntil: string | null; open: boolean }> {
      const [row] = await db
        .select({ fulfilledAt: orders.fulfilledAt, open: returnWindowOpen })
        .from(orders)
        .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
      if (!row) throw new NotFoundError(ORDER_MESSAGES.notFound);
      const until = row.fulfilledAt ? new Date(row.fulfilledAt.getTime() + RETURN_WINDOW_DAYS * 86_400_000) : null;
      return {
        fulfilledAt: row.fulfilledAt?.toISOString() ?? null,
        returnsUntil: until?.toISOString() ?? null,
        open: Boolean(row.open),
      };
    },

    /**
     * Puts an order's still-available lines back into the shopper's saved cart at today's
     * prices (bounded by stock) and names the lines that cannot be had.
     */
    async reorder(userId: number, orderId: number): Promise<{ added: string[]; unavailable: string[] }> {
      const order = await this.getOrder(userId, orderId);
      const cart = await mergeCart(
        db,
        userId,
        order.items.map((item) => ({ productId: item.productId, variantId: item.variantId, quantity: item.quantity })),
      );
      const key = (line: { productId: number; variantId?: number | null }) =>
        `${line.productId}:${line.variantId ?? 0}`;
      const inCart = new Set(cart.map(key));
      const label = (item: Order['items'][number]) =>
        item.variantName ? `${item.productName} (${item.variantName})` : item.productName;
      return {
        added: order.items.filter((item) => inCart.has(key(item))).map(label),
        unavailable: order.items.filter((item) => !inCart.has(key(item))).map(label),
      };
    },
  };
}

export type Orders = ReturnType<typeof createOrders>;

/** An order's return window is still open: now is before `fulfilled_at` + RETURN_WINDOW_DAYS (whole days of 24 hours). */
const returnWindowOpen = sql<boolean>`coalesce(now() < ${orders.fulfilledAt} + make_interval(hours => ${RETURN_WINDOW_DAYS * 24}), false)`;

/**
 * A Succeeded order is still inside its return window (RETURN_WINDOW_DAYS from `fulfilled_at`,
 * by the database's clock). An order with no `fulfilled_at` is outside it.
 */
async function withinReturnWindow(tx: Transaction, orderId: number): Promise<boolean> {
  const [row] = await tx.select({ open: returnWindowOpen }).from(orders).where(eq(orders.id, orderId));
  return Boolean(row?.open);
}

/** Account deletion keeps the shop's records of orders but not the person: e-mail and address go. */
export async function anonymiseOrdersOf(tx: Database | Transaction, userId: number): Promise<void> {
  await tx
    .update(orders)
    .set({
      email: null,
      shipFullName: null,
      shipAddressLine1: null,
      shipAddressLine2: null,
      shipCity: null,
      shipState: null,
      shipPostalCode: null,
      updatedAt: new Date(),
    })
    .where(eq(orders.userId, userId));
}
