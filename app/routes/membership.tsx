import { useState } from 'react';
import { data, Form, Link, redirect } from 'react-router';
import { MEMBERSHIP_PLANS, planNamed } from '../../contracts/membership.ts';
import { joinMembershipSchema } from '../../contracts/membership-input.ts';
import { formatDollars } from '../../contracts/money.ts';
import { CARD_MESSAGES } from '../../contracts/orders.ts';
import { parseId } from '../../contracts/params.ts';
import { AccountLayout } from '../components/account/account-layout.tsx';
import { type FieldErrors, FormMessage, SubmitButton, TextField } from '../components/account/form-field.tsx';
import { isCurrentMember, MembershipBilling } from '../components/account/membership-billing.tsx';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { domainFailureOf, fieldErrorsOf } from '../lib/form-errors.ts';
import { requestContext } from '../lib/request-context.ts';
import { requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/membership';

const when = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Australia/Sydney',
});

/**
 * 'Become a Member' (spec §2, guarded): the plans, and the join form (name and e-mail from
 * the account, the account's password twice, a card). A member sees their plan and can switch
 * it or cancel at the end of the month. `{ membership, name, email, methods }`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  const { memberships, paymentMethods, accounts, shop } = context.get(shopContext);
  const [membership, methods, signIn] = await Promise.all([
    memberships.get(viewer.user.id),
    paymentMethods.list(viewer.user.id),
    accounts.signInMethods(viewer.user.id),
  ]);
  // An account made with Google has no password: a fresh Google sign-in confirms the join instead.
  const googleConfirmed =
    !signIn.password &&
    (await accounts.confirmIdentity(viewer.user.id, viewer.sessionId, null).then(
      () => true,
      () => false,
    ));
  return {
    membership,
    name: viewer.user.name,
    email: viewer.user.email,
    methods,
    hasPassword: signIn.password,
    googleConfirmed,
    googleSignIn: shop.googleSignIn,
  };
}

/** Stands in for the password fields the form leaves out for an account without a password (the service ignores it). */
const NO_PASSWORD_PLACEHOLDER = 'google-confirmed';

type ActionResult = { ok: boolean; message: string; errors?: FieldErrors; plan?: string };

