import { useState } from 'react';
import { ACCOUNT_LIMITS, COUNTRIES } from '../../../contracts/account-fields.ts';
import { AU_STATES, australianStateCode } from '../../../contracts/australian-address.ts';
import { Field, type FieldErrors, fieldProps, TextField } from './form-field.tsx';

/**
 * State, postal code and country of an address form (registration, the address book): for an
 * Australian address the State is a select of the eight states and territories and the
 * postcode four digits (issue 22); other countries keep free text. The country is followed in
 * the browser so the State changes with it; the server checks the same rules either way.
 */
export function RegionFields({
  form,
  errors,
  values,
  defaultCountry,
}: {
  form: string;
  errors: FieldErrors | undefined;
  values: { state?: string | null; postalCode?: string | null; country?: string | null };
  defaultCountry: string;
}) {
  const [country, setCountry] = useState(values.country || defaultCountry);
  const australian = country === 'Australia';
  const state = { name: 'state', form, label: 'State', errors, required: true };
  return (
    <>
      {australian ? (
        <Field {...state}>
          <select
            {...fieldProps(state)}
            autoComplete="address-level1"
            defaultValue={australianStateCode(values.state ?? '') ?? ''}
            required
          >
            <option value="">Choose a state or territory…</option>
            {AU_STATES.map((option) => (
              <option key={option.code} value={option.code}>
                {option.name} ({option.code})
              </option>
            ))}
          </select>
        </Field>
      ) : (
        <TextField
          {...state}
          autoComplete="address-level1"
          maxLength={ACCOUNT_LIMITS.state}
          defaultValue={values.state}
        />
      )}
      <TextField
        name="postalCode"
        form={form}
        errors={errors}
        label={australian ? 'Postcode' : 'Postal code'}
        autoComplete="postal-code"
        inputMode={australian ? 'numeric' : 'text'}
        maxLength={australian ? 4 : ACCOUNT_LIMITS.postalCode}
        defaultValue={values.postalCode}
        required
      />
      <Field name="country" form={form} label="Country" errors={errors} required>
        <select
          {...fieldProps({ name: 'country', form, label: 'Country', errors, required: true })}
          autoComplete="country-name"
          value={country}
          onChange={(event) => setCountry(event.target.value)}
          required
        >
          {COUNTRIES.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}
