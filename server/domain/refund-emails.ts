import { centsToDollars, formatDollars } from '../../contracts/money.ts';
import type { Order } from '../../contracts/orders.ts';
import type { EmailContent, EmailLine, EmailShop, EmailTotal } from './email-layout.ts';
import { formatEmailDate } from './email-layout.ts';
import { emailUnitPrice } from './order-emails.ts';
import { type AdjustmentNoteRow, adjustmentNotePagePath } from './refunds.ts';

/*
 * The refund e-mails (issue 22): a cancellation and an approved return, each the shopper's
 * record of money (or points) coming back, with the adjustment note's lines and figures and a
 * link to it. Always sent, whatever the order-update preference (spec-decisions "Money").
 */

const money = (cents: number) => formatDollars(centsToDollars(cents));

/** The note's lines: each unit price as the shop shows it (inc GST, ex GST beside), the line total ex GST as on the note. */
function noteLines(note: AdjustmentNoteRow, order: Order): EmailLine[] {
  return note.lines.map((line) => ({
    description: `${line.productName} (${line.sku})`,
    quantity: line.quantity,
    unitPrice: emailUnitPrice(line.unitPriceCents, order.gstFreeExport),
    total: `${money(line.totalCents)} ex GST`,
  }));
}

/** What the note refunds: the goods, their GST, the delivery (with its GST share) and the total. */
function noteTotals(note: AdjustmentNoteRow): EmailTotal[] {
  return [
    { label: 'Goods (ex GST)', value: money(note.subtotalCents) },
    { label: 'GST on goods', value: money(note.gstCents) },
    ...(note.shippingCents > 0
      ? [
          {
            label: 'Delivery',
            value:
              note.shippingGstCents > 0
                ? `${money(note.shippingCents)} (includes GST of ${money(note.shippingGstCents)})`
                : money(note.shippingCents),
          },
        ]
      : []),
    { label: 'Total refunded', value: money(note.totalCents), strong: true },
    { label: 'GST adjusted', value: money(note.gstCents + note.shippingGstCents) },
  ];
}

function refundedTo(order: Order): string {
  return order.cardLast4 ? `your ${order.cardBrand ?? 'card'} ending ${order.cardLast4}` : 'the card you paid with';
}

function noteParagraph(note: AdjustmentNoteRow, orderNumber: string): string {
  return `Adjustment note ${note.noteNumber}, issued ${formatEmailDate(note.createdAt)}, records the refund and the GST adjusted against tax invoice ${orderNumber}.`;
}

/** The cancellation of an order: what came back (money with its note, or points) and why. */
export function cancelledEmail(
  order: Order & { email: string },
  note: AdjustmentNoteRow | null,
  reason: string,
  shop: EmailShop,
): EmailContent {
  const orderUrl = `${shop.origin}/orders/${order.id}`;
  const subject = note
    ? `Your ${shop.name} order ${order.orderNumber} is cancelled: ${money(note.totalCents)} refunded`
    : order.pointsSpent > 0
      ? `Your ${shop.name} order ${order.orderNumber} is cancelled: your points are back`
      : `Your ${shop.name} order ${order.orderNumber} is cancelled`;
  const refund = note
    ? [
        `We have refunded ${money(note.totalCents)} to ${refundedTo(order)}. Banks usually show it within 3 to 5 business days.`,
        noteParagraph(note, order.orderNumber),
      ]
    : order.pointsSpent > 0
      ? [`Your ${order.pointsSpent.toLocaleString('en-AU')} points are back in your account.`]
      : ['Nothing had been charged, so there is nothing to refund.'];
  return {
    to: order.email,
    kind: 'order-cancelled',
    subject,
    heading: 'Your order is cancelled',
    paragraphs: [`We have cancelled your order ${order.orderNumber}. Reason: ${reason}.`, ...refund],
    ...(note ? { lines: noteLines(note, order), totals: noteTotals(note) } : {}),
    action: note
      ? {
          label: `Download adjustment note ${note.noteNumber}`,
          url: `${shop.origin}${adjustmentNotePagePath(order.id, note.noteNumber)}`,
        }
      : { label: 'View your order', url: orderUrl },
    after: note ? [`Your order: ${orderUrl}`] : [],
  };
}

/**
 * An approved return: the refund (the returned lines and their GST; the delivery charge stays,
 * as the delivery was made) with its note, or the points given back for a points order.
 * `outcome` is the resolution the back office recorded ("Refunded $27.50 (sim_re_…)").
 */
export function returnApprovedEmail(
  order: Order & { email: string },
  note: AdjustmentNoteRow | null,
  outcome: string,
  shop: EmailShop,
): EmailContent {
  const orderUrl = `${shop.origin}/orders/${order.id}`;
  return {
    to: order.email,
    kind: 'return-approved',
    subject: `Your return for ${shop.name} order ${order.orderNumber} is approved`,
    heading: 'Your return is approved',
    paragraphs: [
      `We have approved your return for order ${order.orderNumber}. ${outcome}.`,
      ...(note
        ? [
            `The refund of ${money(note.totalCents)} goes back to ${refundedTo(order)}. Banks usually show it within 3 to 5 business days.`,
            noteParagraph(note, order.orderNumber),
          ]
        : []),
    ],
    ...(note ? { lines: noteLines(note, order), totals: noteTotals(note) } : {}),
    action: note
      ? {
          label: `Download adjustment note ${note.noteNumber}`,
          url: `${shop.origin}${adjustmentNotePagePath(order.id, note.noteNumber)}`,
        }
      : { label: 'View your order', url: orderUrl },
    after: [
      ...(note && order.shippingCost > 0 ? ['The delivery charge is not refunded: the delivery was made.'] : []),
      ...(note ? [`Your order: ${orderUrl}`] : []),
    ],
  };
}
