import { data, Form, Link } from 'react-router';
import { CARRIERS, shipOrderSchema } from '../../contracts/fulfilment.ts';
import { formatDollars } from '../../contracts/money.ts';
import type { Order } from '../../contracts/orders.ts';
import { parseId } from '../../contracts/params.ts';
import { type FieldErrors, FormMessage, inputClass, SubmitButton } from '../components/account/form-field.tsx';
import { AdminError, AdminLayout } from '../components/admin/admin-layout.tsx';
import { ReturnDecision } from '../components/admin/return-decision.tsx';
import { adjustmentNoteHref, refundSentence } from '../components/order-refunds.tsx';
import { OrderStatusBadge } from '../components/order-status-badge.tsx';
import { PostalAddress } from '../components/postal-address.tsx';
import { type BackOfficeResult, handleBackOfficeAction } from '../lib/back-office-actions.server.ts';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { domainFailureOf } from '../lib/form-errors.ts';
import { type FulfilmentResult, handleFulfilmentAction } from '../lib/fulfilment-actions.server.ts';
import { requireAdmin } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import { useCorrectedErrors } from '../lib/use-corrected-errors.ts';
import type { Route } from './+types/admin-order';

const when = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'Australia/Sydney',
});

const MOVE_LABELS: Record<string, string> = {
  Processing: 'Mark paid (Processing)',
  Cancelled: 'Cancel order',
};

