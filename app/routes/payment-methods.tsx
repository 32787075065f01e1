import { Form, Link } from 'react-router';
import { type PaymentMethod, paymentMethodInputSchema } from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES, expiryYears, PAYMENT_PROVIDERS, PAYMENT_TYPES } from '../../contracts/account-fields.ts';
import { AccountLayout } from '../components/account/account-layout.tsx';
import { FormMessage, SelectField, SubmitButton, TextField } from '../components/account/form-field.tsx';
import { RecordCard, RecordCards } from '../components/account/record-cards.tsx';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { formValues } from '../lib/form-errors.ts';
import { pageUrl } from '../lib/page-url.ts';
import { handleRecordAction, type RecordActionResult } from '../lib/record-actions.server.ts';
import { requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/payment-methods';

const FIELDS = ['paymentType', 'provider', 'last4Digits', 'expiryMonth', 'expiryYear'] as const;
const MONTHS = Array.from({ length: 12 }, (_, index) => String(index + 1).padStart(2, '0'));

const NOTICES: Record<string, string> = {
  saved: 'Payment method saved.',
  deleted: 'Payment method deleted.',
  default: 'Default payment method updated.',
};

/**
 * Saved payment methods (spec §2, guarded): provider, type, last four digits and expiry
 * only. `?edit=new|<id>` opens the form. `{ methods, editing, notice, years }`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  const methods = await context.get(shopContext).paymentMethods.list(viewer.user.id);
  const url = pageUrl(request);
  const edit = url.searchParams.get('edit');
  const editing = edit === 'new' ? 'new' : (methods.find((method) => String(method.id) === edit)?.id ?? null);
  return { methods, editing, notice: NOTICES[url.searchParams.get('notice') ?? ''] ?? null, years: expiryYears() };
}

/** Save, delete or set default with the API's schema (which refuses card numbers and CVVs outright). */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(request, context);
  const form = await readUrlEncodedForm(request, 8 * 1024);
  return handleRecordAction({
    form,
    userId: viewer.user.id,
    path: '/payment-methods',
    service: context.get(shopContext).paymentMethods,
    schema: paymentMethodInputSchema,
    inputOf: (posted) => {
      const values = formValues(posted, FIELDS);
      return { input: { ...values, isDefault: posted.get('isDefault') === 'on' }, values };
    },
    failures: {
      save: 'Failed to save payment method',
      delete: 'Failed to delete payment method',
      setDefault: 'Failed to set default payment method',
    },
  });
}

