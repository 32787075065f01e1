import { and, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { COLLECT_RULES, carrierName, FULFILMENT_MESSAGES, type ShipOrderInput } from '../../contracts/fulfilment.ts';
import type { Order } from '../../contracts/orders.ts';
import type { Database } from '../../db/client.ts';
import { type OrderRow, orderEvents, orderFulfilments, orders } from '../../db/schema.ts';
import type { ShopIdentity } from '../config.ts';
import { describeWeek } from '../shop-hours.ts';
import { type Actor, recordAudit } from './audit.ts';
import { type EmailContent, formatEmailDate, renderEmail } from './email-layout.ts';
import { ConflictError, NotFoundError } from './errors.ts';
import type { Mailer } from './mail.ts';
import { orderEmailLines, orderEmailTotals } from './order-emails.ts';
import type { Orders } from './orders.ts';
import { mayEmailOrderNotice } from './preferences.ts';
import type { Transaction } from './stock.ts';

const DAY_MS = 86_400_000;

interface JobLog {
  error(object: object, message: string): void;
}

/**
 * An order moved to Succeeded the old way (`PUT /api/admin/orders/:id/status`, the spec's
 * client): a delivery is recorded as shipped by an unnamed carrier, a collect order as collected.
 */
export async function recordPlainFulfilment(tx: Transaction, current: OrderRow): Promise<void> {
  const now = sql`now()`;
  const target = orderFulfilments.orderId;
  if (current.fulfilment === 'collect') {
    await tx
      .insert(orderFulfilments)
      .values({ orderId: current.id, method: 'collect', readyAt: now, collectedAt: now })
      .onConflictDoUpdate({
        target,
        set: { readyAt: sql`coalesce(${orderFulfilments.readyAt}, now())`, collectedAt: now, updatedAt: now },
      });
    return;
  }
  await tx
    .insert(orderFulfilments)
    .values({ orderId: current.id, method: 'delivery', shippedAt: now })
    .onConflictDoUpdate({ target, set: { shippedAt: now, updatedAt: now } });
}

/**
 * Fulfilment by the owner (issue 22, spec-decisions "Fulfilment"): a delivery is *Shipped*
 * with a carrier and tracking number (→ Succeeded); a click & collect order is *Ready to
 * collect* (still Processing) and then *Collected* (→ Succeeded). Each step writes the
 * `order_fulfilments` record, the order's history and the audit log in one transaction, then
 * e-mails the shopper (an order-update notice: their preference can stop it).
 *
 * The uncollected-order job (`runOnce(now)`; every process runs it, app.ts starts it): an
 * order ready 7 days is reminded once (a conditional update claims it), one ready 14 days is
 * cancelled and refunded through the orders' own cancel (stock back, refund and adjustment
 * note recorded), which locks the order: with two processes one cancels, the other finds it
 * cancelled and moves on.
 */
export function createFulfilment({
  db,
  orderService,
  mailer,
  shop,
  origin,
}: {
  db: Database;
  orderService: Orders;
  mailer: Mailer;
  shop: ShopIdentity;
  /** PUBLIC_URL (or the local origin): links in e-mails. */
  origin: string;
}) {
  let log: JobLog = { error: () => {} };
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<unknown> | null = null;
  const emailShop = { name: shop.name, origin };
  const { address } = shop;
  const storeAddress = `${shop.name}, ${address.street}, ${address.suburb} ${address.state} ${address.postcode}`;

  /** Sends an order-update notice unless the shopper turned those off (spec-decisions "Money"). */
  async function notify(order: Order, userId: number | null, content: (to: string) => EmailContent): Promise<void> {
    if (!order.email) return;
    if (!(await mayEmailOrderNotice(db, userId))) return;
    await mailer.send(renderEmail(content(order.email), emailShop));
  }

  const orderLink = (order: Order) => ({ label: 'View your order', url: `${origin}/orders/${order.id}` });
  const collectBy = (readyAt: Date) =>
    formatEmailDate(new Date(readyAt.getTime() + COLLECT_RULES.expireAfterDays * DAY_MS));
  const whereAndWhen = [
    `Collect it from ${storeAddress}.`,
    `Opening hours: ${describeWeek(shop.openingHours)}.`,
    `Bring your order number and photo ID. Questions? Call us on ${shop.phone}.`,
  ];

  function shippedEmail(order: Order): (to: string) => EmailContent {
    const record = order.fulfilmentRecord;
    const shippedOn = record?.shippedAt ? formatEmailDate(new Date(record.shippedAt)) : formatEmailDate(new Date());
    return (to) => ({
      to,
      kind: 'order-shipped',
      subject: `Your ${shop.name} order ${order.orderNumber} is on its way`,
      heading: 'Your order is on its way',
      paragraphs: [
        `Order ${order.orderNumber} left our store on ${shippedOn} with ${record?.carrierName ?? 'our courier'}.`,
        `Tracking number: ${record?.trackingNumber ?? 'not given'}.`,
        record?.trackingUrl ? '' : 'Quote this number to the carrier to follow your parcel.',
        ...(order.contactPhone ? [`The courier will call ${order.contactPhone} if they need to.`] : []),
      ],
      lines: orderEmailLines(order),
      totals: orderEmailTotals(order),
      action: record?.trackingUrl ? { label: 'Track your parcel', url: record.trackingUrl } : orderLink(order),
    });
  }

  function readyEmail(order: Order, readyAt: Date): (to: string) => EmailContent {
    return (to) => ({
      to,
      kind: 'order-ready-to-collect',
      subject: `Your ${shop.name} order ${order.orderNumber} is ready to collect`,
      heading: 'Your order is ready to collect',
      paragraphs: [
        `Order ${order.orderNumber} is packed and waiting for you at our ${address.suburb} store.`,
        ...whereAndWhen,
        `Please collect it by ${collectBy(readyAt)}: an order not collected within ${COLLECT_RULES.expireAfterDays} days is cancelled and refunded.`,
      ],
      lines: orderEmailLines(order),
      totals: orderEmailTotals(order),
      action: orderLink(order),
      after: [`Your order number: ${order.orderNumber}.`],
    });
  }

  function reminderEmail(order: Order, readyAt: Date): (to: string) => EmailContent {
    return (to) => ({
      to,
      kind: 'order-collect-reminder',
      subject: `Reminder: your ${shop.name} order ${order.orderNumber} is waiting to be collected`,
      heading: 'Your order is still waiting for you',
      paragraphs: [
        `Order ${order.orderNumber} has been ready to collect since ${formatEmailDate(readyAt)}.`,
        ...whereAndWhen,
        `If it is not collected by ${collectBy(readyAt)}, we will cancel it and refund your payment in full.`,
      ],
      lines: orderEmailLines(order),
      totals: orderEmailTotals(order),
      action: orderLink(order),
      after: [`Your order number: ${order.orderNumber}.`],
    });
  }

  async function ownerOf(orderId: number): Promise<number | null> {
    const [row] = await db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId));
    return row?.userId ?? null;
  }

  async function sendReminders(now: Date): Promise<number> {
    const claimed = await db
      .update(orderFulfilments)
      .set({ collectReminderSentAt: now, updatedAt: now })
      .where(
        and(
          eq(orderFulfilments.method, 'collect'),
          isNotNull(orderFulfilments.readyAt),
          lte(orderFulfilments.readyAt, new Date(now.getTime() - COLLECT_RULES.reminderAfterDays * DAY_MS)),
          isNull(orderFulfilments.collectReminderSentAt),
          isNull(orderFulfilments.collectedAt),
          sql`exists (select 1 from ${orders} where ${orders.id} = ${orderFulfilments.orderId} and ${orders.status} = 'Processing')`,
        ),
      )
      .returning();
    for (const row of claimed) {
      try {
        const order = await orderService.getAnyOrder(row.orderId);
        await notify(order, await ownerOf(row.orderId), reminderEmail(order, row.readyAt ?? now));
      } catch (error) {
        log.error({ err: error, orderId: row.orderId }, 'collect reminder failed');
      }
    }
    return claimed.length;
  }

  async function cancelUncollected(now: Date): Promise<{ expired: number; failed: number }> {
    const due = await db
      .select({ orderId: orderFulfilments.orderId })
      .from(orderFulfilments)
      .innerJoin(orders, eq(orders.id, orderFulfilments.orderId))
      .where(
        and(
          eq(orderFulfilments.method, 'collect'),
          lte(orderFulfilments.readyAt, new Date(now.getTime() - COLLECT_RULES.expireAfterDays * DAY_MS)),
          isNull(orderFulfilments.collectedAt),
          eq(orders.status, 'Processing'),
        ),
      )
      .limit(100);
    const outcome = { expired: 0, failed: 0 };
    for (const { orderId } of due) {
      try {
        await orderService.cancelOrder(orderId, {
          admin: true,
          by: 'system',
          reason: `Not collected within ${COLLECT_RULES.expireAfterDays} days of being ready`,
        });
        outcome.expired += 1;
      } catch (error) {
        // Another process cancelled it first (or the shop did): nothing left to do.
        if (error instanceof ConflictError) continue;
        outcome.failed += 1;
        log.error({ err: error, orderId }, 'cancelling an uncollected order failed');
      }
    }
    return outcome;
  }

  /** One pass of the uncollected-order job at `now`. */
  async function runOnce(now: Date = new Date()) {
    const reminded = await sendReminders(now);
    const { expired, failed } = await cancelUncollected(now);
    return { reminded, expired, failed };
  }

  return {
    /** A delivery leaves with a carrier and a tracking number: Succeeded, points earned, the shopper told. */
    async ship(orderId: number, input: ShipOrderInput, actor: Actor): Promise<Order> {
      const order = await orderService.markSucceeded(orderId, `admin ${actor.email}`, async (tx, current) => {
        if (current.fulfilment !== 'delivery') throw new ConflictError(FULFILMENT_MESSAGES.notDelivery);
        const now = sql`now()`;
        const record = { carrier: input.carrier, trackingNumber: input.trackingNumber, shippedAt: now };
        await tx
          .insert(orderFulfilments)
          .values({ orderId, method: 'delivery', ...record })
          .onConflictDoUpdate({ target: orderFulfilments.orderId, set: { ...record, updatedAt: now } });
        await tx.insert(orderEvents).values({
          orderId,
          status: 'Shipped',
          actor: `admin ${actor.email}`,
          note: `${carrierName(input.carrier)} ${input.trackingNumber}`,
        });
        await recordAudit(tx, actor, {
          action: 'order.shipped',
          entity: 'order',
          entityId: orderId,
          details: { carrier: input.carrier, trackingNumber: input.trackingNumber },
        });
      });
      await notify(order, await ownerOf(orderId), shippedEmail(order));
      return order;
    },

    /** A click & collect order is packed and waiting at the store: still Processing; the shopper told where and when. */
    async readyToCollect(orderId: number, actor: Actor): Promise<Order> {
      const readyAt = await db.transaction(async (tx) => {
        const [current] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
        if (!current) throw new NotFoundError('Order not found');
        if (current.fulfilment !== 'collect') throw new ConflictError(FULFILMENT_MESSAGES.notCollect);
        if (current.status !== 'Processing') throw new ConflictError(FULFILMENT_MESSAGES.notProcessing);
        const [existing] = await tx.select().from(orderFulfilments).where(eq(orderFulfilments.orderId, orderId));
        if (existing?.readyAt) throw new ConflictError(FULFILMENT_MESSAGES.alreadyReady);
        const now = sql`now()`;
        const [written] = await tx
          .insert(orderFulfilments)
          .values({ orderId, method: 'collect', readyAt: now })
          .onConflictDoUpdate({ target: orderFulfilments.orderId, set: { readyAt: now, updatedAt: now } })
          .returning();
        await tx
          .insert(orderEvents)
          .values({ orderId, status: 'Ready to collect', actor: `admin ${actor.email}`, note: null });
        await tx.update(orders).set({ updatedAt: new Date() }).where(eq(orders.id, orderId));
        await recordAudit(tx, actor, { action: 'order.ready-to-collect', entity: 'order', entityId: orderId });
        return written?.readyAt ?? new Date();
      });
      const order = await orderService.getAnyOrder(orderId);
      await notify(order, await ownerOf(orderId), readyEmail(order, readyAt));
      return order;
    },

    /** The shopper collected a ready order: Succeeded, points earned. */
    async collected(orderId: number, actor: Actor): Promise<Order> {
      return orderService.markSucceeded(orderId, `admin ${actor.email}`, async (tx, current) => {
        if (current.fulfilment !== 'collect') throw new ConflictError(FULFILMENT_MESSAGES.notCollect);
        const [existing] = await tx.select().from(orderFulfilments).where(eq(orderFulfilments.orderId, orderId));
        if (!existing?.readyAt) throw new ConflictError(FULFILMENT_MESSAGES.notReady);
        const now = sql`now()`;
        await tx
          .update(orderFulfilments)
          .set({ collectedAt: now, updatedAt: now })
          .where(eq(orderFulfilments.orderId, orderId));
        await tx
          .insert(orderEvents)
          .values({ orderId, status: 'Collected', actor: `admin ${actor.email}`, note: null });
        await recordAudit(tx, actor, { action: 'order.collected', entity: 'order', entityId: orderId });
      });
    },

    runOnce,
    /** Runs the job now and every few minutes in this process (every process may); `stop` ends it. */
    start(logger: JobLog): void {
      log = logger;
      const tick = () => {
        if (running) return;
        running = runOnce(new Date())
          .catch((error: unknown) => log.error({ err: error }, 'uncollected-order job failed'))
          .finally(() => {
            running = null;
          });
      };
      tick();
      timer = setInterval(tick, 5 * 60_000);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

export type Fulfilment = ReturnType<typeof createFulfilment>;