/** One order for the shop: lines, customer, address, payment, history, returns and the moves it allows. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(request, context);
  const id = parseId(params.id);
  if (id === null) throw data('Not found', { status: 404 });
  try {
    return await context.get(shopContext).backOffice.getOrder(id);
  } catch (error) {
    if (domainFailureOf(error)?.status === 404) throw data('Not found', { status: 404 });
    throw error;
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireAdmin(request, context);
  const form = await readUrlEncodedForm(request, 8 * 1024);
  const services = context.get(shopContext);
  return (
    (await handleFulfilmentAction(form, viewer, services.fulfilment)) ??
    handleBackOfficeAction(form, viewer, services.backOffice)
  );
}

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { order, customer, history, returns, allowedMoves } = loaderData;
  const result = actionData as FulfilmentResult | BackOfficeResult | undefined;
  // Fulfilling is its own panel (shipped with tracking, or ready then collected), not a bare status move.
  const moves = allowedMoves.filter((status) => status !== 'Succeeded');
  // The Ship form's errors go as each field is put right (issue 27 item 10), its banner with the last.
  const ship = useCorrectedErrors(result && 'errors' in result ? result.errors : undefined, shipOrderSchema);
  return (
    <AdminLayout title={`Order ${order.orderNumber}`} actions={<OrderStatusBadge status={order.status} />}>
      <div className="space-y-6">
        {result && !ship.allCorrected ? (
          <FormMessage tone={result.ok ? 'success' : 'error'}>{result.message}</FormMessage>
        ) : null}
        <section
          aria-label="Move the order"
          className="flex flex-wrap gap-3 rounded-lg border border-gray-200 bg-white p-4"
        >
          {moves.length === 0 ? (
            <p className="text-sm text-gray-700">No further moves for a {order.status} order.</p>
          ) : null}
          {moves.map((status) => (
            <Form
              key={status}
              method="post"
              preventScrollReset
              onSubmit={(event) => {
                if (
                  status === 'Cancelled' &&
                  !window.confirm('Cancel this order? Stock goes back and a paid order is refunded in full.')
                ) {
                  event.preventDefault();
                }
              }}
            >
              <input type="hidden" name="orderId" value={order.id} />
              <input type="hidden" name="status" value={status} />
              <SubmitButton
                name="intent"
                value="move"
                tone={status === 'Cancelled' ? 'danger' : 'primary'}
                busyLabel="Saving…"
              >
                {MOVE_LABELS[status] ?? status}
              </SubmitButton>
            </Form>
          ))}
        </section>

        <FulfilmentPanel order={order} errors={ship.errors} onShipChange={ship.onChange} />

        <div className="grid gap-4 md:grid-cols-3">
          <section className="rounded-lg border border-gray-200 bg-white p-4 text-sm">
            <h2 className="font-display text-xl font-bold uppercase">Customer</h2>
            {customer ? (
              <p className="mt-2">
                {customer.name}
                <br />
                <a href={`mailto:${customer.email}`} className="text-navy-800 underline">
                  {customer.email}
                </a>
              </p>
            ) : (
              <p className="mt-2 text-gray-700">{order.email ?? 'The customer deleted their account.'}</p>
            )}
          </section>
          <section className="rounded-lg border border-gray-200 bg-white p-4 text-sm">
            <h2 className="font-display text-xl font-bold uppercase">
              {order.fulfilment === 'collect' ? 'Click & collect' : 'Ship to'}
            </h2>
            {order.fulfilment === 'collect' ? (
              <p className="mt-2">Collected from the store: no delivery.</p>
            ) : order.shippingAddress ? (
              <PostalAddress address={order.shippingAddress} className="mt-2 not-italic" />
            ) : (
              <p className="mt-2 text-gray-700">No shipping information available</p>
            )}
            {order.contactPhone ? (
              <p className="mt-2">
                Contact phone:{' '}
                <a href={`tel:${order.contactPhone.replace(/[^\d+]/g, '')}`} className="text-navy-800 underline">
                  {order.contactPhone}
                </a>
              </p>
            ) : null}
          </section>
          <section className="rounded-lg border border-gray-200 bg-white p-4 text-sm">
            <h2 className="font-display text-xl font-bold uppercase">Payment</h2>
            <p className="mt-2">
              {order.paymentStatus}
              {order.cardLast4 ? ` · ${order.cardBrand ?? 'Card'} ending ${order.cardLast4}` : ''}
              <br />
              <span className="break-all text-gray-700">{order.transactionId ?? 'No transaction'}</span>
            </p>
            {refundSentence(order) ? <p className="mt-2 font-semibold">{refundSentence(order)}</p> : null}
            {order.adjustmentNotes.length > 0 ? (
              <ul className="mt-2 space-y-1" aria-label="Adjustment notes">
                {order.adjustmentNotes.map((note) => (
                  <li key={note.number}>
                    <a href={adjustmentNoteHref(order.id, note.number)} className="text-navy-800 underline">
                      Adjustment note {note.number}
                    </a>{' '}
                    <span className="tabular text-gray-700">{formatDollars(note.amount)}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
        </div>

        <section className="rounded-lg border border-gray-200 bg-white sm:overflow-x-auto">
          <table className="stacked-table w-full text-sm sm:min-w-[32rem]">
            <caption className="px-4 pt-4 text-left font-display text-xl font-bold uppercase">Lines</caption>
            <thead className="border-b border-gray-200 text-left text-xs uppercase tracking-wide text-gray-600">
              <tr>
                <th scope="col" className="px-4 py-2">
                  Product
                </th>
                <th scope="col" className="px-2 py-2">
                  SKU
                </th>
                <th scope="col" className="px-2 py-2 text-right">
                  Price
                </th>
                <th scope="col" className="px-2 py-2 text-right">
                  Qty
                </th>
                <th scope="col" className="px-4 py-2 text-right">
                  Total
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {order.items.map((item) => (
                <tr key={item.id}>
                  <td className="stacked-table-lead px-4 py-2">
                    <Link to={`/product/${item.productId}`} className="hover:underline">
                      {item.productName}
                    </Link>
                    {item.variantName ? <span className="block text-xs text-gray-700">{item.variantName}</span> : null}
                  </td>
                  <td data-label="SKU" className="px-2 py-2">
                    <span>{item.sku}</span>
                  </td>
                  <td data-label="Price" className="tabular px-2 py-2 text-right">
                    <span>{formatDollars(item.unitPrice)}</span>
                  </td>
                  <td data-label="Qty" className="tabular px-2 py-2 text-right">
                    <span>{item.quantity}</span>
                  </td>
                  <td data-label="Total" className="tabular px-4 py-2 text-right">
                    <span>{formatDollars(item.lineTotal)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="tabular px-4 py-3 text-right text-sm">
            Subtotal {formatDollars(order.subtotal)} · GST {formatDollars(order.taxAmount)} · Shipping{' '}
            {order.shippingCost === 0 ? 'Free' : formatDollars(order.shippingCost)} ·{' '}
            <strong>Total {formatDollars(order.total)}</strong>
          </p>
        </section>

        {returns.length > 0 ? (
          <section className="rounded-lg border border-gray-200 bg-white p-4">
            <h2 className="font-display text-xl font-bold uppercase">Returns</h2>
            <ul className="mt-2 space-y-4 text-sm">
              {returns.map((request) => (
                <li key={request.id}>
                  <p>
                    <strong>{request.status}</strong> · {when.format(new Date(request.createdAt))} · “{request.reason}”
                    {request.resolutionNote ? ` · ${request.resolutionNote}` : ''}
                  </p>
                  <p className="text-gray-700">
                    {request.items
                      .map(
                        (wanted) =>
                          `${wanted.quantity} × ${order.items.find((item) => item.id === wanted.orderItemId)?.productName ?? 'item'}`,
                      )
                      .join(', ')}
                  </p>
                  {request.status === 'Requested' ? <ReturnDecision returnId={request.id} /> : null}
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        <section className="rounded-lg border border-gray-200 bg-white p-4">
          <h2 className="font-display text-xl font-bold uppercase">History</h2>
          <ol className="mt-2 space-y-1 text-sm">
            {history.map((event, index) => (
              <li key={`${event.createdAt}-${index}`}>
                <span className="tabular text-gray-600">{when.format(new Date(event.createdAt))}</span> ·{' '}
                <strong>{event.status}</strong> by {event.actor}
                {event.note ? ` · ${event.note}` : ''}
              </li>
            ))}
          </ol>
        </section>
      </div>
    </AdminLayout>
  );
}

/**
 * How the order leaves (issue 22): a Processing delivery is shipped with a carrier and tracking
 * number; a click & collect order is marked ready, then collected. Once done, the record.
 */
