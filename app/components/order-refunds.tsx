import { formatDollars } from '../../contracts/money.ts';
import type { Order } from '../../contracts/orders.ts';
import { formatSydneyDay } from '../../contracts/sydney-dates.ts';

/** Where the order page links a note: the page route, so a signed-out browser signs in on the way. */
export function adjustmentNoteHref(orderId: number, noteNumber: string): string {
  return `/orders/${orderId}/adjustment-notes/${noteNumber}.pdf`;
}

/** Whether anything of the order has been given back (money, or a points order's points). */
export function isRefunded(order: Pick<Order, 'paymentStatus'>): boolean {
  return order.paymentStatus === 'Refunded' || order.paymentStatus === 'Partially refunded';
}

/**
 * One line saying what came back and when: "$97.90 refunded on 28 November 2026", or for a
 * points order "Points returned on …". Null when nothing has been refunded.
 */
export function refundSentence(
  order: Pick<Order, 'paymentStatus' | 'refundedAmount' | 'refundedAt' | 'pointsSpent'>,
): string | null {
  if (!isRefunded(order)) return null;
  const when = order.refundedAt ? ` on ${formatSydneyDay(new Date(order.refundedAt))}` : '';
  if (order.pointsSpent > 0) return `Points returned${when}`;
  return `${formatDollars(order.refundedAmount)} refunded${when}`;
}

/** The order page's refunds: the payment's state, the amount and date, and each adjustment note to download. */
export function OrderRefunds({ order }: { order: Order }) {
  const sentence = refundSentence(order);
  if (!sentence) return null;
  return (
    <section
      aria-labelledby="order-refunds"
      className="rounded-lg border border-gray-200 border-l-4 border-l-navy-700 bg-white p-5 sm:p-6"
      data-testid="order-refunds"
    >
      <h2 id="order-refunds" className="font-display text-2xl font-bold uppercase">
        Refunds
      </h2>
      <p className="mt-2 text-sm">
        <span className="font-semibold" data-testid="refund-payment-status">
          {order.paymentStatus}
        </span>
        <span aria-hidden="true"> · </span>
        <span className="tabular" data-testid="refund-amount">
          {sentence}
        </span>
      </p>
      {order.pointsSpent > 0 ? (
        <p className="mt-1 text-sm text-gray-700">Your points are back in your account. No money was charged.</p>
      ) : order.status !== 'Cancelled' && order.shippingCost > 0 && order.paymentStatus === 'Partially refunded' ? (
        <p className="mt-1 text-sm text-gray-700">
          Returned items are refunded with their GST; the delivery charge is not, as the delivery was made.
        </p>
      ) : null}
      {order.adjustmentNotes.length > 0 ? (
        <ul className="mt-4 divide-y divide-gray-100 border-t border-gray-100 text-sm" aria-label="Adjustment notes">
          {order.adjustmentNotes.map((note) => (
            <li
              key={note.number}
              className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3"
              data-testid="adjustment-note"
            >
              <div className="min-w-0">
                <p className="font-semibold">
                  Adjustment note {note.number}
                  <span className="tabular font-normal text-gray-700">
                    {' '}
                    · {formatSydneyDay(new Date(note.date))} · {formatDollars(note.amount)}
                  </span>
                </p>
                <p className="text-gray-700">{note.reason}</p>
              </div>
              <a
                href={adjustmentNoteHref(order.id, note.number)}
                download={`${note.number}-adjustment-note-${order.orderNumber}.pdf`}
                className="rounded border border-navy-800 px-4 py-2 font-semibold text-navy-800 hover:bg-navy-100"
              >
                Download adjustment note<span className="sr-only"> {note.number}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
