import type { ReactNode } from 'react';
import { data, Form, Link } from 'react-router';
import { changePasswordBodySchema, changePasswordFormSchema, profileUpdateSchema } from '../../contracts/account.ts';
import { ACCOUNT_LIMITS, ACCOUNT_MESSAGES, PASSWORD_MIN_LENGTH } from '../../contracts/account-fields.ts';
import { readableFailureMessage } from '../../contracts/field-errors.ts';
import { MEMBERSHIP_PLANS, planNamed } from '../../contracts/membership.ts';
import { formatDollars } from '../../contracts/money.ts';
import { AccountLayout } from '../components/account/account-layout.tsx';
import { type FieldErrors, FormMessage, SubmitButton, TextField } from '../components/account/form-field.tsx';
import { isCurrentMember, MembershipBilling } from '../components/account/membership-billing.tsx';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { domainFailureOf, fieldErrorsOf, formValues } from '../lib/form-errors.ts';
import { pageUrl } from '../lib/page-url.ts';
import { requestContext } from '../lib/request-context.ts';
import { retryAfterHeaders, retryAfterPageHeaders } from '../lib/retry-after.ts';
import { redirectSignedOut, requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/account-settings';

/** A refused try (429) tells the browser when to come back. */
export const headers = retryAfterPageHeaders;

const TABS = [
  { id: 'profile', label: 'Profile Information' },
  { id: 'password', label: 'Change Password' },
  { id: 'membership', label: 'Membership' },
  { id: 'danger', label: 'Danger Zone' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/**
 * The three tabs of spec §2; the tab is in the URL (`?tab=password`) so each works without
 * JavaScript. `{ user, tab, membership, hasPassword, googleConfirmed, googleSignIn }`: an
 * account made with Google has no password, so its confirmations are a fresh Google sign-in
 * (`googleConfirmed`: this session signed in with Google in the last 10 minutes) or a password
 * set first through an e-mailed link.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  const { accounts, memberships, shop } = context.get(shopContext);
  const [user, membership, methods] = await Promise.all([
    accounts.getProfile(viewer.user.id),
    memberships.get(viewer.user.id),
    accounts.signInMethods(viewer.user.id),
  ]);
  const googleConfirmed =
    !methods.password &&
    (await accounts.confirmIdentity(viewer.user.id, viewer.sessionId, null).then(
      () => true,
      () => false,
    ));
  const asked = pageUrl(request).searchParams.get('tab');
  const tab: Tab = TABS.some((entry) => entry.id === asked) ? (asked as Tab) : 'profile';
  return { user, tab, membership, hasPassword: methods.password, googleConfirmed, googleSignIn: shop.googleSignIn };
}

type ActionResult =
  | { intent: 'profile' | 'password' | 'password-link'; status: 'saved'; message: string; tab?: Tab }
  | {
      intent: 'profile' | 'password' | 'password-link' | 'delete';
      tab?: Tab;
      status: 'failed';
      message: string;
      errors: FieldErrors;
      values?: Record<string, string>;
    };

/**
 * `intent=profile` saves name and phone (PUT /api/users/profile's schema); `intent=password`
 * changes the password and signs out every other device (a Google-only account, confirmed
 * with Google, sends `confirmation=google` and no current password); `intent=password-link`
 * e-mails a link to set a password; `intent=delete` deletes the account, confirmed with the
 * current password or a fresh Google sign-in, and signs out (spec §2). Failures use the
 * spec's §8 texts; a confirmation asked too often answers 429 with the message.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(request, context);
  const { accounts } = context.get(shopContext);
  const meta = { address: context.get(requestContext).clientAddress };
  const form = await readUrlEncodedForm(request, 8 * 1024);
  const intent = form.get('intent');

  if (intent === 'profile') {
    const values = formValues(form, ['firstName', 'lastName', 'phoneNumber'] as const);
    const parsed = profileUpdateSchema.safeParse(values);
    if (!parsed.success) {
      return data<ActionResult>(
        { intent, status: 'failed', message: 'Failed to update profile', errors: fieldErrorsOf(parsed.error), values },
        { status: 400 },
      );
    }
    try {
      await accounts.updateProfile(viewer.user.id, parsed.data);
      return data<ActionResult>({ intent, status: 'saved', message: ACCOUNT_MESSAGES.profileUpdated });
    } catch (error) {
      console.error('Updating a profile failed', error);
      return data<ActionResult>(
        { intent, status: 'failed', message: 'Failed to update profile', errors: {}, values },
        { status: 500 },
      );
    }
  }

  if (intent === 'password-link') {
    const tab: Tab = form.get('tab') === 'danger' ? 'danger' : 'password';
    try {
      await accounts.requestPasswordReset(viewer.user.email, meta);
      return data<ActionResult>({ intent, tab, status: 'saved', message: ACCOUNT_MESSAGES.passwordLinkSent });
    } catch (error) {
      const failure = domainFailureOf(error);
      if (!failure) throw error;
      return data<ActionResult>(
        { intent, tab, status: 'failed', message: failure.message, errors: {} },
        { status: failure.status, headers: retryAfterHeaders(error) },
      );
    }
  }

  if (intent === 'password') {
    const values = formValues(form, ['currentPassword', 'newPassword', 'confirmNewPassword'] as const);
    // A Google-only account has no current password: its session's fresh Google sign-in confirms instead.
    const withGoogle = form.get('confirmation') === 'google';
    const confirm = changePasswordFormSchema.safeParse(values);
    const parsed = withGoogle
      ? changePasswordBodySchema.omit({ currentPassword: true }).safeParse(values)
      : changePasswordBodySchema.safeParse(values);
    if (!confirm.success || !parsed.success) {
      const errors = {
        ...(confirm.success ? {} : fieldErrorsOf(confirm.error)),
        ...(parsed.success ? {} : fieldErrorsOf(parsed.error)),
      };
      const message = errors.confirmNewPassword?.[0] ?? 'Failed to change password';
      return data<ActionResult>({ intent, status: 'failed', message, errors }, { status: 400 });
    }
    try {
      const currentPassword = withGoogle ? null : values.currentPassword;
      await accounts.changePassword(
        viewer.user.id,
        viewer.sessionId,
        { currentPassword, newPassword: parsed.data.newPassword },
        meta,
      );
      return data<ActionResult>({ intent, status: 'saved', message: ACCOUNT_MESSAGES.passwordChanged });
    } catch (error) {
      const failure = domainFailureOf(error);
      if (!failure) console.error('Changing a password failed', error);
      return data<ActionResult>(
        {
          intent,
          status: 'failed',
          // A refused field shows its own message under it; the banner is then the spec's §8 text.
          message: failure
            ? readableFailureMessage((error as Error).message, failure.errors, 'Failed to change password')
            : 'Failed to change password',
          errors: failure?.errors ?? {},
        },
        { status: failure?.status ?? 500, headers: retryAfterHeaders(error) },
      );
    }
  }

  if (intent === 'delete') {
    try {
      await accounts.deleteAccount(
        viewer.user.id,
        { sessionId: viewer.sessionId, password: form.get('currentPassword') || null },
        meta,
      );
    } catch (error) {
      const failure = domainFailureOf(error);
      if (!failure) console.error('Deleting an account failed', error);
      return data<ActionResult>(
        {
          intent,
          status: 'failed',
          message: failure?.message ?? 'Failed to delete account',
          errors: failure?.errors ?? {},
        },
        { status: failure?.status ?? 500, headers: retryAfterHeaders(error) },
      );
    }
    return redirectSignedOut(context, '/login?notice=deleted');
  }

  throw data('Unknown action', { status: 400 });
}

export default function AccountSettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { user, tab, hasPassword, googleConfirmed, googleSignIn } = loaderData;
  const result = actionData as ActionResult | undefined;
  const current: Tab =
    result?.tab ??
    (result?.intent === 'delete'
      ? 'danger'
      : result?.intent === 'password-link'
        ? 'password'
        : (result?.intent ?? tab));
  const outcome = (intent: ActionResult['intent']) =>
    result?.intent === intent ? (
      <FormMessage tone={result.status === 'saved' ? 'success' : 'error'}>{result.message}</FormMessage>
    ) : null;
  const errors = result?.status === 'failed' ? result.errors : undefined;
  const values = result?.status === 'failed' ? result.values : undefined;

  return (
    <AccountLayout title="Account Settings">
      <nav aria-label="Account settings sections" className="flex flex-wrap gap-1 border-b border-gray-200">
        {TABS.map((entry) => (
          <Link
            key={entry.id}
            to={`?tab=${entry.id}`}
            preventScrollReset
            aria-current={current === entry.id ? 'page' : undefined}
            className={`-mb-px rounded-t border border-b-0 px-4 py-2.5 text-sm font-semibold ${
              current === entry.id
                ? 'border-gray-200 bg-white text-ink'
                : 'border-transparent text-navy-800 hover:bg-navy-100'
            } ${entry.id === 'danger' ? 'text-sale' : ''}`}
          >
            {entry.label}
          </Link>
        ))}
      </nav>
      <div className="rounded-b-lg border border-t-0 border-gray-200 bg-white p-5 sm:p-6">
        {current === 'profile' ? (
          <section aria-labelledby="settings-profile">
            <h2 id="settings-profile" className="font-display text-2xl font-bold uppercase">
              Profile Information
            </h2>
            <div className="mt-4">{outcome('profile')}</div>
            <Form
              method="post"
              noValidate
              className="mt-4 grid gap-5 sm:grid-cols-2"
              // React Router hands over the action's result before the reloaded profile, so
              // the saved values are part of the key: the form is drawn again once they arrive.
              key={`profile-${result?.status ?? ''}-${user.firstName}-${user.lastName}-${user.phoneNumber ?? ''}`}
            >
              <TextField
                form="settings"
                name="firstName"
                label="First name"
                autoComplete="given-name"
                maxLength={ACCOUNT_LIMITS.name}
                defaultValue={values?.firstName ?? user.firstName}
                errors={errors}
                required
              />
              <TextField
                form="settings"
                name="lastName"
                label="Last name"
                autoComplete="family-name"
                maxLength={ACCOUNT_LIMITS.name}
                defaultValue={values?.lastName ?? user.lastName}
                errors={errors}
                required
              />
              <TextField
                form="settings"
                name="phoneNumber"
                label="Phone number"
                type="tel"
                autoComplete="tel"
                maxLength={ACCOUNT_LIMITS.phone}
                defaultValue={values?.phoneNumber ?? user.phoneNumber}
                errors={errors}
              />
              <TextField
                form="settings"
                name="email"
                label="Email"
                type="email"
                defaultValue={user.email}
                readOnly
                required
                hint="Email cannot be changed"
              />
              <div className="sm:col-span-2">
                <SubmitButton busyLabel="Saving…" name="intent" value="profile">
                  Save Changes
                </SubmitButton>
              </div>
            </Form>
          </section>
        ) : null}

        {current === 'password' ? (
          <section aria-labelledby="settings-password">
            <h2 id="settings-password" className="font-display text-2xl font-bold uppercase">
              Change Password
            </h2>
            <p className="mt-1 text-sm text-gray-700">
              Every other device signed in to your account will be signed out.
            </p>
            <div className="mt-4">{outcome('password')}</div>
            {hasPassword ? null : (
              <GoogleOnlyChoices
                tab="password"
                confirmed={googleConfirmed}
                googleSignIn={googleSignIn}
                purpose="set a password here"
                outcome={outcome('password-link')}
              />
            )}
            {hasPassword || googleConfirmed ? (
              <Form
                method="post"
                noValidate
                className="mt-4 grid max-w-md gap-5"
                key={`password-${result?.status ?? ''}`}
              >
                {hasPassword ? (
                  <TextField
                    form="settings"
                    name="currentPassword"
                    label="Current password"
                    type="password"
                    autoComplete="current-password"
                    errors={errors}
                    required
                  />
                ) : (
                  <input type="hidden" name="confirmation" value="google" />
                )}
                <TextField
                  form="settings"
                  name="newPassword"
                  label="New password"
                  type="password"
                  autoComplete="new-password"
                  hint={`At least ${PASSWORD_MIN_LENGTH} characters`}
                  errors={errors}
                  required
                />
                <TextField
                  form="settings"
                  name="confirmNewPassword"
                  label="Confirm new password"
                  type="password"
                  autoComplete="new-password"
                  errors={errors}
                  required
                />
                <div>
                  <SubmitButton busyLabel="Changing…" name="intent" value="password">
                    {hasPassword ? 'Change Password' : 'Set Password'}
                  </SubmitButton>
                </div>
              </Form>
            ) : null}
          </section>
        ) : null}

        {current === 'membership' ? <MembershipTab membership={loaderData.membership} /> : null}

        {current === 'danger' ? (
          <section aria-labelledby="settings-danger">
            <h2 id="settings-danger" className="font-display text-2xl font-bold uppercase text-sale">
              Danger Zone
            </h2>
            <p className="mt-2 max-w-prose text-sm text-gray-700">
              Deleting your account removes your details, addresses, saved payment methods, preferences and wishlist,
              and signs you out everywhere. This cannot be undone.
            </p>
            <div className="mt-4">{outcome('delete')}</div>
            {hasPassword ? null : (
              <GoogleOnlyChoices
                tab="danger"
                confirmed={googleConfirmed}
                googleSignIn={googleSignIn}
                purpose="delete your account"
                outcome={outcome('password-link')}
              />
            )}
            {hasPassword || googleConfirmed ? (
              <Form
                method="post"
                noValidate
                className="mt-4 grid max-w-md gap-5"
                onSubmit={(event) => {
                  if (!window.confirm(ACCOUNT_MESSAGES.deleteAccountConfirm)) event.preventDefault();
                }}
              >
                {hasPassword ? (
                  <TextField
                    form="settings-delete"
                    name="currentPassword"
                    label="Current password"
                    type="password"
                    autoComplete="current-password"
                    hint="To confirm it is you"
                    errors={result?.intent === 'delete' ? errors : undefined}
                    required
                  />
                ) : null}
                <div>
                  <SubmitButton busyLabel="Deleting…" tone="danger" name="intent" value="delete">
                    Delete My Account
                  </SubmitButton>
                </div>
              </Form>
            ) : null}
          </section>
        ) : null}
      </div>
    </AccountLayout>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="Account Settings" message="Failed to fetch profile" />;
}

/**
 * What an account made with Google sees where a password would confirm a step: it has none,
 * so either a fresh Google sign-in (it comes back here; good for 10 minutes) or a password set
 * first through an e-mailed link. Plain links and forms: they work without JavaScript.
 */
function GoogleOnlyChoices({
  tab,
  confirmed,
  googleSignIn,
  purpose,
  outcome,
}: {
  tab: 'password' | 'danger';
  confirmed: boolean;
  googleSignIn: boolean;
  purpose: string;
  outcome: ReactNode;
}) {
  const back = `/account-settings?tab=${tab}`;
  return (
    <div className="mt-4 max-w-prose rounded border border-gray-200 bg-gray-50 p-4 text-sm" data-testid="google-only">
      {confirmed ? (
        <p>You confirmed it is you with Google: you can {purpose} for the next few minutes.</p>
      ) : (
        <>
          <p>
            Your account signs in with Google and has no password. To {purpose}, confirm it is you with Google, or set a
            password first: we e-mail you a link.
          </p>
          <div className="mt-3">{outcome}</div>
          <div className="mt-3 flex flex-wrap items-center gap-3">
            {googleSignIn ? (
              // A plain link: the sign-in starts with a redirect to Google, which a form's CSP form-action would block.
              <a
                href={`/auth/google?redirectTo=${encodeURIComponent(back)}`}
                className="inline-block rounded bg-accent px-5 py-2.5 font-semibold text-ink hover:bg-accent-dark"
              >
                Confirm with Google
              </a>
            ) : null}
            <Form method="post">
              <input type="hidden" name="tab" value={tab} />
              <SubmitButton name="intent" value="password-link" tone="secondary" busyLabel="Sending…">
                Set a password
              </SubmitButton>
            </Form>
          </div>
        </>
      )}
    </div>
  );
}

const renewal = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Australia/Sydney',
});

/**
 * The membership at a glance, with switching and cancelling (posted to /membership's action,
 * which owns those rules).
 */
function MembershipTab({ membership }: { membership: Route.ComponentProps['loaderData']['membership'] }) {
  const plan = membership && isCurrentMember(membership) ? planNamed(membership.plan) : undefined;
  if (!membership || !plan) {
    return (
      <section aria-labelledby="settings-membership">
        <h2 id="settings-membership" className="font-display text-2xl font-bold uppercase">
          Membership
        </h2>
        <p className="mt-2 text-sm text-gray-700">You are not a member.</p>
        <Link
          to="/membership"
          className="mt-4 inline-block rounded bg-accent px-5 py-2.5 font-semibold text-ink hover:bg-accent-dark"
        >
          See the membership plans
        </Link>
      </section>
    );
  }
  const other = MEMBERSHIP_PLANS.find((candidate) => candidate.id !== plan.id)!;
  return (
    <section aria-labelledby="settings-membership">
      <h2 id="settings-membership" className="font-display text-2xl font-bold uppercase">
        Membership
      </h2>
      <p className="mt-2 text-sm" data-testid="settings-membership">
        {plan.name} plan, {formatDollars(plan.monthlyPriceCents / 100)}/month.{' '}
        {membership.status === 'cancelling'
          ? `Ends on ${renewal.format(new Date(membership.renewsOn))}.`
          : `Renews on ${renewal.format(new Date(membership.renewsOn))}.`}
      </p>
      <MembershipBilling membership={membership} />
      <div className="mt-4 flex flex-wrap gap-3">
        <Form method="post" action="/membership">
          <input type="hidden" name="plan" value={membership.pendingPlan === other.id ? plan.id : other.id} />
          <SubmitButton name="intent" value="switch" busyLabel="Switching…">
            {membership.pendingPlan === other.id ? `Keep ${plan.name}` : `Switch to ${other.name}`}
          </SubmitButton>
        </Form>
        {membership.status === 'cancelling' ? (
          <Form method="post" action="/membership">
            <input type="hidden" name="plan" value={plan.id} />
            <SubmitButton name="intent" value="switch" tone="secondary" busyLabel="Saving…">
              {`Keep ${plan.name}`}
            </SubmitButton>
          </Form>
        ) : (
          <Form
            method="post"
            action="/membership"
            onSubmit={(event) => {
              if (!window.confirm('Cancel your membership at the end of this month?')) event.preventDefault();
            }}
          >
            <SubmitButton name="intent" value="cancel" tone="danger" busyLabel="Cancelling…">
              Cancel membership
            </SubmitButton>
          </Form>
        )}
      </div>
    </section>
  );
}
