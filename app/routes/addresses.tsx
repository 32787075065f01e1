import { Form, Link } from 'react-router';
import { type Address, addressInputSchema } from '../../contracts/account.ts';
import { ACCOUNT_LIMITS, ACCOUNT_MESSAGES, ADDRESS_TYPES, COUNTRIES } from '../../contracts/account-fields.ts';
import { AccountLayout } from '../components/account/account-layout.tsx';
import { FormMessage, SelectField, SubmitButton, TextField } from '../components/account/form-field.tsx';
import { RecordCard, RecordCards } from '../components/account/record-cards.tsx';
import { RegionFields } from '../components/account/region-fields.tsx';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { formValues } from '../lib/form-errors.ts';
import { pageUrl } from '../lib/page-url.ts';
import { handleRecordAction, type RecordActionResult } from '../lib/record-actions.server.ts';
import { requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/addresses';

const FIELDS = [
  'addressType',
  'fullName',
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'postalCode',
  'country',
  'phoneNumber',
] as const;

const NOTICES: Record<string, string> = {
  saved: 'Address saved.',
  deleted: 'Address deleted.',
  default: 'Default address updated.',
};

/**
 * The shopper's addresses (spec §2, guarded). `?edit=new` opens the form for a new one,
 * `?edit=<id>` for one of theirs; `?notice=` says what the last change did.
 * `{ addresses, editing, notice, defaultCountry, defaultName }`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  const { addresses, shop } = context.get(shopContext);
  const list = await addresses.list(viewer.user.id);
  const url = pageUrl(request);
  const edit = url.searchParams.get('edit');
  const editing = edit === 'new' ? 'new' : (list.find((address) => String(address.id) === edit)?.id ?? null);
  return {
    addresses: list,
    editing,
    notice: NOTICES[url.searchParams.get('notice') ?? ''] ?? null,
    defaultCountry: (COUNTRIES as readonly string[]).includes(shop.address.country)
      ? shop.address.country
      : COUNTRIES[0],
    defaultName: viewer.user.name,
  };
}

/** Save (add or change), delete or set default, with the API's schema and the §8 failure texts. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(request, context);
  const form = await readUrlEncodedForm(request, 16 * 1024);
  return handleRecordAction({
    form,
    userId: viewer.user.id,
    path: '/addresses',
    service: context.get(shopContext).addresses,
    schema: addressInputSchema,
    inputOf: (posted) => {
      const values = formValues(posted, FIELDS);
      return { input: { ...values, isDefault: posted.get('isDefault') === 'on' }, values };
    },
    failures: {
      save: 'Failed to save address',
      delete: 'Failed to delete address',
      setDefault: 'Failed to set default address',
    },
  });
}

function AddressForm({
  address,
  result,
  defaultCountry,
  defaultName,
}: {
  address: Address | null;
  result: RecordActionResult | undefined;
  defaultCountry: string;
  defaultName: string;
}) {
  const values = result?.values;
  const errors = result?.errors;
  const field = { form: 'address', errors } as const;
  const value = (name: (typeof FIELDS)[number]) => values?.[name] ?? address?.[name] ?? undefined;
  return (
    <section
      aria-labelledby="address-form-heading"
      className="mb-6 rounded-lg border border-navy-700 bg-white p-5 sm:p-6"
    >
      <h2 id="address-form-heading" className="font-display text-2xl font-bold uppercase">
        {address ? 'Edit Address' : 'Add New Address'}
      </h2>
      <Form method="post" noValidate preventScrollReset className="mt-4 grid gap-5 sm:grid-cols-2">
        {address ? <input type="hidden" name="id" value={address.id} /> : null}
        <SelectField
          {...field}
          name="addressType"
          label="Address type"
          options={ADDRESS_TYPES.map((type) => ({ value: type, label: type }))}
          defaultValue={value('addressType') ?? 'Home'}
          required
        />
        <TextField
          {...field}
          name="fullName"
          label="Full name"
          autoComplete="name"
          maxLength={ACCOUNT_LIMITS.name}
          defaultValue={value('fullName') ?? defaultName}
          required
        />
        <TextField
          {...field}
          name="addressLine1"
          label="Address line 1"
          autoComplete="address-line1"
          maxLength={ACCOUNT_LIMITS.addressLine}
          defaultValue={value('addressLine1')}
          required
          className="sm:col-span-2"
        />
        <TextField
          {...field}
          name="addressLine2"
          label="Address line 2"
          autoComplete="address-line2"
          maxLength={ACCOUNT_LIMITS.addressLine}
          defaultValue={value('addressLine2')}
          className="sm:col-span-2"
        />
        <TextField
          {...field}
          name="city"
          label="City / suburb"
          autoComplete="address-level2"
          maxLength={ACCOUNT_LIMITS.city}
          defaultValue={value('city')}
          required
        />
        <RegionFields
          {...field}
          values={{ state: value('state'), postalCode: value('postalCode'), country: value('country') }}
          defaultCountry={defaultCountry}
        />
        <TextField
          {...field}
          name="phoneNumber"
          label="Phone number"
          type="tel"
          autoComplete="tel"
          maxLength={ACCOUNT_LIMITS.phone}
          defaultValue={value('phoneNumber')}
        />
        {address?.isDefault ? null : (
          <label className="flex items-center gap-3 self-end pb-3 text-sm font-semibold">
            <input type="checkbox" name="isDefault" className="h-5 w-5 accent-navy-800" />
            Make this my default address
          </label>
        )}
        <div className="flex flex-wrap gap-3 sm:col-span-2">
          <SubmitButton name="intent" value="save" busyLabel="Saving…">
            Save Address
          </SubmitButton>
          <Link
            to="/addresses"
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

export default function AddressesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { addresses, notice, defaultCountry, defaultName } = loaderData;
  const result = actionData as RecordActionResult | undefined;
  const editingId = result?.editing ?? (loaderData.editing === null ? null : String(loaderData.editing));
  const editing = editingId === 'new' ? null : (addresses.find((address) => String(address.id) === editingId) ?? null);
  return (
    <AccountLayout
      title="Addresses"
      intro="Where we deliver your orders. The default address is filled in at checkout."
      actions={
        editingId === 'new' ? null : (
          <Link
            to="?edit=new"
            preventScrollReset
            className="rounded bg-accent px-5 py-2.5 font-semibold text-ink hover:bg-accent-dark"
          >
            Add New Address
          </Link>
        )
      }
    >
      <div className="space-y-4">
        {notice && !result ? <FormMessage tone="success">{notice}</FormMessage> : null}
        {result ? <FormMessage tone="error">{result.message}</FormMessage> : null}
        {editingId !== null ? (
          <AddressForm
            key={editingId}
            address={editing}
            result={result}
            defaultCountry={defaultCountry}
            defaultName={defaultName}
          />
        ) : null}
        <RecordCards count={addresses.length} empty="No addresses saved" addHref="?edit=new" addLabel="Add New Address">
          {addresses.map((address) => (
            <RecordCard
              key={address.id}
              id={address.id}
              isDefault={address.isDefault}
              label={`${address.addressType} address ${address.addressLine1}`}
              editHref={`?edit=${address.id}`}
              deleteConfirm={ACCOUNT_MESSAGES.deleteAddressConfirm}
            >
              <p className="text-xs font-bold uppercase tracking-wide text-gray-600">{address.addressType}</p>
              <address className="mt-1 not-italic">
                <strong className="text-ink">{address.fullName}</strong>
                <br />
                {address.addressLine1}
                {address.addressLine2 ? (
                  <>
                    <br />
                    {address.addressLine2}
                  </>
                ) : null}
                <br />
                {`${address.city} ${address.state} ${address.postalCode}`}
                <br />
                {address.country}
                {address.phoneNumber ? (
                  <>
                    <br />
                    {address.phoneNumber}
                  </>
                ) : null}
              </address>
            </RecordCard>
          ))}
        </RecordCards>
      </div>
    </AccountLayout>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="Addresses" message="Failed to fetch addresses" />;
}
