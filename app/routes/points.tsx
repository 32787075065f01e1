import { Link } from 'react-router';
import { type PointsLedger, RETURN_WINDOW_DAYS } from '../../contracts/points.ts';
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
const KIND_LABELS = { earn: 'Earned', redeem: 'Redeemed', reverse: 'Reversed', adjust: 'Adjusted' } as const;

/**
 * "Pending: 200 points — available from 12 Jan 2027"; with several dates, how many free up on
 * each; points held while a return is decided say so.
 */
function pendingLine(pending: number, releases: PointsLedger['pendingReleases']): string {
  const dated = releases.filter((release) => release.availableAt !== null);
  const held = releases.filter((release) => release.availableAt === null).reduce((sum, r) => sum + r.points, 0);
  const parts = dated.map((release) =>
    dated.length === 1 && held === 0
      ? `available from ${when.format(new Date(release.availableAt!))}`
      : `${release.points.toLocaleString('en-AU')} available from ${when.format(new Date(release.availableAt!))}`,
  );
  if (held !== 0) parts.push(`${held.toLocaleString('en-AU')} waiting for a return to be decided`);
  return `Pending: ${pending.toLocaleString('en-AU')} points${parts.length ? ` — ${parts.join(', ')}` : ''}`;
}

/**
 * The points ledger (guarded): the spendable balance, the pending points and when they free up,
 * then date, what, points and the running total after each, newest first.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  const page = Math.min(
    10_000,
    Math.max(1, Number.parseInt(pageUrl(request).searchParams.get('page') ?? '1', 10) || 1),
  );
  const ledger = await context.get(shopContext).points.ledger(viewer.user.id, { page });
  // The moment the ledger was read: an entry available after it is shown as pending.
  return { ...ledger, readAt: new Date().toISOString() };
}

export default function PointsPage({ loaderData }: Route.ComponentProps) {
  const { balance, pending, pendingReleases, entries, page, totalPages, readAt } = loaderData;
  return (
    <AccountLayout
      title="My Points"
      intro={
        <>
          <span data-testid="points-balance">Balance: {balance.toLocaleString('en-AU')} points</span>
          {pending !== 0 ? (
            <span data-testid="points-pending" className="mt-1 block text-base">
              {pendingLine(pending, pendingReleases)}
            </span>
          ) : null}
          {pending !== 0 ? (
            <span className="mt-1 block text-sm">
              Points from an order can be spent once its {RETURN_WINDOW_DAYS}-day return window has passed.
            </span>
          ) : null}
        </>
      }
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
            <caption className="sr-only">Points ledger: the total after each entry counts pending points too</caption>
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
                  Total
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
                    {/* The space keeps the cell's text readable as one line ("… HT-100001 Pending: …"). */}
                    {entry.availableAt === null ? (
                      <>
                        {' '}
                        <span className="block text-xs text-gray-600">Pending: waiting for a return to be decided</span>
                      </>
                    ) : entry.availableAt > readAt ? (
                      <>
                        {' '}
                        <span className="block text-xs text-gray-600">
                          Pending: available from {when.format(new Date(entry.availableAt))}
                        </span>
                      </>
                    ) : null}
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
