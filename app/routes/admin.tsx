import { Link } from 'react-router';
import { AdminError, AdminLayout } from '../components/admin/admin-layout.tsx';
import { requireAdmin } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/admin';

/** The back office's dashboard: what needs doing. Admin only. `{ summary }`. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(request, context);
  return { summary: await context.get(shopContext).backOffice.summary() };
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { summary } = loaderData;
  const tiles = [
    { to: '/admin/orders?status=Processing', label: 'Orders to pack', value: summary.orders.Processing ?? 0 },
    { to: '/admin/orders?status=Pending', label: 'Awaiting payment', value: summary.orders.Pending ?? 0 },
    { to: '/admin/returns?status=Requested', label: 'Returns to decide', value: summary.openReturns },
    { to: '/admin/messages', label: 'Messages this week', value: summary.recentMessages },
  ];
  return (
    <AdminLayout title="Dashboard">
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {tiles.map((tile) => (
          <li key={tile.to}>
            <Link
              to={tile.to}
              className="block rounded-lg border border-gray-200 bg-white p-5 hover:border-navy-700 hover:shadow-md"
            >
              <span className="tabular block font-display text-4xl font-bold text-navy-800">{tile.value}</span>
              <span className="mt-1 block text-sm font-semibold text-gray-700">{tile.label}</span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-6 text-sm text-gray-700">
        Fulfilled: {summary.orders.Succeeded ?? 0} · Cancelled: {summary.orders.Cancelled ?? 0}
      </p>
    </AdminLayout>
  );
}

export function ErrorBoundary() {
  return <AdminError failure="The dashboard could not be loaded. Please try again." />;
}
