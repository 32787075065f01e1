import { data, Form, Link, redirect } from 'react-router';
import { profileUpdateSchema, registerBodySchema, registerFormSchema } from '../../contracts/account.ts';
import { ACCOUNT_LIMITS, COUNTRIES, PASSWORD_MIN_LENGTH } from '../../contracts/account-fields.ts';
import { AuthCard } from '../components/account/auth-card.tsx';
import { type FieldErrors, FormMessage, SubmitButton, TextField } from '../components/account/form-field.tsx';
import { RegionFields } from '../components/account/region-fields.tsx';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { domainFailureOf, fieldErrorsOf, formValues } from '../lib/form-errors.ts';
import { pageUrl } from '../lib/page-url.ts';
import { requestContext } from '../lib/request-context.ts';
import { retryAfterHeaders, retryAfterPageHeaders } from '../lib/retry-after.ts';
import { getViewer, redirectSignedIn, returnTarget } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/register';

/** A refused try (429) tells the browser when to come back. */
export const headers = retryAfterPageHeaders;

const FORM_MAX_BYTES = 16 * 1024;

const FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phoneNumber',
  'password',
  'confirmPassword',
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'postalCode',
  'country',
  'acceptTerms',
  'redirectTo',
] as const;
type Values = Record<(typeof FIELDS)[number], string>;

/** The registration form; a signed-in visitor goes on to `redirectTo`. `{ redirectTo, defaultCountry }`. */
export function loader({ request, context }: Route.LoaderArgs) {
  const redirectTo = returnTarget(pageUrl(request).searchParams.get('redirectTo'), '/profile');
  if (getViewer(context)) throw redirect(redirectTo);
  const country = context.get(shopContext).shop.address.country;
  return { redirectTo, defaultCountry: (COUNTRIES as readonly string[]).includes(country) ? country : COUNTRIES[0] };
}

type ActionResult = { message: string; errors: FieldErrors; values: Omit<Values, 'password' | 'confirmPassword'> };