/** `intent=join` (pays the first month, then /welcome), `intent=switch` with `plan`, `intent=cancel`. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(request, context);
  const { memberships, accounts } = context.get(shopContext);
  const address = context.get(requestContext).clientAddress;
  const form = await readUrlEncodedForm(request, 8 * 1024);
  const intent = form.get('intent');
  try {
    if (intent === 'join') {
      const savedMethod = form.get('payWith');
      const useSaved = savedMethod && savedMethod !== 'new';
      const { password: hasPassword } = await accounts.signInMethods(viewer.user.id);
      const parsed = joinMembershipSchema.safeParse({
        plan: form.get('plan') ?? '',
        name: form.get('name') ?? '',
        email: form.get('email') ?? '',
        password: hasPassword ? (form.get('password') ?? '') : NO_PASSWORD_PLACEHOLDER,
        confirmPassword: hasPassword ? (form.get('confirmPassword') ?? '') : NO_PASSWORD_PLACEHOLDER,
        cardData: useSaved
          ? null
          : {
              Number: form.get('cardNumber') ?? '',
              Name: form.get('cardName') ?? '',
              Expiry: form.get('expiryDate') ?? '',
              Cvc: form.get('cvv') ?? '',
            },
        paymentMethodId: useSaved ? Number(savedMethod) : null,
      });
      if (!parsed.success) {
        const errors = fieldErrorsOf(parsed.error);
        // The card's fields are named as on the checkout form.
        for (const [from, to] of [
          ['Number', 'cardNumber'],
          ['Name', 'cardName'],
          ['Expiry', 'expiryDate'],
          ['Cvc', 'cvv'],
        ] as const) {
          if (errors[from]) errors[to] = errors[from];
        }
        return data<ActionResult>(
          { ok: false, message: 'Please check the highlighted fields.', errors, plan: form.get('plan') ?? '' },
          { status: 400 },
        );
      }
      await memberships.join(viewer.user.id, parsed.data, {
        address,
        confirmWithGoogle: () => accounts.confirmIdentity(viewer.user.id, viewer.sessionId, null, { address }),
      });
      return redirect('/welcome');
    }
    if (intent === 'switch') {
      const plan = planNamed(form.get('plan') ?? '');
      if (!plan) throw data('Unknown plan', { status: 400 });
      const changed = await memberships.changePlan(viewer.user.id, { plan: plan.id }, { address });
      return data<ActionResult>({
        ok: true,
        message:
          changed.pendingPlan === plan.id
            ? `You move to the ${plan.name} plan on ${when.format(new Date(changed.renewsOn))}.`
            : `You are now on the ${plan.name} plan.`,
      });
    }
    if (intent === 'card') {
      // The saved method renewals charge; the plan stays as it is.
      const current = await memberships.get(viewer.user.id);
      const methodId = parseId(form.get('paymentMethodId'));
      if (!current || methodId === null) {
        throw data('Unknown payment method', { status: 400 });
      }
      await memberships.changePlan(
        viewer.user.id,
        { plan: current.pendingPlan ?? current.plan, paymentMethodId: methodId },
        { address },
      );
      return data<ActionResult>({ ok: true, message: 'Your renewals will be charged to that card.' });
    }
    if (intent === 'cancel') {
      const membership = await memberships.cancel(viewer.user.id);
      return data<ActionResult>({
        ok: true,
        message: `Your membership ends on ${when.format(new Date(membership.renewsOn))}. Your benefits last until then.`,
      });
    }
  } catch (error) {
    const failure = domainFailureOf(error);
    if (!failure) throw error;
    return data<ActionResult>(
      { ok: false, message: failure.message, errors: failure.errors, plan: form.get('plan') ?? '' },
      { status: failure.status },
    );
  }
  throw data('Unknown action', { status: 400 });
}

function PlanCards({ current }: { current?: string }) {
  return (
    <ul className="grid gap-5 md:grid-cols-2">
      {MEMBERSHIP_PLANS.map((plan) => (
        <li
          key={plan.id}
          className={`rounded-lg border bg-white p-6 ${plan.id === current ? 'border-navy-700 ring-2 ring-navy-700' : 'border-gray-200'}`}
        >
          {/* The ring alone would say it only in colour. */}
          {plan.id === current ? (
            <p className="mb-2 inline-block rounded bg-navy-900 px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-white">
              Your plan
            </p>
          ) : null}
          <h2 className="font-display text-3xl font-bold uppercase">{plan.name}</h2>
          <p className="tabular mt-2 text-3xl font-bold">
            {formatDollars(plan.monthlyPriceCents / 100)}
            <span className="text-base font-semibold text-gray-700">/month</span>
          </p>
          <ul className="mt-4 space-y-2 text-sm">
            {plan.benefits.map((benefit) => (
              <li key={benefit} className="flex gap-2">
                <span aria-hidden="true" className="font-bold text-stock-in">
                  ✓
                </span>
                {benefit}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}

export default function MembershipPage({ loaderData, actionData }: Route.ComponentProps) {
  const { membership, name, email, methods, hasPassword, googleConfirmed, googleSignIn } = loaderData;
  const result = actionData as ActionResult | undefined;
  const errors = result?.errors;
  const field = { form: 'membership', errors } as const;
  const member = membership && isCurrentMember(membership);
  // The card's fields are needed unless a saved method pays (only offered when there is one).
  const [payWith, setPayWith] = useState('new');
  const cardRequired = methods.length === 0 || payWith === 'new';

  if (member) {
    const plan = planNamed(membership.plan);
    const other = MEMBERSHIP_PLANS.find((candidate) => candidate.id !== membership.plan)!;
    return (
      <AccountLayout title="Membership" intro={`You are a ${plan?.name} member.`}>
        <div className="space-y-5">
          {result ? <FormMessage tone={result.ok ? 'success' : 'error'}>{result.message}</FormMessage> : null}
          <div className="rounded-lg border border-gray-200 bg-white p-4 text-sm">
            <p>
              {membership.status === 'cancelling'
                ? `Your membership ends on ${when.format(new Date(membership.renewsOn))}.`
                : membership.status === 'past_due'
                  ? 'Your renewal payment is overdue.'
                  : `Your membership renews on ${when.format(new Date(membership.renewsOn))}.`}{' '}
              <Link to="/points" className="font-semibold text-navy-800 underline">
                See your points
              </Link>
            </p>
            <MembershipBilling membership={membership} />
            {methods.length > 0 && membership.status !== 'cancelling' ? (
              <Form method="post" className="mt-3 flex flex-wrap items-end gap-2">
                <label className="text-sm">
                  <span className="block font-semibold">Card for renewals</span>
                  <select
                    name="paymentMethodId"
                    defaultValue={membership.paymentMethod?.id ?? methods[0]?.id}
                    className="mt-1 rounded border border-gray-300 px-2 py-1.5"
                  >
                    {methods.map((method) => (
                      <option key={method.id} value={method.id}>
                        {method.provider} ending {method.last4Digits}
                      </option>
                    ))}
                  </select>
                </label>
                <SubmitButton name="intent" value="card" tone="secondary" busyLabel="Saving…">
                  Use this card
                </SubmitButton>
              </Form>
            ) : null}
          </div>
          <PlanCards current={membership.plan} />
          <div className="flex flex-wrap gap-3">
            <Form method="post">
              {/* With a change to the other plan waiting, the button keeps this one instead. */}
              <input
                type="hidden"
                name="plan"
                value={membership.pendingPlan === other.id ? membership.plan : other.id}
              />
              <SubmitButton name="intent" value="switch" busyLabel="Switching…">
                {membership.pendingPlan === other.id ? `Keep ${plan?.name}` : `Switch to ${other.name}`}
              </SubmitButton>
              <p className="mt-1 max-w-xs text-xs text-gray-600">
                {other.monthlyPriceCents > (plan?.monthlyPriceCents ?? 0)
                  ? 'The difference for the rest of this month is charged now, to the card on your membership.'
                  : membership.pendingPlan === other.id
                    ? `Stay on ${plan?.name} after the renewal.`
                    : `From your next renewal, at ${formatDollars(other.monthlyPriceCents / 100)}/month.`}
              </p>
            </Form>
            {membership.status === 'cancelling' ? (
              <Form method="post">
                <input type="hidden" name="plan" value={membership.plan} />
                <SubmitButton name="intent" value="switch" tone="secondary" busyLabel="Saving…">
                  Keep {plan?.name}
                </SubmitButton>
              </Form>
            ) : (
              <Form
                method="post"
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
        </div>
      </AccountLayout>
    );
  }

  return (
    <AccountLayout
      title="Become a Member"
      intro="Earn points on every order and spend them on tools. Two plans, month to month."
    >
      <div className="space-y-6">
        <PlanCards />
        <section aria-labelledby="join-heading" className="rounded-lg border border-gray-200 bg-white p-5 sm:p-6">
          <h2 id="join-heading" className="font-display text-2xl font-bold uppercase">
            Join now
          </h2>
          {result && !result.ok ? (
            <div className="mt-3">
              <FormMessage tone="error">{result.message}</FormMessage>
            </div>
          ) : null}
          <Form method="post" noValidate className="mt-4 grid gap-5 sm:grid-cols-2">
            <fieldset className="sm:col-span-2">
              <legend className="text-sm font-semibold">Plan</legend>
              <div className="mt-2 flex flex-wrap gap-3">
                {MEMBERSHIP_PLANS.map((plan) => (
                  <label
                    key={plan.id}
                    className="flex items-center gap-2 rounded border border-gray-300 px-4 py-3 has-[:checked]:border-navy-800 has-[:checked]:bg-navy-100"
                  >
                    <input
                      type="radio"
                      name="plan"
                      value={plan.id}
                      defaultChecked={(result?.plan || 'basic') === plan.id}
                      className="h-5 w-5 accent-navy-800"
                    />
                    <span className="font-semibold">
                      {plan.name} · {formatDollars(plan.monthlyPriceCents / 100)}/month
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
            <TextField {...field} name="name" label="Name" defaultValue={name} autoComplete="name" required />
            <TextField
              {...field}
              name="email"
              label="Email"
              type="email"
              defaultValue={email}
              readOnly
              hint="Your account's e-mail"
              required
            />
            {hasPassword ? (
              <>
                <TextField
                  {...field}
                  name="password"
                  label="Password"
                  type="password"
                  autoComplete="current-password"
                  hint="Your account's password"
                  required
                />
                <TextField
                  {...field}
                  name="confirmPassword"
                  label="Confirm password"
                  type="password"
                  autoComplete="current-password"
                  required
                />
              </>
            ) : (
              <div
                className="rounded border border-gray-200 bg-gray-50 p-4 text-sm sm:col-span-2"
                data-testid="google-only"
              >
                {googleConfirmed ? (
                  <p>You confirmed it is you with Google: you can join for the next few minutes.</p>
                ) : (
                  <>
                    <p>
                      Your account signs in with Google and has no password. To join, confirm it is you with Google, or
                      set a password first.
                    </p>
                    <div className="mt-3 flex flex-wrap items-center gap-3">
                      {googleSignIn ? (
                        // A plain link: the sign-in starts with a redirect to Google, which a form's CSP form-action would block.
                        <a
                          href={`/auth/google?redirectTo=${encodeURIComponent('/membership')}`}
                          className="inline-block rounded bg-accent px-5 py-2.5 font-semibold text-ink hover:bg-accent-dark"
                        >
                          Confirm with Google
                        </a>
                      ) : null}
                      <Link to="/account-settings?tab=password" className="font-semibold text-navy-800 underline">
                        Set a password
                      </Link>
                    </div>
                  </>
                )}
              </div>
            )}
            {methods.length > 0 ? (
              <fieldset className="sm:col-span-2">
                <legend className="text-sm font-semibold">Pay with</legend>
                <div className="mt-2 space-y-2">
                  {methods.map((method) => (
                    <label key={method.id} className="flex items-center gap-3 text-sm">
                      <input
                        type="radio"
                        name="payWith"
                        value={method.id}
                        onChange={() => setPayWith(String(method.id))}
                        className="h-5 w-5 accent-navy-800"
                      />
                      {method.provider} ending {method.last4Digits}
                    </label>
                  ))}
                  <label className="flex items-center gap-3 text-sm">
                    <input
                      type="radio"
                      name="payWith"
                      value="new"
                      defaultChecked
                      onChange={() => setPayWith('new')}
                      className="h-5 w-5 accent-navy-800"
                    />
                    A new card
                  </label>
                </div>
              </fieldset>
            ) : null}
            <TextField
              {...field}
              name="cardNumber"
              label="Card number"
              inputMode="numeric"
              autoComplete="cc-number"
              maxLength={19}
              required={cardRequired}
              className="sm:col-span-2"
              hint={CARD_MESSAGES.number.replace('Please enter a valid', 'A')}
            />
            <TextField
              {...field}
              name="cardName"
              label="Name on card"
              autoComplete="cc-name"
              maxLength={100}
              required={cardRequired}
            />
            <div className="grid grid-cols-2 gap-3">
              <TextField
                {...field}
                name="expiryDate"
                label="Expiry (MM/YY)"
                inputMode="numeric"
                autoComplete="cc-exp"
                maxLength={5}
                required={cardRequired}
              />
              <TextField
                {...field}
                name="cvv"
                label="CVV"
                inputMode="numeric"
                autoComplete="cc-csc"
                maxLength={3}
                required={cardRequired}
              />
            </div>
            <div className="sm:col-span-2">
              <SubmitButton name="intent" value="join" busyLabel="Joining…">
                Become a Member
              </SubmitButton>
              <p className="mt-2 text-xs text-gray-600">
                The first month is charged now, then the same amount every month until you cancel. A new card is saved
                to your payment methods to pay the renewals (its last 4 digits and expiry only); the card number and CVV
                go to the payment gateway only.
              </p>
            </div>
          </Form>
        </section>
      </div>
    </AccountLayout>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="Become a Member" message="We could not load the membership page. Please try again." />;
}
