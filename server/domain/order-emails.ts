import { formatDollars } from '../../contracts/money.ts';
import type { Order } from '../../contracts/orders.ts';
import { displayPrice } from '../../contracts/pricing.ts';
import { type EmailContent, type EmailLine, type EmailShop, type EmailTotal, formatEmailDate } from './email-layout.ts';

/**
 * What the order e-mails say (issue 22), built from the `Order` the API answers, so an e-mail
 * never disagrees with the order page: the lines with their unit price inc GST, the totals with
 * the delivery's GST share, and how the order reaches the shopper. `renderEmail` turns the
 * content into HTML and plain text.
 */

/** The shop as the order e-mails need it: its name and public origin, where new orders are announced, the store. */
export interface OrderEmailShop extends EmailShop {
  /** SHOP_EMAIL: the owner hears of each order there. */
  email: string;
  /** The store's address on one line: where click & collect orders are picked up. */
  storeAddress: string;
}

const money = (dollars: number) => formatDollars(dollars);
const cents = (dollars: number) => Math.round(dollars * 100);

function describeItem(item: Order['items'][number]): string {
  return `${item.productName}${item.variantName ? `, ${item.variantName}` : ''} (${item.sku})`;
}

/**
 * The order's lines: unit price inc GST (ex GST on a GST-free export), line total ex GST as the
 * spec's columns (the totals below are authoritative; spec-decisions "Money"). A points order's
 * lines are priced in points.
 */
/**
 * A unit price as an e-mail shows it, as the pages do (issue 22): the GST-inclusive headline
 * with the ex-GST price beside it; an export's price is GST-free.
 */
export function emailUnitPrice(exGstCents: number, gstFreeExport: boolean): string {
  if (gstFreeExport) return `${money(exGstCents / 100)} GST-free`;
  const { incGstCents } = displayPrice(exGstCents);
  return `${money(incGstCents / 100)} inc GST (${money(exGstCents / 100)} ex GST)`;
}

export function orderEmailLines(order: Order): EmailLine[] {
  const itemCount = order.items.reduce((sum, item) => sum + item.quantity, 0);
  return order.items.map((item) => {
    if (order.pointsSpent > 0) {
      // A redemption is one line today; the points are shared by quantity should that change.
      const points = itemCount > 0 ? Math.round((order.pointsSpent * item.quantity) / itemCount) : 0;
      return {
        description: describeItem(item),
        quantity: item.quantity,
        unitPrice: `${Math.round(points / item.quantity).toLocaleString('en-AU')} points`,
        total: `${points.toLocaleString('en-AU')} points`,
      };
    }
    return {
      description: describeItem(item),
      quantity: item.quantity,
      unitPrice: emailUnitPrice(cents(item.unitPrice), order.gstFreeExport),
      total: `${money(item.lineTotal)} ex GST`,
    };
  });
}

/** Subtotal, GST (or "GST-free export"), delivery with its GST share, total; a points order says what it was paid with. */
export function orderEmailTotals(order: Order): EmailTotal[] {
  const delivery =
    order.fulfilment === 'collect'
      ? 'Click & collect, free'
      : order.shippingCost === 0
        ? 'Free'
        : order.shippingTaxAmount > 0
          ? `${money(order.shippingCost)} (includes GST of ${money(order.shippingTaxAmount)})`
          : money(order.shippingCost);
  if (order.pointsSpent > 0) {
    return [
      { label: 'Paid with', value: `${order.pointsSpent.toLocaleString('en-AU')} points` },
      { label: 'Delivery', value: delivery },
      { label: 'Total', value: money(order.total), strong: true },
    ];
  }
  return [
    { label: 'Subtotal (ex GST)', value: money(order.subtotal) },
    { label: 'GST', value: order.gstFreeExport ? 'GST-free export' : money(order.taxAmount) },
    { label: 'Delivery', value: delivery },
    { label: 'Total', value: money(order.total), strong: true },
    ...(order.totalTaxAmount > 0 && order.shippingTaxAmount > 0
      ? [{ label: 'GST included in the total', value: money(order.totalTaxAmount) }]
      : []),
  ];
}

