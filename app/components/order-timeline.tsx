import type { Order } from '../../contracts/orders.ts';
import { formatSydneyMoment } from '../../contracts/sydney-dates.ts';

interface Step {
  key: string;
  label: string;
  at: string | null;
  done: boolean;
  detail?: React.ReactNode;
}

/** The steps an order has taken and the ones still ahead, in the order a shopper lives them. */
function stepsOf(order: Order): Step[] {
  const record = order.fulfilmentRecord;
  const paid = order.paymentStatus !== 'Pending' && order.paymentStatus !== 'Failed';
  const steps: Step[] = [
    { key: 'placed', label: 'Placed', at: order.createdAt, done: true },
    // A card is charged (or points spent) as the order is placed.
    { key: 'paid', label: 'Paid', at: paid ? order.createdAt : null, done: paid },
  ];
  if (order.fulfilment === 'collect') {
    steps.push(
      { key: 'ready', label: 'Ready to collect', at: record?.readyAt ?? null, done: Boolean(record?.readyAt) },
      { key: 'collected', label: 'Collected', at: record?.collectedAt ?? null, done: Boolean(record?.collectedAt) },
    );
  } else {
    steps.push({
      key: 'shipped',
      label: 'Shipped',
      at: record?.shippedAt ?? null,
      done: Boolean(record?.shippedAt),
      detail: record?.shippedAt ? <Tracking order={order} /> : null,
    });
  }
  if (order.status === 'Cancelled') {
    // A cancelled order stops where it was: the steps it never took are not shown as ahead.
    return [
      ...steps.filter((step) => step.done),
      { key: 'cancelled', label: 'Cancelled', at: order.refundedAt, done: true },
    ];
  }
  return steps;
}

/** The carrier and tracking number, linked to the carrier's tracking page ("other": the number alone). */
function Tracking({ order }: { order: Order }) {
  const record = order.fulfilmentRecord;
  if (!record?.trackingNumber) return record?.carrierName ? <>With {record.carrierName}</> : null;
  return (
    <span data-testid="order-tracking">
      {record.carrierName ? `${record.carrierName} · ` : ''}
      {record.trackingUrl ? (
        <a
          href={record.trackingUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="font-semibold text-navy-800 underline"
        >
          Track parcel {record.trackingNumber}
          <span className="sr-only"> (opens the carrier’s site)</span>
        </a>
      ) : (
        <>Tracking number {record.trackingNumber}</>
      )}
    </span>
  );
}

/** Placed, paid, shipped (or ready and collected), with dates (issue 22). */
export function OrderTimeline({ order }: { order: Order }) {
  const steps = stepsOf(order);
  return (
    <section aria-labelledby="order-timeline" className="rounded-lg border border-gray-200 bg-white p-5 sm:p-6">
      <h2 id="order-timeline" className="font-display text-2xl font-bold uppercase">
        Progress
      </h2>
      <ol className="mt-4 grid gap-4 sm:grid-flow-col sm:auto-cols-fr" data-testid="order-timeline">
        {steps.map((step) => (
          <li key={step.key} className="flex gap-3 sm:flex-col sm:gap-2">
            <span
              aria-hidden="true"
              className={`mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-bold ${
                step.key === 'cancelled'
                  ? 'bg-sale text-white'
                  : step.done
                    ? 'bg-stock-in text-white'
                    : 'border-2 border-gray-300 bg-white'
              }`}
            >
              {step.done ? (step.key === 'cancelled' ? '×' : '✓') : ''}
            </span>
            <span className="text-sm">
              <span className="block font-semibold">{step.label}</span>
              {step.at && step.done ? (
                <time dateTime={step.at} className="block text-gray-700">
                  {formatSydneyMoment(new Date(step.at))}
                </time>
              ) : step.done ? null : (
                <span className="block text-gray-600">Not yet</span>
              )}
              {step.detail ? <span className="mt-1 block">{step.detail}</span> : null}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