function PaymentMethodForm({
  method,
  result,
  years,
}: {
  method: PaymentMethod | null;
  result: RecordActionResult | undefined;
  years: number[];
}) {
  const values = result?.values;
  const field = { form: 'payment', errors: result?.errors } as const;
  const value = (name: (typeof FIELDS)[number]) => values?.[name] ?? (method ? String(method[name]) : undefined);
  return (
    <section
      aria-labelledby="payment-form-heading"
      className="mb-6 rounded-lg border border-navy-700 bg-white p-5 sm:p-6"
    >
      <h2 id="payment-form-heading" className="font-display text-2xl font-bold uppercase">
        {method ? 'Edit Payment Method' : 'Add Payment Method'}
      </h2>
      <p className="mt-1 text-sm text-gray-700">
        We keep only the card’s provider, type, last four digits and expiry — never the card number or security code.
      </p>
      <Form method="post" noValidate preventScrollReset className="mt-4 grid gap-5 sm:grid-cols-2">
        {method ? <input type="hidden" name="id" value={method.id} /> : null}
        <SelectField
          {...field}
          name="paymentType"
          label="Payment type"
          options={PAYMENT_TYPES.map((type) => ({ value: type, label: type }))}
          defaultValue={value('paymentType') ?? 'Credit Card'}
          required
        />
        <SelectField
          {...field}
          name="provider"
          label="Provider"
          options={PAYMENT_PROVIDERS.map((provider) => ({ value: provider, label: provider }))}
          defaultValue={value('provider') ?? 'Visa'}
          required
        />
        <TextField
          {...field}
          name="last4Digits"
          label="Last 4 digits"
          inputMode="numeric"
          autoComplete="off"
          maxLength={4}
          defaultValue={value('last4Digits')}
          required
        />
        <div className="grid grid-cols-2 gap-3">
          <SelectField
            {...field}
            name="expiryMonth"
            label="Expiry month"
            options={[{ value: '', label: 'Month' }, ...MONTHS.map((month) => ({ value: month, label: month }))]}
            defaultValue={value('expiryMonth')}
            required
          />
          <SelectField
            {...field}
            name="expiryYear"
            label="Expiry year"
            options={[
              { value: '', label: 'Year' },
              ...years.map((year) => ({ value: String(year), label: String(year) })),
            ]}
            defaultValue={value('expiryYear')}
            required
          />
        </div>
        {method?.isDefault ? null : (
          <label className="flex items-center gap-3 text-sm font-semibold sm:col-span-2">
            <input type="checkbox" name="isDefault" className="h-5 w-5 accent-navy-800" />
            Make this my default payment method
          </label>
        )}
        <div className="flex flex-wrap gap-3 sm:col-span-2">
          <SubmitButton name="intent" value="save" busyLabel="Saving…">
            Save Payment Method
          </SubmitButton>
          <Link
            to="/payment-methods"
            preventScrollReset
            className="rounded border border-navy-800 px-6 py-3 font-semibold text-navy-800 hover:bg-navy-100"
          >
            Cancel
          </Link>
        </div>
      </Form>
    </section>
  );
}

export default function PaymentMethodsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { methods, notice, years } = loaderData;
  const result = actionData as RecordActionResult | undefined;
  const editingId = result?.editing ?? (loaderData.editing === null ? null : String(loaderData.editing));
  const editing = editingId === 'new' ? null : (methods.find((method) => String(method.id) === editingId) ?? null);
  return (
    <AccountLayout
      title="Payment Methods"
      intro="Cards you can pay with at checkout."
      actions={
        editingId === 'new' ? null : (
          <Link
            to="?edit=new"
            preventScrollReset
            className="rounded bg-accent px-5 py-2.5 font-semibold text-ink hover:bg-accent-dark"
          >
            Add Payment Method
          </Link>
        )
      }
    >
      <div className="space-y-4">
        {notice && !result ? <FormMessage tone="success">{notice}</FormMessage> : null}
        {result ? <FormMessage tone="error">{result.message}</FormMessage> : null}
        {editingId !== null ? (
          <PaymentMethodForm key={editingId} method={editing} result={result} years={years} />
        ) : null}
        <RecordCards
          count={methods.length}
          empty="No payment methods saved"
          addHref="?edit=new"
          addLabel="Add Payment Method"
        >
          {methods.map((method) => (
            <RecordCard
              key={method.id}
              id={method.id}
              isDefault={method.isDefault}
              label={`${method.provider} ending ${method.last4Digits}`}
              editHref={`?edit=${method.id}`}
              deleteConfirm={ACCOUNT_MESSAGES.deletePaymentMethodConfirm}
            >
              <p className="font-display text-xl font-bold uppercase">{method.provider}</p>
              <p className="tabular mt-1 text-base font-semibold tracking-widest">
                <span aria-hidden="true">•••• </span>
                <span className="sr-only">ending in </span>
                {method.last4Digits}
              </p>
              <p className="mt-1 text-gray-700">{`Expires ${method.expiryMonth}/${method.expiryYear}`}</p>
              <p className="text-gray-700">{method.paymentType}</p>
            </RecordCard>
          ))}
        </RecordCards>
      </div>
    </AccountLayout>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="Payment Methods" message="Failed to fetch payment methods" />;
}
