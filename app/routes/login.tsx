import { data, Form, Link, redirect } from 'react-router';
import { loginBodySchema } from '../../contracts/account.ts';
import { ACCOUNT_LIMITS } from '../../contracts/account-fields.ts';
import { SECOND_FACTOR_MESSAGES, secondFactorChallengeBodySchema } from '../../contracts/second-factor.ts';
import { clearedSecondFactorCookie, readSecondFactorCookie, secondFactorCookie } from '../../server/session-cookie.ts';
import { AuthCard } from '../components/account/auth-card.tsx';
import { FormMessage, SubmitButton, TextField } from '../components/account/form-field.tsx';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { domainFailureOf, fieldErrorsOf, formValues } from '../lib/form-errors.ts';
import { pageUrl } from '../lib/page-url.ts';
import { requestContext } from '../lib/request-context.ts';
import { retryAfterHeaders, retryAfterPageHeaders } from '../lib/retry-after.ts';
import { getViewer, redirectSignedIn, returnTarget } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/login';

/** A refused try (429) tells the browser when to come back. */
export const headers = retryAfterPageHeaders;

const FORM_MAX_BYTES = 8 * 1024;

const NOTICES: Record<string, string> = {
  reset: 'Your password has been reset. Please sign in with your new password.',
  deleted: 'Your account has been deleted.',
  google: 'Google sign-in did not complete. Please try again or sign in with your e-mail.',
};

/**
 * The sign-in page. A signed-in visitor goes straight on to `redirectTo` (a path on this
 * site only). `{ redirectTo, googleSignIn, notice }`.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const url = pageUrl(request);
  const redirectTo = returnTarget(url.searchParams.get('redirectTo'), '/profile');
  if (getViewer(context)) throw redirect(redirectTo);
  const notice = NOTICES[url.searchParams.get('notice') ?? ''] ?? null;
  return { redirectTo, googleSignIn: context.get(shopContext).shop.googleSignIn, notice };
}

type ActionResult =
  | { step?: 'password'; message: string; errors: Record<string, string[]>; email: string }
  | { step: 'code'; message: string | null; errors: Record<string, string[]> };

/** The second step of a staff sign-in: the code form, with the challenge in its httpOnly cookie. */
async function answerSecondFactor(request: Request, context: Route.ActionArgs['context'], form: URLSearchParams) {
  const { secureCookies, clientAddress } = context.get(requestContext);
  const challenge = readSecondFactorCookie(request.headers.get('cookie'), secureCookies) ?? '';
  const parsed = secondFactorChallengeBodySchema.shape.code.safeParse(form.get('code') ?? '');
  if (!parsed.success) {
    return data<ActionResult>(
      {
        step: 'code',
        message: null,
        errors: { code: [parsed.error.issues[0]?.message ?? SECOND_FACTOR_MESSAGES.codeNeeded] },
      },
      { status: 400 },
    );
  }
  try {
    const signedIn = await context.get(shopContext).accounts.completeSecondFactor(challenge, parsed.data, {
      userAgent: request.headers.get('user-agent') ?? undefined,
      address: clientAddress,
    });
    const response = redirectSignedIn(context, signedIn, returnTarget(form.get('redirectTo')));
    response.headers.append('Set-Cookie', clearedSecondFactorCookie(secureCookies));
    return response;
  } catch (error) {
    const failure = domainFailureOf(error);
    if (!failure) throw error;
    // A spent or timed-out challenge: back to the password, with the reason.
    if (failure.status === 401) {
      return data<ActionResult>(
        { message: failure.message, errors: {}, email: '' },
        { status: 401, headers: { 'Set-Cookie': clearedSecondFactorCookie(secureCookies) } },
      );
    }
    return data<ActionResult>(
      { step: 'code', message: null, errors: { code: [failure.message] } },
      { status: failure.status },
    );
  }
}