/** How the order reaches the shopper: the delivery address, or where to collect it and what to bring. */
export function orderFulfilmentText(order: Order, shop: OrderEmailShop): string[] {
  if (order.fulfilment === 'collect') {
    return [
      `Click & collect from our store at ${shop.storeAddress}. We will e-mail you when it is ready to collect; bring your order number (${order.orderNumber}) and photo ID.`,
      ...(order.contactPhone ? [`We will call ${order.contactPhone} if we need to reach you.`] : []),
    ];
  }
  const address = order.shippingAddress;
  if (!address) return [];
  const place = [
    address.addressLine1,
    address.addressLine2,
    `${address.city} ${address.state} ${address.postalCode}`,
    address.country,
  ]
    .filter(Boolean)
    .join(', ');
  return [
    `Delivering to ${address.fullName}, ${place}.`,
    ...(order.contactPhone ? [`The courier will call ${order.contactPhone} if they need to.`] : []),
  ];
}

function paymentText(order: Order): string {
  if (order.pointsSpent > 0) return `Paid with ${order.pointsSpent.toLocaleString('en-AU')} points.`;
  return `Paid with ${order.cardBrand ?? 'card'} ending ${order.cardLast4 ?? '----'}.`;
}

/** The receipt a shopper gets for an order paid by card (always sent: spec-decisions "Money"). */
export function orderPlacedEmail(order: Order & { email: string }, shop: OrderEmailShop): EmailContent {
  return {
    to: order.email,
    kind: 'order-confirmation',
    subject: `${shop.name} order ${order.orderNumber} confirmed`,
    heading: 'Thank you for your order',
    paragraphs: [
      `Thank you for your order ${order.orderNumber}, placed on ${formatEmailDate(new Date(order.createdAt))}.`,
      paymentText(order),
    ],
    lines: orderEmailLines(order),
    totals: orderEmailTotals(order),
    action: { label: 'View your order', url: `${shop.origin}/orders/${order.id}` },
    after: [
      ...orderFulfilmentText(order, shop),
      order.fulfilment === 'collect' ? '' : 'We will e-mail you again when it is on its way.',
    ].filter(Boolean),
  };
}

/** The receipt for an order paid with loyalty points: "Paid with N points", $0.00, no GST. */
export function pointsOrderEmail(order: Order & { email: string }, shop: OrderEmailShop): EmailContent {
  return {
    to: order.email,
    kind: 'points-order-confirmation',
    subject: `${shop.name} order ${order.orderNumber}: paid with ${order.pointsSpent.toLocaleString('en-AU')} points`,
    heading: 'Your points order',
    paragraphs: [
      `Thank you for your order ${order.orderNumber}, placed on ${formatEmailDate(new Date(order.createdAt))}.`,
      `${paymentText(order)} Nothing was charged to a card.`,
    ],
    lines: orderEmailLines(order),
    totals: orderEmailTotals(order),
    action: { label: 'View your order', url: `${shop.origin}/orders/${order.id}` },
    after: [
      ...orderFulfilmentText(order, shop),
      order.fulfilment === 'collect' ? '' : 'We will e-mail you again when it is on its way.',
    ].filter(Boolean),
  };
}

/** The owner hears of each order (card or points) at SHOP_EMAIL, with a link to it in the back office. */
export function newOrderToShopEmail(order: Order, shop: OrderEmailShop): EmailContent {
  const method = order.fulfilment === 'collect' ? 'Click & collect' : 'Delivery';
  return {
    to: shop.email,
    kind: 'new-order',
    subject: `New order ${order.orderNumber}: ${method.toLowerCase()}, ${
      order.pointsSpent > 0 ? `${order.pointsSpent.toLocaleString('en-AU')} points` : money(order.total)
    }`,
    heading: `New order ${order.orderNumber}`,
    paragraphs: [
      `${order.email ?? 'A shopper'} placed order ${order.orderNumber} on ${formatEmailDate(new Date(order.createdAt))}.`,
      `${paymentText(order)} Fulfilment: ${method}.`,
    ],
    lines: orderEmailLines(order),
    totals: orderEmailTotals(order),
    action: { label: 'Open it in the back office', url: `${shop.origin}/admin/orders/${order.id}` },
    after: orderFulfilmentText(order, shop),
  };
}

