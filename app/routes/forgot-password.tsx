import { data, Form, Link } from 'react-router';
import { forgotPasswordBodySchema } from '../../contracts/account.ts';
import { ACCOUNT_LIMITS, ACCOUNT_MESSAGES } from '../../contracts/account-fields.ts';
import { AuthCard } from '../components/account/auth-card.tsx';
import { type FieldErrors, FormMessage, SubmitButton, TextField } from '../components/account/form-field.tsx';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { domainFailureOf, fieldErrorsOf } from '../lib/form-errors.ts';
import { requestContext } from '../lib/request-context.ts';
import { retryAfterHeaders, retryAfterPageHeaders } from '../lib/retry-after.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/forgot-password';

/** A refused try (429) tells the browser when to come back. */
export const headers = retryAfterPageHeaders;

type ActionResult =
  | { status: 'sent'; email: string }
  | { status: 'invalid'; errors: FieldErrors; email: string; message?: string };

/**
 * E-mails a reset link (valid one hour, single use) when an account has that e-mail, and
 * says the same thing either way, so the page does not tell who has an account. 10 per client
 * address per 15 minutes (the accounts service counts them, with the API's): then 429 and the message.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readUrlEncodedForm(request, 4 * 1024);
  const email = form.get('email') ?? '';
  const parsed = forgotPasswordBodySchema.safeParse({ email });
  if (!parsed.success) {
    return data<ActionResult>({ status: 'invalid', errors: fieldErrorsOf(parsed.error), email }, { status: 400 });
  }
  try {
    await context
      .get(shopContext)
      .accounts.requestPasswordReset(parsed.data.email, { address: context.get(requestContext).clientAddress });
  } catch (error) {
    const failure = domainFailureOf(error);
    if (!failure) throw error;
    return data<ActionResult>(
      { status: 'invalid', errors: failure.errors ?? {}, email, message: failure.message },
      { status: failure.status, headers: retryAfterHeaders(error) },
    );
  }
  return data<ActionResult>({ status: 'sent', email: parsed.data.email }, { status: 202 });
}

export default function ForgotPasswordPage({ actionData }: Route.ComponentProps) {
  const result = actionData as ActionResult | undefined;
  return (
    <AuthCard
      title="Forgot Password"
      intro="Enter the e-mail address of your account and we will send you a link to choose a new password."
      footer={
        <Link to="/login" className="font-semibold text-navy-800 underline underline-offset-2">
          Back to Login
        </Link>
      }
    >
      {result?.status === 'sent' ? (
        <FormMessage tone="success">
          {ACCOUNT_MESSAGES.forgotPasswordSent} The link works for one hour. Check your spam folder if it does not
          arrive.
        </FormMessage>
      ) : (
        <Form method="post" noValidate className="space-y-5">
          {result?.status === 'invalid' && result.message ? (
            <FormMessage tone="error">{result.message}</FormMessage>
          ) : null}
          <TextField
            form="forgot"
            name="email"
            label="Email"
            type="email"
            inputMode="email"
            autoComplete="email"
            maxLength={ACCOUNT_LIMITS.email}
            defaultValue={result?.email}
            errors={result?.status === 'invalid' ? result.errors : undefined}
            required
          />
          <SubmitButton busyLabel="Sending…" className="w-full">
            Send Reset Link
          </SubmitButton>
        </Form>
      )}
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="Forgot Password" message="We could not send the reset link. Please try again." />;
}
