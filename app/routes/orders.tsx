import { Form, Link, useSubmit } from 'react-router';
import { formatDollars } from '../../contracts/money.ts';
import { ORDER_SORTS, ORDER_STATUS_FILTERS } from '../../contracts/orders.ts';
import { AccountLayout } from '../components/account/account-layout.tsx';
import { inputClass } from '../components/account/form-field.tsx';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { adjustmentNoteHref, refundSentence } from '../components/order-refunds.tsx';
import { OrderStatusBadge } from '../components/order-status-badge.tsx';
import { pageUrl } from '../lib/page-url.ts';
import { requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import type { Route } from './+types/orders';

const STATUS_LABELS: Record<(typeof ORDER_STATUS_FILTERS)[number], string> = {
  all: 'All orders',
  succeeded: 'Succeeded',
  pending: 'Pending',
  processing: 'Processing',
  cancelled: 'Cancelled',
};
const SORT_LABELS: Record<(typeof ORDER_SORTS)[number], string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  total_desc: 'Total: high to low',
  total_asc: 'Total: low to high',
};

const placedOn = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'Australia/Sydney',
});

/**
 * Order history (spec §2, guarded): `?status=all|succeeded|pending|processing|cancelled` and
 * `?sort=newest|oldest|total_desc|total_asc`; an unknown value falls back to the default.
 * `{ orders, status, sort }`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  const url = pageUrl(request);
  const statusParam = url.searchParams.get('status');
  const sortParam = url.searchParams.get('sort');
  const status = ORDER_STATUS_FILTERS.find((value) => value === statusParam) ?? 'all';
  const sort = ORDER_SORTS.find((value) => value === sortParam) ?? 'newest';
  const orders = await context.get(shopContext).orders.listOrders(viewer.user.id, { status, sort });
  return { orders, status, sort };
}

export default function OrdersPage({ loaderData }: Route.ComponentProps) {
  const { orders, status, sort } = loaderData;
  const submit = useSubmit();
  const hydrated = useHydrated();
  return (
    <AccountLayout title="My Orders" intro="Everything you have ordered, with its status.">
      <Form
        method="get"
        className="flex flex-wrap items-end gap-3 rounded-lg border border-gray-200 bg-white p-4"
        onChange={(event) => submit(event.currentTarget, { preventScrollReset: true })}
      >
        <div>
          <label htmlFor="orders-status" className="block text-sm font-semibold">
            Status
          </label>
          <select
            id="orders-status"
            name="status"
            defaultValue={status}
            key={`status-${status}`}
            className={inputClass(false)}
          >
            {ORDER_STATUS_FILTERS.map((value) => (
              <option key={value} value={value}>
                {STATUS_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="orders-sort" className="block text-sm font-semibold">
            Sort by
          </label>
          <select id="orders-sort" name="sort" defaultValue={sort} key={`sort-${sort}`} className={inputClass(false)}>
            {ORDER_SORTS.map((value) => (
              <option key={value} value={value}>
                {SORT_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        {hydrated ? null : (
          <button type="submit" className="rounded border border-navy-800 px-4 py-2.5 font-semibold text-navy-800">
            Apply
          </button>
        )}
      </Form>

      {orders.length === 0 ? (
        <div className="mt-6 rounded-lg border border-dashed border-gray-300 bg-white p-10 text-center">
          <p className="font-display text-3xl font-bold uppercase">No orders found</p>
          <p className="mt-2 text-gray-700">
            {status === 'all'
              ? 'You have not placed any orders yet.'
              : `You have no ${STATUS_LABELS[status].toLowerCase()} orders.`}
          </p>
          <div className="mt-5 flex flex-wrap justify-center gap-3">
            <Link
              to="/orders"
              className="rounded border border-navy-800 px-5 py-2.5 font-semibold text-navy-800 hover:bg-navy-100"
            >
              Try Again
            </Link>
            <Link to="/products" className="rounded bg-accent px-5 py-2.5 font-semibold text-ink hover:bg-accent-dark">
              Start shopping
            </Link>
          </div>
        </div>
      ) : (
        <ul className="mt-6 space-y-3" aria-label="Orders">
          {orders.map((order) => (
            <li
              key={order.id}
              className="rounded-lg border border-gray-200 bg-white p-4 sm:p-5"
              data-testid="order-row"
            >
              <div className="flex flex-wrap items-center justify-between gap-3">
                <div>
                  <Link
                    to={`/orders/${order.id}`}
                    className="font-display text-xl font-bold uppercase text-navy-800 hover:underline"
                  >
                    Order {order.orderNumber}
                  </Link>
                  <p className="text-sm text-gray-700">Placed {placedOn.format(new Date(order.createdAt))}</p>
                </div>
                <OrderStatusBadge status={order.status} />
              </div>
              <div className="mt-3 flex flex-wrap items-end justify-between gap-3 text-sm">
                <p className="min-w-0 text-gray-700">
                  {order.items.length} {order.items.length === 1 ? 'line' : 'lines'}:{' '}
                  {order.items.map((item) => item.productName).join(', ')}
                </p>
                <p className="tabular text-lg font-bold" data-testid="order-total">
                  {formatDollars(order.total)}
                </p>
              </div>
              {refundSentence(order) ? (
                <p className="mt-2 text-sm" data-testid="order-refund">
                  <span className="font-semibold">{order.paymentStatus}</span>
                  <span aria-hidden="true"> · </span>
                  <span className="tabular text-gray-700">{refundSentence(order)}</span>
                  {order.adjustmentNotes.map((note) => (
                    <span key={note.number}>
                      <span aria-hidden="true"> · </span>
                      <a
                        href={adjustmentNoteHref(order.id, note.number)}
                        download={`${note.number}-adjustment-note-${order.orderNumber}.pdf`}
                        className="font-semibold text-navy-800 underline"
                      >
                        Adjustment note {note.number}
                      </a>
                    </span>
                  ))}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </AccountLayout>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="My Orders" message="Failed to load orders. Please try again later." />;
}