/** The lines of a return request, each with the quantity asked for. */
function returnedLines(order: Order, items: { orderItemId: number; quantity: number }[]): EmailLine[] {
  return items.flatMap((wanted) => {
    const item = order.items.find((candidate) => candidate.id === wanted.orderItemId);
    if (!item) return [];
    const unit = displayPrice(cents(item.unitPrice));
    return [
      {
        description: describeItem(item),
        quantity: wanted.quantity,
        unitPrice:
          order.pointsSpent > 0
            ? 'Paid with points'
            : order.gstFreeExport
              ? `${money(item.unitPrice)} GST-free`
              : `${money(unit.incGstCents / 100)} inc GST`,
        total: order.pointsSpent > 0 ? '' : `${money((cents(item.unitPrice) * wanted.quantity) / 100)} ex GST`,
      },
    ];
  });
}

/**
 * The shopper's return request, acknowledged: what they asked to return, why, and when (always
 * sent: it is their record of asking inside the return window).
 */
export function returnReceivedEmail(
  order: Order & { email: string },
  request: { reason: string; items: { orderItemId: number; quantity: number }[]; requestedAt: Date },
  shop: OrderEmailShop,
): EmailContent {
  return {
    to: order.email,
    kind: 'return-received',
    subject: `We have your return request for ${shop.name} order ${order.orderNumber}`,
    heading: 'We have your return request',
    paragraphs: [
      `You asked on ${formatEmailDate(request.requestedAt)} to return these items from order ${order.orderNumber}.`,
      `Your reason: ${request.reason}`,
    ],
    lines: returnedLines(order, request.items),
    action: { label: 'View your order', url: `${shop.origin}/orders/${order.id}` },
    after: ['We will look at it and e-mail you when we have decided. Please keep the items until then.'],
  };
}

/** A rejected return, with the shop's reason (a notice: the shopper's order-update preference can stop it). */
export function returnRejectedEmail(
  order: Order & { email: string },
  request: { reason: string; items: { orderItemId: number; quantity: number }[] },
  shop: OrderEmailShop,
): EmailContent {
  return {
    to: order.email,
    kind: 'return-rejected',
    subject: `Your return for ${shop.name} order ${order.orderNumber}`,
    heading: 'We could not accept your return',
    paragraphs: [`We could not accept the return for order ${order.orderNumber}: ${request.reason}`],
    lines: returnedLines(order, request.items),
    action: { label: 'View your order', url: `${shop.origin}/orders/${order.id}` },
    after: ['Reply to this e-mail or call us if you would like to talk it over.'],
  };
}

/**
 * The owner moved an order on without a fulfilment step of its own (the spec's status API):
 * paid and being packed, or fulfilled without a carrier. A notice: the order-update preference
 * can stop it.
 */
export function orderStatusNoticeEmail(
  order: Order & { email: string },
  to: 'Processing' | 'Succeeded',
  shop: OrderEmailShop,
): EmailContent {
  const collect = order.fulfilment === 'collect';
  const said =
    to === 'Processing'
      ? { subject: 'is being packed', heading: 'We are packing your order' }
      : collect
        ? { subject: 'has been collected', heading: 'Your order has been collected' }
        : { subject: 'is on its way', heading: 'Your order is on its way' };
  return {
    to: order.email,
    kind: `order-${to.toLowerCase()}`,
    subject: `Your ${shop.name} order ${order.orderNumber} ${said.subject}`,
    heading: said.heading,
    paragraphs: [`Your order ${order.orderNumber} ${said.subject}.`],
    lines: orderEmailLines(order),
    totals: orderEmailTotals(order),
    action: { label: 'View your order', url: `${shop.origin}/orders/${order.id}` },
  };
}
