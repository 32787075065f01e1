import { Form, Link } from 'react-router';
import { formatDollars } from '../../contracts/money.ts';
import { inputClass } from '../components/account/form-field.tsx';
import { AdminError, AdminLayout } from '../components/admin/admin-layout.tsx';
import { OrderStatusBadge } from '../components/order-status-badge.tsx';
import { PageLinks } from '../components/page-links.tsx';
import { pageUrl } from '../lib/page-url.ts';
import { requireAdmin } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/admin-orders';

const STATUSES = ['Pending', 'Processing', 'Succeeded', 'Cancelled'] as const;
const placed = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'short',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'Australia/Sydney',
});

/** Every order, newest first: `?status=`, `?q=` (order number or e-mail), `?page=`. Admin only. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(request, context);
  const url = pageUrl(request);
  const status = STATUSES.find((value) => value === url.searchParams.get('status'));
  const q = (url.searchParams.get('q') ?? '').slice(0, 200);
  const page = Math.min(10_000, Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1));
  const result = await context.get(shopContext).backOffice.listOrders({ status, q, page });
  return { ...result, status: status ?? '', q };
}

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { items, status, q, page, totalPages, totalCount } = loaderData;
  const pageLink = (target: number) =>
    `?${new URLSearchParams({ ...(status ? { status } : {}), ...(q ? { q } : {}), page: String(target) })}`;
  return (
    <AdminLayout title="Orders">
      <Form method="get" className="flex flex-wrap items-end gap-3 rounded-lg border border-gray-200 bg-white p-4">
        <div>
          <label htmlFor="admin-orders-q" className="block text-sm font-semibold">
            Order number or e-mail
          </label>
          <input id="admin-orders-q" name="q" defaultValue={q} className={inputClass(false)} />
        </div>
        <div>
          <label htmlFor="admin-orders-status" className="block text-sm font-semibold">
            Status
          </label>
          <select id="admin-orders-status" name="status" defaultValue={status} className={inputClass(false)}>
            <option value="">Any status</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="rounded bg-accent px-5 py-2.5 font-semibold text-ink hover:bg-accent-dark">
          Find orders
        </button>
      </Form>
      <p className="mt-4 text-sm text-gray-700">
        {totalCount} {totalCount === 1 ? 'order' : 'orders'}
      </p>
      {items.length === 0 ? (
        <p className="mt-4 rounded-lg border border-dashed border-gray-300 bg-white p-8 text-center font-semibold">
          No orders found
        </p>
      ) : (
        <div className="mt-2 rounded-lg border border-gray-200 bg-white sm:overflow-x-auto">
          <table className="stacked-table w-full text-sm sm:min-w-[40rem]">
            <thead className="border-b border-gray-200 text-left text-xs uppercase tracking-wide text-gray-600">
              <tr>
                <th scope="col" className="px-4 py-3">
                  Order
                </th>
                <th scope="col" className="px-2 py-3">
                  Placed
                </th>
                <th scope="col" className="px-2 py-3">
                  Customer
                </th>
                <th scope="col" className="px-2 py-3">
                  Status
                </th>
                <th scope="col" className="px-2 py-3 text-right">
                  Items
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  Total
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {items.map((order) => (
                <tr key={order.id}>
                  <td className="stacked-table-lead px-4 py-3">
                    <Link to={`/admin/orders/${order.id}`} className="font-semibold text-navy-800 hover:underline">
                      {order.orderNumber}
                    </Link>
                  </td>
                  <td data-label="Placed" className="px-2 py-3">
                    <span>{placed.format(new Date(order.createdAt))}</span>
                  </td>
                  <td data-label="Customer" className="px-2 py-3">
                    <span className="min-w-0 break-all">{order.email ?? 'Deleted account'}</span>
                  </td>
                  <td data-label="Status" className="px-2 py-3">
                    <OrderStatusBadge status={order.status} />
                  </td>
                  <td data-label="Items" className="tabular px-2 py-3 text-right">
                    <span>{order.itemCount}</span>
                  </td>
                  <td data-label="Total" className="tabular px-4 py-3 text-right font-semibold">
                    <span>{formatDollars(order.total)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PageLinks page={page} totalPages={totalPages} hrefFor={pageLink} />
    </AdminLayout>
  );
}

export function ErrorBoundary() {
  return <AdminError failure="The orders could not be loaded. Please try again." />;
}
