import { data, Form, Link } from 'react-router';
import { resetPasswordBodySchema } from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES, PASSWORD_MIN_LENGTH } from '../../contracts/account-fields.ts';
import { AuthCard } from '../components/account/auth-card.tsx';
import { type FieldErrors, FormMessage, SubmitButton, TextField } from '../components/account/form-field.tsx';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { domainFailureOf, fieldErrorsOf } from '../lib/form-errors.ts';
import { pageUrl } from '../lib/page-url.ts';
import { requestContext } from '../lib/request-context.ts';
import { retryAfterHeaders, retryAfterPageHeaders } from '../lib/retry-after.ts';
import { redirectSignedOut } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/reset-password';

/** A refused try (429) tells the browser when to come back. */
export const headers = retryAfterPageHeaders;

/** `/reset-password?token=…` from the e-mailed link. `{ token }` (empty when the link has none). */
export function loader({ request }: Route.LoaderArgs) {
  return { token: pageUrl(request).searchParams.get('token') ?? '' };
}

type ActionResult = { message: string; errors: FieldErrors };

/**
 * Sets the new password (same rules as registration), ends every session of the account,
 * and sends the shopper to sign in with it. 10 tries per client address per 15 minutes, counted
 * by the accounts service with the API's.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readUrlEncodedForm(request, 4 * 1024);
  const token = form.get('token') ?? '';
  const newPassword = form.get('newPassword') ?? '';
  const parsed = resetPasswordBodySchema.safeParse({ token, newPassword });
  const errors: FieldErrors = parsed.success ? {} : fieldErrorsOf(parsed.error);
  if (newPassword !== (form.get('confirmPassword') ?? '')) errors.confirmPassword = ['Passwords do not match'];
  if (!parsed.success || errors.confirmPassword) {
    return data<ActionResult>(
      { message: errors.token?.[0] ?? 'Please check the highlighted fields.', errors },
      { status: 400 },
    );
  }
  try {
    await context.get(shopContext).accounts.resetPassword(parsed.data.token, parsed.data.newPassword, {
      address: context.get(requestContext).clientAddress,
    });
  } catch (error) {
    const failure = domainFailureOf(error);
    if (!failure) throw error;
    return data<ActionResult>(
      { message: failure.message, errors: failure.errors ?? {} },
      { status: failure.status, headers: retryAfterHeaders(error) },
    );
  }
  return redirectSignedOut(context, '/login?notice=reset');
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as ActionResult | undefined;
  if (!loaderData.token) {
    return (
      <AuthCard title="Reset Password">
        <FormMessage tone="error">{ACCOUNT_MESSAGES.resetLinkInvalid}</FormMessage>
        <Link
          to="/forgot-password"
          className="mt-5 inline-block rounded bg-accent px-6 py-3 font-semibold text-ink hover:bg-accent-dark"
        >
          Request a new link
        </Link>
      </AuthCard>
    );
  }
  const linkDead = result?.errors.token !== undefined;
  return (
    <AuthCard
      title="Reset Password"
      intro="Choose a new password for your account. Every device signed in to it will be signed out."
    >
      {result ? <FormMessage tone="error">{result.message}</FormMessage> : null}
      {linkDead ? (
        <Link
          to="/forgot-password"
          className="mt-5 inline-block rounded bg-accent px-6 py-3 font-semibold text-ink hover:bg-accent-dark"
        >
          Request a new link
        </Link>
      ) : (
        <Form method="post" noValidate className="mt-4 space-y-5">
          <input type="hidden" name="token" value={loaderData.token} />
          <TextField
            form="reset"
            name="newPassword"
            label="New password"
            type="password"
            autoComplete="new-password"
            hint={`At least ${PASSWORD_MIN_LENGTH} characters; avoid common passwords`}
            errors={result?.errors}
            required
          />
          <TextField
            form="reset"
            name="confirmPassword"
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            errors={result?.errors}
            required
          />
          <SubmitButton busyLabel="Saving…" className="w-full">
            Reset Password
          </SubmitButton>
        </Form>
      )}
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="Reset Password" message="We could not reset your password. Please try again." />;
}