/**
 * Checks the e-mail and password with the same rules and limits as `POST /api/auth/login`
 * (same message for an unknown e-mail and a wrong password; 429 with the message when the
 * client address or the account is slowed down), then sets the session cookie and returns
 * the shopper to `redirectTo`.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readUrlEncodedForm(request, FORM_MAX_BYTES);
  if (form.get('intent') === 'code') return answerSecondFactor(request, context, form);
  const values = formValues(form, ['email', 'password', 'redirectTo'] as const);
  const parsed = loginBodySchema.safeParse(values);
  if (!parsed.success) {
    return data<ActionResult>(
      { message: 'Please check the highlighted fields.', errors: fieldErrorsOf(parsed.error), email: values.email },
      { status: 400 },
    );
  }
  try {
    const signedIn = await context.get(shopContext).accounts.login(parsed.data, {
      userAgent: request.headers.get('user-agent') ?? undefined,
      address: context.get(requestContext).clientAddress,
    });
    if ('secondFactorRequired' in signedIn) {
      const { secureCookies } = context.get(requestContext);
      return data<ActionResult>(
        { step: 'code', message: null, errors: {} },
        { headers: { 'Set-Cookie': secondFactorCookie(signedIn.challenge, signedIn.expiresAt, secureCookies) } },
      );
    }
    return redirectSignedIn(context, signedIn, returnTarget(values.redirectTo));
  } catch (error) {
    const failure = domainFailureOf(error);
    if (!failure) console.error('Sign-in failed', error);
    return data<ActionResult>(
      { message: failure?.message ?? 'Login failed', errors: failure?.errors ?? {}, email: values.email },
      { status: failure?.status ?? 500, headers: retryAfterHeaders(error) },
    );
  }
}

export default function LoginPage({ loaderData, actionData }: Route.ComponentProps) {
  const { redirectTo, googleSignIn, notice } = loaderData;
  const result = actionData as ActionResult | undefined;
  if (result?.step === 'code') return <SecondFactorStep redirectTo={redirectTo} errors={result.errors} />;
  const registerHref =
    redirectTo === '/profile' ? '/register' : `/register?redirectTo=${encodeURIComponent(redirectTo)}`;
  return (
    <AuthCard
      title="Login"
      intro="Sign in to check out faster, follow your orders and keep your wishlist."
      footer={
        <>
          Don’t have an account?{' '}
          <Link to={registerHref} className="font-semibold text-navy-800 underline underline-offset-2">
            Register
          </Link>
        </>
      }
    >
      {notice && !result ? <FormMessage tone="success">{notice}</FormMessage> : null}
      {result ? <FormMessage tone="error">{result.message}</FormMessage> : null}
      <Form method="post" noValidate className="mt-4 space-y-5">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField
          form="login"
          name="email"
          label="Email"
          type="email"
          inputMode="email"
          autoComplete="email"
          maxLength={ACCOUNT_LIMITS.email}
          defaultValue={result?.email}
          errors={result?.errors}
          required
        />
        <div>
          <TextField
            form="login"
            name="password"
            label="Password"
            type="password"
            autoComplete="current-password"
            errors={result?.errors}
            required
          />
          <p className="mt-2 text-right text-sm">
            <Link to="/forgot-password" className="font-semibold text-navy-800 underline underline-offset-2">
              Forgot password?
            </Link>
          </p>
        </div>
        <SubmitButton busyLabel="Signing in…" className="w-full">
          Login
        </SubmitButton>
      </Form>
      {googleSignIn ? (
        <>
          <p className="my-5 flex items-center gap-3 text-xs font-semibold uppercase tracking-wider text-gray-600">
            <span className="h-px flex-1 bg-gray-200" /> or <span className="h-px flex-1 bg-gray-200" />
          </p>
          {/* A plain link: the sign-in starts with a redirect to Google, which a form's CSP form-action would block. */}
          <a
            href={`/auth/google?redirectTo=${encodeURIComponent(redirectTo)}`}
            className="flex w-full items-center justify-center gap-3 rounded border border-gray-400 bg-white px-6 py-3 font-semibold text-ink hover:bg-gray-50"
          >
            <svg aria-hidden="true" viewBox="0 0 48 48" className="h-5 w-5">
              <path
                fill="#EA4335"
                d="M24 9.5c3.5 0 6.6 1.2 9 3.5l6.7-6.7C35.6 2.4 30.2 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.8 6C12.4 13.7 17.7 9.5 24 9.5z"
              />
              <path
                fill="#4285F4"
                d="M46.5 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.7c-.6 3-2.3 5.5-4.8 7.2l7.5 5.8c4.4-4 7.1-10 7.1-17.5z"
              />
              <path
                fill="#FBBC05"
                d="M10.5 28.7A14.5 14.5 0 0 1 9.5 24c0-1.6.3-3.2.8-4.7l-7.8-6A24 24 0 0 0 0 24c0 3.9.9 7.5 2.6 10.7l7.9-6z"
              />
              <path
                fill="#34A853"
                d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.5-5.8c-2.1 1.4-4.9 2.3-8.4 2.3-6.3 0-11.6-4.2-13.5-10l-7.9 6C6.6 42.6 14.6 48 24 48z"
              />
            </svg>
            Continue with Google
          </a>
        </>
      ) : null}
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="Login" message="Login failed" />;
}

/** After a right password of a staff account with two-step sign-in on: the authenticator's code. */
function SecondFactorStep({ redirectTo, errors }: { redirectTo: string; errors: Record<string, string[]> }) {
  return (
    <AuthCard
      title="Two-step sign-in"
      intro="Enter the 6-digit code your authenticator app shows for this shop, or one of your recovery codes."
      footer={
        <Link to="/login" className="font-semibold text-navy-800 underline underline-offset-2">
          Start again
        </Link>
      }
    >
      <Form method="post" noValidate className="mt-4 space-y-5">
        <input type="hidden" name="intent" value="code" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField
          form="login-code"
          name="code"
          label="Code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={20}
          errors={errors}
          required
        />
        <SubmitButton busyLabel="Checking…" className="w-full" name="intent" value="code">
          Sign in
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}
