import { Link } from 'react-router';
import { FormMessage } from '../components/account/form-field.tsx';
import { AdminError, AdminLayout } from '../components/admin/admin-layout.tsx';
import { ReturnDecision } from '../components/admin/return-decision.tsx';
import { type BackOfficeResult, handleBackOfficeAction } from '../lib/back-office-actions.server.ts';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { pageUrl } from '../lib/page-url.ts';
import { requireAdmin } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/admin-returns';

const STATUSES = ['Requested', 'Approved', 'Rejected'] as const;
const when = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'Australia/Sydney',
});

/** The queue of return requests (open first; `?status=` filters). Admin only. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(request, context);
  const status = STATUSES.find((value) => value === pageUrl(request).searchParams.get('status'));
  return { returns: await context.get(shopContext).backOffice.listReturns({ status }), status: status ?? null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireAdmin(request, context);
  const form = await readUrlEncodedForm(request, 8 * 1024);
  return handleBackOfficeAction(form, viewer, context.get(shopContext).backOffice);
}

export default function AdminReturns({ loaderData, actionData }: Route.ComponentProps) {
  const { returns, status } = loaderData;
  const result = actionData as BackOfficeResult | undefined;
  return (
    <AdminLayout title="Returns">
      <nav aria-label="Filter returns" className="flex flex-wrap gap-2 text-sm">
        {[null, ...STATUSES].map((value) => (
          <Link
            key={value ?? 'all'}
            to={value ? `?status=${value}` : '?'}
            aria-current={status === value ? 'page' : undefined}
            className={`rounded-full px-3 py-1.5 font-semibold ${status === value ? 'bg-navy-900 text-white' : 'bg-white text-navy-800 ring-1 ring-gray-300'}`}
          >
            {value ?? 'All'}
          </Link>
        ))}
      </nav>
      {result ? (
        <div className="mt-4">
          <FormMessage tone={result.ok ? 'success' : 'error'}>{result.message}</FormMessage>
        </div>
      ) : null}
      {returns.length === 0 ? (
        <p className="mt-6 rounded-lg border border-dashed border-gray-300 bg-white p-8 text-center font-semibold">
          No return requests
        </p>
      ) : (
        <ul className="mt-6 space-y-3">
          {returns.map((request) => (
            <li key={request.id} className="rounded-lg border border-gray-200 bg-white p-4 text-sm">
              <p>
                <Link to={`/admin/orders/${request.orderId}`} className="font-semibold text-navy-800 underline">
                  {request.orderNumber}
                </Link>{' '}
                · {request.email ?? 'Deleted account'} · {when.format(new Date(request.createdAt))} ·{' '}
                <strong>{request.status}</strong>
              </p>
              <p className="mt-1">“{request.reason}”</p>
              <p className="text-gray-700">
                {request.items.map((item) => `${item.quantity} × ${item.productName}`).join(', ')}
              </p>
              {request.resolutionNote ? <p className="text-gray-700">{request.resolutionNote}</p> : null}
              {request.status === 'Requested' ? <ReturnDecision returnId={request.id} /> : null}
            </li>
          ))}
        </ul>
      )}
    </AdminLayout>
  );
}

export function ErrorBoundary() {
  return <AdminError failure="The returns could not be loaded. Please try again." />;
}