/**
 * Creates the account with the same schema and rules as `POST /api/auth/register` (plus
 * the confirmation and the terms box of spec §5); the address becomes the default address.
 * Signs the shopper in and sends them on. Passwords are never sent back to the form.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readUrlEncodedForm(request, FORM_MAX_BYTES);
  const values = formValues(form, FIELDS);
  const { password: _password, confirmPassword: _confirm, ...keep } = values;
  const fail = (message: string, errors: FieldErrors, status: number, headers?: Record<string, string>) =>
    data<ActionResult>({ message, errors, values: keep }, { status, headers });

  const body = {
    firstName: values.firstName,
    lastName: values.lastName,
    email: values.email,
    password: values.password,
    phoneNumber: values.phoneNumber,
    address: {
      addressLine1: values.addressLine1,
      addressLine2: values.addressLine2,
      city: values.city,
      state: values.state,
      postalCode: values.postalCode,
      country: values.country,
    },
  };
  const parsed = registerBodySchema.safeParse(body);
  const extra = registerFormSchema.safeParse({ ...values, acceptTerms: form.get('acceptTerms') ?? undefined });
  if (!parsed.success || !extra.success) {
    const errors: FieldErrors = {
      ...(extra.success ? {} : fieldErrorsOf(extra.error)),
      ...(parsed.success ? {} : fieldErrorsOf(parsed.error)),
    };
    // The schemas check the confirmation and the phone number only once their other fields
    // pass, so both are repeated here: every message shows after the first submit.
    if (values.password !== values.confirmPassword) errors.confirmPassword ??= ['Passwords do not match'];
    if (!errors.phoneNumber) {
      const phone = profileUpdateSchema.shape.phoneNumber.safeParse(values.phoneNumber);
      if (!values.phoneNumber.trim()) errors.phoneNumber = ['Phone number is required'];
      else if (!phone.success) errors.phoneNumber = phone.error.issues.map((issue) => issue.message);
    }
    return fail('Please check the highlighted fields.', errors, 400);
  }
  try {
    const signedIn = await context.get(shopContext).accounts.register(parsed.data, {
      userAgent: request.headers.get('user-agent') ?? undefined,
      address: context.get(requestContext).clientAddress,
    });
    return redirectSignedIn(context, signedIn, returnTarget(values.redirectTo));
  } catch (error) {
    const failure = domainFailureOf(error);
    if (!failure) console.error('Registration failed', error);
    return fail(
      failure?.message ?? 'Registration failed',
      failure?.errors ?? {},
      failure?.status ?? 500,
      retryAfterHeaders(error),
    );
  }
}

export default function RegisterPage({ loaderData, actionData }: Route.ComponentProps) {
  const { redirectTo, defaultCountry } = loaderData;
  const result = actionData as ActionResult | undefined;
  const values = result?.values;
  const errors = result?.errors;
  const field = { form: 'register', errors } as const;
  return (
    <AuthCard
      title="Register"
      wide
      intro="Create your account: check out faster, follow your orders and keep a wishlist."
      footer={
        <>
          Already have an account?{' '}
          <Link
            to={redirectTo === '/profile' ? '/login' : `/login?redirectTo=${encodeURIComponent(redirectTo)}`}
            className="font-semibold text-navy-800 underline underline-offset-2"
          >
            Login
          </Link>
        </>
      }
    >
      {result ? <FormMessage tone="error">{result.message}</FormMessage> : null}
      <Form method="post" noValidate className="mt-4 grid gap-5 sm:grid-cols-2">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField
          {...field}
          name="firstName"
          label="First name"
          autoComplete="given-name"
          maxLength={ACCOUNT_LIMITS.name}
          defaultValue={values?.firstName}
          required
        />
        <TextField
          {...field}
          name="lastName"
          label="Last name"
          autoComplete="family-name"
          maxLength={ACCOUNT_LIMITS.name}
          defaultValue={values?.lastName}
          required
        />
        <TextField
          {...field}
          name="email"
          label="Email"
          type="email"
          inputMode="email"
          autoComplete="email"
          maxLength={ACCOUNT_LIMITS.email}
          defaultValue={values?.email}
          required
        />
        <TextField
          {...field}
          name="phoneNumber"
          label="Phone number"
          type="tel"
          autoComplete="tel"
          maxLength={ACCOUNT_LIMITS.phone}
          defaultValue={values?.phoneNumber}
          required
        />
        <TextField
          {...field}
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters; avoid common passwords`}
          required
        />
        <TextField
          {...field}
          name="confirmPassword"
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          required
        />
        <fieldset className="grid gap-5 sm:col-span-2 sm:grid-cols-2">
          <legend className="mb-1 font-display text-xl font-bold uppercase">Address</legend>
          <TextField
            {...field}
            name="addressLine1"
            label="Address"
            autoComplete="address-line1"
            maxLength={ACCOUNT_LIMITS.addressLine}
            defaultValue={values?.addressLine1}
            required
            className="sm:col-span-2"
          />
          <TextField
            {...field}
            name="addressLine2"
            label="Address line 2"
            autoComplete="address-line2"
            maxLength={ACCOUNT_LIMITS.addressLine}
            defaultValue={values?.addressLine2}
            className="sm:col-span-2"
          />
          <TextField
            {...field}
            name="city"
            label="City / suburb"
            autoComplete="address-level2"
            maxLength={ACCOUNT_LIMITS.city}
            defaultValue={values?.city}
            required
          />
          <RegionFields
            {...field}
            values={{ state: values?.state, postalCode: values?.postalCode, country: values?.country }}
            defaultCountry={defaultCountry}
          />
        </fieldset>
        <div className="sm:col-span-2">
          <label className="flex items-start gap-3 text-sm">
            <input
              type="checkbox"
              name="acceptTerms"
              id="register-acceptTerms"
              defaultChecked={values?.acceptTerms === 'on'}
              aria-invalid={errors?.acceptTerms ? true : undefined}
              aria-describedby={errors?.acceptTerms ? 'register-acceptTerms-error' : undefined}
              className="mt-0.5 h-5 w-5 shrink-0 accent-navy-800"
            />
            <span>
              I accept the terms and conditions of sale and agree to my details being kept to process my orders.
            </span>
          </label>
          {errors?.acceptTerms ? (
            <p id="register-acceptTerms-error" className="mt-1 text-sm font-semibold text-sale">
              {errors.acceptTerms[0]}
            </p>
          ) : null}
        </div>
        <div className="sm:col-span-2">
          <SubmitButton busyLabel="Creating your account…" className="w-full sm:w-auto">
            Create Account
          </SubmitButton>
        </div>
      </Form>
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="Register" message="Registration failed" />;
}