function FulfilmentPanel({
  order,
  errors,
  onShipChange,
}: {
  order: Order;
  errors: FieldErrors | undefined;
  onShipChange: (event: React.FormEvent<HTMLFormElement>) => void;
}) {
  const record = order.fulfilmentRecord;
  const processing = order.status === 'Processing';
  const errorOf = (name: string) => errors?.[name]?.[0];
  return (
    <section aria-labelledby="fulfilment-heading" className="rounded-lg border border-gray-200 bg-white p-4 text-sm">
      <h2 id="fulfilment-heading" className="font-display text-xl font-bold uppercase">
        {order.fulfilment === 'collect' ? 'Click & collect' : 'Delivery'}
      </h2>
      {record?.shippedAt ? (
        <p className="mt-2" data-testid="fulfilment-record">
          Shipped {when.format(new Date(record.shippedAt))}
          {record.carrierName ? ` with ${record.carrierName}` : ''}
          {record.trackingNumber ? ` · tracking ${record.trackingNumber}` : ''}
          {record.trackingUrl ? (
            <>
              {' · '}
              <a
                href={record.trackingUrl}
                className="text-navy-800 underline"
                rel="noopener noreferrer"
                target="_blank"
              >
                Track
              </a>
            </>
          ) : null}
        </p>
      ) : null}
      {record?.readyAt ? (
        <p className="mt-2" data-testid="fulfilment-ready">
          Ready to collect since {when.format(new Date(record.readyAt))}
          {record.collectedAt ? ` · collected ${when.format(new Date(record.collectedAt))}` : ''}
        </p>
      ) : null}
      {processing && order.fulfilment === 'delivery' ? (
        <Form
          method="post"
          preventScrollReset
          onChange={onShipChange}
          className="mt-3 grid gap-3 sm:grid-cols-[14rem_16rem_auto] sm:items-end"
        >
          <input type="hidden" name="orderId" value={order.id} />
          <div>
            <label htmlFor="ship-carrier" className="block font-semibold">
              Carrier
            </label>
            <select
              id="ship-carrier"
              name="carrier"
              defaultValue="australia-post"
              aria-invalid={errorOf('carrier') ? true : undefined}
              aria-describedby={errorOf('carrier') ? 'ship-carrier-error' : undefined}
              className={inputClass(Boolean(errorOf('carrier')))}
            >
              {CARRIERS.map((carrier) => (
                <option key={carrier.id} value={carrier.id}>
                  {carrier.name}
                </option>
              ))}
            </select>
            {errorOf('carrier') ? (
              <p id="ship-carrier-error" className="mt-1 font-semibold text-sale">
                {errorOf('carrier')}
              </p>
            ) : null}
          </div>
          <div>
            <label htmlFor="ship-trackingNumber" className="block font-semibold">
              Tracking number
            </label>
            <input
              id="ship-trackingNumber"
              name="trackingNumber"
              maxLength={40}
              autoComplete="off"
              aria-required="true"
              aria-invalid={errorOf('trackingNumber') ? true : undefined}
              aria-describedby={errorOf('trackingNumber') ? 'ship-trackingNumber-error' : undefined}
              className={inputClass(Boolean(errorOf('trackingNumber')))}
            />
            {errorOf('trackingNumber') ? (
              <p id="ship-trackingNumber-error" className="mt-1 font-semibold text-sale">
                {errorOf('trackingNumber')}
              </p>
            ) : null}
          </div>
          <div>
            <SubmitButton name="intent" value="ship" busyLabel="Saving…">
              Mark shipped
            </SubmitButton>
          </div>
        </Form>
      ) : null}
      {processing && order.fulfilment === 'collect' ? (
        <Form method="post" preventScrollReset className="mt-3">
          <input type="hidden" name="orderId" value={order.id} />
          {record?.readyAt ? (
            <SubmitButton name="intent" value="collected" busyLabel="Saving…">
              Mark collected
            </SubmitButton>
          ) : (
            <SubmitButton name="intent" value="ready-to-collect" busyLabel="Saving…">
              Mark ready to collect
            </SubmitButton>
          )}
        </Form>
      ) : null}
      {!processing && !record ? (
        <p className="mt-2 text-gray-700">
          {order.status === 'Pending' ? 'Waiting for payment.' : `Nothing to fulfil for a ${order.status} order.`}
        </p>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <AdminError failure="This order could not be loaded. Please try again." />;
}
