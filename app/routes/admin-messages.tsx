import { AdminError, AdminLayout } from '../components/admin/admin-layout.tsx';
import { PageLinks } from '../components/page-links.tsx';
import { pageUrl } from '../lib/page-url.ts';
import { requireAdmin } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/admin-messages';

const when = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'Australia/Sydney',
});

/** What shoppers sent through the contact form, newest first. Admin only. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(request, context);
  const page = Math.min(
    10_000,
    Math.max(1, Number.parseInt(pageUrl(request).searchParams.get('page') ?? '1', 10) || 1),
  );
  return context.get(shopContext).backOffice.listMessages({ page });
}

export default function AdminMessages({ loaderData }: Route.ComponentProps) {
  const { items, page, totalPages } = loaderData;
  return (
    <AdminLayout title="Messages">
      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-gray-300 bg-white p-8 text-center font-semibold">
          No messages yet
        </p>
      ) : (
        <ul className="space-y-3">
          {items.map((message) => (
            <li key={message.id} className="rounded-lg border border-gray-200 bg-white p-4 text-sm">
              <p className="flex flex-wrap justify-between gap-2">
                <strong className="text-base">{message.subject}</strong>
                <span className="text-gray-600">{when.format(new Date(message.createdAt))}</span>
              </p>
              <p className="mt-1 text-gray-700">
                {message.name} ·{' '}
                <a
                  href={`mailto:${message.email}?subject=${encodeURIComponent(`Re: ${message.subject}`)}`}
                  className="text-navy-800 underline"
                >
                  {message.email}
                </a>
                {message.phone ? ` · ${message.phone}` : ''}
                {message.orderNumber ? ` · order ${message.orderNumber}` : ''}
              </p>
              <p className="mt-2 whitespace-pre-line">{message.message}</p>
            </li>
          ))}
        </ul>
      )}
      <PageLinks page={page} totalPages={totalPages} hrefFor={(target) => `?page=${target}`} />
    </AdminLayout>
  );
}

export function ErrorBoundary() {
  return <AdminError failure="The messages could not be loaded. Please try again." />;
}
