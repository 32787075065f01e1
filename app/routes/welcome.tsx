import { Link } from 'react-router';
import { planNamed } from '../../contracts/membership.ts';
import { AccountLayout } from '../components/account/account-layout.tsx';
import { isCurrentMember, MembershipBilling } from '../components/account/membership-billing.tsx';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/welcome';

const when = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Australia/Sydney',
});

/** Where a new member lands (spec §2, guarded): their plan and its benefits. `{ firstName, membership }`. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  return {
    firstName: viewer.user.firstName,
    membership: await context.get(shopContext).memberships.get(viewer.user.id),
  };
}

export default function WelcomePage({ loaderData }: Route.ComponentProps) {
  const { firstName, membership } = loaderData;
  const plan = membership && isCurrentMember(membership) ? planNamed(membership.plan) : undefined;
  if (!membership || !plan) {
    return (
      <AccountLayout title="Welcome" intro={`Hi ${firstName}.`}>
        <div className="max-w-prose rounded-lg border border-gray-200 bg-white p-6">
          <p className="font-display text-2xl font-bold uppercase">You are not a member yet</p>
          <p className="mt-2 text-gray-700">Members earn points on every order and Premium members ship free.</p>
          <Link
            to="/membership"
            className="mt-4 inline-block rounded bg-accent px-5 py-2.5 font-semibold text-ink hover:bg-accent-dark"
          >
            See the membership plans
          </Link>
        </div>
      </AccountLayout>
    );
  }
  return (
    <AccountLayout title={`Welcome to ${plan.name}`} intro={`Thanks for joining, ${firstName}.`}>
      <div className="max-w-2xl rounded-lg border border-navy-700 bg-white p-6">
        <p className="font-display text-2xl font-bold uppercase">Your {plan.name} benefits</p>
        <ul className="mt-3 space-y-2">
          {plan.benefits.map((benefit) => (
            <li key={benefit} className="flex gap-2">
              <span aria-hidden="true" className="font-bold text-stock-in">
                ✓
              </span>
              {benefit}
            </li>
          ))}
        </ul>
        <p className="mt-4 text-sm text-gray-700">
          Your membership renews on {when.format(new Date(membership.renewsOn))}.
        </p>
        <MembershipBilling membership={membership} />
        <div className="mt-5 flex flex-wrap gap-3">
          <Link to="/products" className="rounded bg-accent px-5 py-2.5 font-semibold text-ink hover:bg-accent-dark">
            Start shopping
          </Link>
          <Link
            to="/redemption"
            className="rounded border border-navy-800 px-5 py-2.5 font-semibold text-navy-800 hover:bg-navy-100"
          >
            Redeem your points
          </Link>
        </div>
      </div>
    </AccountLayout>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="Welcome" message="We could not load this page. Please try again." />;
}
