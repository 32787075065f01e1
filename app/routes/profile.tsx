import { Link } from 'react-router';
import { planNamed } from '../../contracts/membership.ts';
import { formatDollars } from '../../contracts/money.ts';
import { AccountLayout } from '../components/account/account-layout.tsx';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { OrderStatusBadge } from '../components/order-status-badge.tsx';
import { PostalAddress } from '../components/postal-address.tsx';
import { SectionError } from '../components/section-error.tsx';
import { loadSection } from '../lib/section-load.ts';
import { requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/profile';

/**
 * The account dashboard (spec §2 "/profile", guarded): who the shopper is, their default
 * address, their 3 most recent orders, and the way to every account section.
 * `{ user, defaultAddress, addressCount, recentOrders }`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  const { accounts, addresses, orders, memberships, points } = context.get(shopContext);
  const [user, saved, recentOrders, plan, balance] = await Promise.all([
    accounts.getProfile(viewer.user.id),
    addresses.list(viewer.user.id),
    // Loaded on their own: when they fail the page still shows the profile, with 'Failed to fetch orders' (spec §8) in their place.
    loadSection(context, () => orders.listOrders(viewer.user.id, { limit: RECENT_ORDERS })),
    memberships.planOf(viewer.user.id),
    points.balance(viewer.user.id),
  ]);
  return {
    user,
    defaultAddress: saved.find((address) => address.isDefault) ?? null,
    addressCount: saved.length,
    recentOrders,
    greeting: Date.now() - new Date(user.createdAt).getTime() < NEW_ACCOUNT_MS ? 'Welcome' : 'Welcome back',
    planName: plan ? (planNamed(plan)?.name ?? null) : null,
    balance,
  };
}

/** An account this young is greeted 'Welcome': it has not been anywhere to be back from. */
const NEW_ACCOUNT_MS = 60 * 60_000;

/** Spec §9: the profile shows the 3 most recent orders. */
const RECENT_ORDERS = 3;

const memberSince = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Australia/Sydney',
});

const SECTIONS = [
  { to: '/orders', title: 'My Orders', text: 'Follow, cancel or reorder what you have bought.' },
  { to: '/addresses', title: 'Addresses', text: 'Where we deliver: add, change or pick the default.' },
  { to: '/payment-methods', title: 'Payment Methods', text: 'Saved cards for a faster checkout.' },
  { to: '/account-settings', title: 'Account Settings', text: 'Your details, password, or deleting your account.' },
  { to: '/preferences', title: 'Preferences', text: 'Which e-mails you get and how we contact you.' },
  { to: '/wishlist', title: 'Wishlist', text: 'The tools you have saved for later.' },
] as const;

export default function ProfilePage({ loaderData }: Route.ComponentProps) {
  const { user, defaultAddress, addressCount, recentOrders, greeting, planName, balance } = loaderData;
  return (
    <AccountLayout title="User Profile" intro={`${greeting}, ${user.firstName}.`}>
      <div className="grid gap-6 xl:grid-cols-2">
        <section aria-labelledby="profile-details" className="rounded-lg border border-gray-200 bg-white p-5 sm:p-6">
          <h2 id="profile-details" className="font-display text-2xl font-bold uppercase">
            Your details
          </h2>
          <dl className="mt-4 grid grid-cols-[8rem_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
            <dt className="font-semibold text-gray-600">Name</dt>
            <dd data-testid="profile-name">{user.name}</dd>
            <dt className="font-semibold text-gray-600">Email</dt>
            <dd className="break-words">{user.email}</dd>
            <dt className="font-semibold text-gray-600">Phone</dt>
            <dd>{user.phoneNumber ?? 'Not given'}</dd>
            <dt className="font-semibold text-gray-600">Member since</dt>
            <dd>{memberSince.format(new Date(user.createdAt))}</dd>
            <dt className="font-semibold text-gray-600">Membership</dt>
            <dd>
              {planName ?? 'Not a member'} ·{' '}
              <Link to="/membership" className="text-navy-800 underline">
                {planName ? 'Manage' : 'See the plans'}
              </Link>
            </dd>
            <dt className="font-semibold text-gray-600">Points</dt>
            <dd data-testid="profile-points">
              {balance.toLocaleString('en-AU')} ·{' '}
              <Link to="/points" className="text-navy-800 underline">
                History
              </Link>
            </dd>
          </dl>
          <Link
            to="/account-settings"
            className="mt-5 inline-block text-sm font-semibold text-navy-800 underline underline-offset-2"
          >
            Edit your details
          </Link>
        </section>
        <section aria-labelledby="profile-address" className="rounded-lg border border-gray-200 bg-white p-5 sm:p-6">
          <h2 id="profile-address" className="font-display text-2xl font-bold uppercase">
            Default address
          </h2>
          {defaultAddress ? (
            <PostalAddress address={defaultAddress} className="mt-4 text-sm not-italic leading-relaxed" />
          ) : (
            <p className="mt-4 text-sm text-gray-700">No addresses saved</p>
          )}
          <Link
            to="/addresses"
            className="mt-5 inline-block text-sm font-semibold text-navy-800 underline underline-offset-2"
          >
            {addressCount > 0 ? `Manage addresses (${addressCount})` : 'Add an address'}
          </Link>
        </section>
      </div>

      <section aria-labelledby="profile-orders" className="mt-6 rounded-lg border border-gray-200 bg-white p-5 sm:p-6">
        <h2 id="profile-orders" className="font-display text-2xl font-bold uppercase">
          Recent orders
        </h2>
        {recentOrders === null ? (
          <SectionError message="Failed to fetch orders" className="mt-4" />
        ) : recentOrders.length === 0 ? (
          <>
            <p className="mt-3 text-sm text-gray-700">You have not placed any orders yet.</p>
            <Link
              to="/products"
              className="mt-4 inline-block rounded bg-accent px-5 py-2.5 text-sm font-semibold text-ink hover:bg-accent-dark"
            >
              Start shopping
            </Link>
          </>
        ) : (
          <>
            <ul className="mt-3 divide-y divide-gray-100">
              {recentOrders.map((order) => (
                <li key={order.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                  <Link to={`/orders/${order.id}`} className="font-semibold text-navy-800 hover:underline">
                    {order.orderNumber}
                  </Link>
                  <span className="text-gray-700">{memberSince.format(new Date(order.createdAt))}</span>
                  <OrderStatusBadge status={order.status} />
                  <span className="tabular font-semibold">{formatDollars(order.total)}</span>
                </li>
              ))}
            </ul>
            <Link
              to="/orders"
              className="mt-3 inline-block text-sm font-semibold text-navy-800 underline underline-offset-2"
            >
              All orders
            </Link>
          </>
        )}
      </section>

      <nav aria-label="Account sections" className="mt-6">
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {SECTIONS.map((section) => (
            <li key={section.to}>
              <Link
                to={section.to}
                className="block h-full rounded-lg border border-gray-200 bg-white p-4 hover:border-navy-700 hover:shadow-md"
              >
                <span className="font-display text-xl font-bold uppercase text-navy-800">{section.title}</span>
                <span className="mt-1 block text-sm text-gray-700">{section.text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </AccountLayout>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="User Profile" message="Failed to fetch profile" />;
}
