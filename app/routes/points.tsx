import { Link } from 'react-router';
import { AccountLayout } from '../components/account/account-layout.tsx';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { PageLinks } from '../components/page-links.tsx';
import { pageUrl } from '../lib/page-url.ts';
import { requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/points';

const when = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'Australia/Sydney',
});
const KIND_LABELS = { earn: 'Earned', redeem: 'Redeemed', reverse: 'Reversed' } as const;

/** The points ledger (guarded): date, what, points and the balance after each, newest first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  const page = Math.min(
    10_000,
    Math.max(1, Number.parseInt(pageUrl(request).searchParams.get('page') ?? '1', 10) || 1),
  );
  return context.get(shopContext).points.ledger(viewer.user.id, { page });
}

export default function PointsPage({ loaderData }: Route.ComponentProps) {
  const { balance, entries, page, totalPages } = loaderData;
  return (
    <AccountLayout
      title="My Points"
      intro={<span data-testid="points-balance">Balance: {balance.toLocaleString('en-AU')} points</span>}
    >
      {entries.length === 0 ? (
        <div className="rounded-lg border border-dashed border-gray-300 bg-white p-8 text-center">
          <p className="font-display text-2xl font-bold uppercase">No points yet</p>
          <p className="mt-2 text-gray-700">Members earn points when an order is fulfilled.</p>
          <Link
            to="/membership"
            className="mt-4 inline-block rounded bg-accent px-5 py-2.5 font-semibold text-ink hover:bg-accent-dark"
          >
            Membership plans
          </Link>
        </div>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white">
          {/* Fits a phone's width: the points and the balance must not hide behind a sideways scroll. */}
          <table className="w-full text-sm">
            <caption className="sr-only">Points ledger</caption>
            <thead className="border-b border-gray-200 text-left text-xs uppercase tracking-wide text-gray-600">
              <tr>
                <th scope="col" className="px-3 py-3 sm:px-4">
                  Date
                </th>
                <th scope="col" className="px-2 py-3">
                  What
                </th>
                <th scope="col" className="px-2 py-3 text-right">
                  Points
                </th>
                <th scope="col" className="px-3 py-3 text-right sm:px-4">
                  Balance
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td className="px-3 py-2 sm:px-4">{when.format(new Date(entry.createdAt))}</td>
                  <td className="px-2 py-2 [overflow-wrap:anywhere]">
                    {/* A redemption's note already says 'Redeemed …': no 'Redeemed: Redeemed …'. */}
                    {entry.note.startsWith(KIND_LABELS[entry.kind]) ? null : `${KIND_LABELS[entry.kind]}: `}
                    {entry.orderId ? (
                      <Link to={`/orders/${entry.orderId}`} className="text-navy-800 underline">
                        {entry.note}
                      </Link>
                    ) : (
                      entry.note
                    )}
                  </td>
                  <td
                    className={`tabular whitespace-nowrap px-2 py-2 text-right font-semibold ${entry.points < 0 ? 'text-sale' : 'text-stock-in'}`}
                  >
                    {entry.points > 0 ? `+${entry.points}` : entry.points}
                  </td>
                  <td className="tabular px-3 py-2 text-right sm:px-4">{entry.balanceAfter}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PageLinks
        page={page}
        totalPages={totalPages}
        hrefFor={(target) => `?page=${target}`}
        previous="Newer"
        next="Older"
      />
    </AccountLayout>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="My Points" message="We could not load your points. Please try again." />;
}
