import { useEffect, useRef } from 'react';
import { useNavigation } from 'react-router';

export type FieldErrors = Partial<Record<string, string[]>>;

const INPUT_CLASS = 'mt-1 block w-full rounded border px-3 py-2.5 text-base shadow-sm focus:border-navy-700';

export function inputClass(invalid: boolean): string {
  return `${INPUT_CLASS} ${invalid ? 'border-sale bg-red-50/40' : 'border-gray-400'} disabled:bg-gray-100 disabled:text-gray-600`;
}

interface FieldProps {
  /** The form field's name; the input's id is `${form}-${name}`. */
  name: string;
  form: string;
  label: string;
  errors?: FieldErrors | undefined;
  required?: boolean;
  hint?: string;
  className?: string;
}

/** Props that tie an input to its label, hint and error message. */
export function fieldProps({ name, form, errors, required, hint }: FieldProps) {
  const error = errors?.[name]?.[0];
  const describedBy = [hint ? `${form}-${name}-hint` : null, error ? `${form}-${name}-error` : null]
    .filter(Boolean)
    .join(' ');
  return {
    id: `${form}-${name}`,
    name,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
    'aria-required': required ? true : undefined,
    className: inputClass(Boolean(error)),
  };
}

/** Label, the control (children), an optional hint and the field's first error message. */
export function Field({
  name,
  form,
  label,
  errors,
  required = false,
  hint,
  className,
  children,
}: FieldProps & { children: React.ReactNode }) {
  const error = errors?.[name]?.[0];
  return (
    <div className={className}>
      <label htmlFor={`${form}-${name}`} className="block text-sm font-semibold text-ink">
        {label}
        {required ? (
          <span aria-hidden="true" className="text-sale">
            {' '}
            *
          </span>
        ) : (
          <span className="font-normal text-gray-600"> (optional)</span>
        )}
      </label>
      {hint ? (
        <p id={`${form}-${name}-hint`} className="text-xs text-gray-600">
          {hint}
        </p>
      ) : null}
      {children}
      {error ? (
        <p id={`${form}-${name}-error`} className="mt-1 text-sm font-semibold text-sale">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A text input inside a Field. */
export function TextField(
  props: FieldProps & {
    type?: 'text' | 'email' | 'password' | 'tel';
    defaultValue?: string | null | undefined;
    autoComplete?: string;
    maxLength?: number;
    readOnly?: boolean;
    inputMode?: 'email' | 'tel' | 'numeric' | 'text';
  },
) {
  const { type = 'text', defaultValue, autoComplete, maxLength, readOnly, inputMode, ...field } = props;
  return (
    <Field {...field}>
      <input
        {...fieldProps(field)}
        type={type}
        defaultValue={defaultValue ?? ''}
        autoComplete={autoComplete}
        maxLength={maxLength}
        readOnly={readOnly}
        inputMode={inputMode}
        required={field.required}
      />
    </Field>
  );
}

/** A select inside a Field. */
export function SelectField(
  props: FieldProps & {
    options: readonly { value: string; label: string }[];
    defaultValue?: string | null | undefined;
  },
) {
  const { options, defaultValue, ...field } = props;
  return (
    <Field {...field}>
      <select {...fieldProps(field)} defaultValue={defaultValue ?? ''} required={field.required}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

/**
 * A banner above a form: the outcome of the last attempt. Errors take focus so keyboard and
 * screen-reader users land on them; successes are announced politely.
 */
export function FormMessage({ tone, children }: { tone: 'error' | 'success'; children: React.ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (tone === 'error') ref.current?.focus();
  }, [tone]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded border-l-4 p-4 text-sm font-semibold ${
        tone === 'error' ? 'border-sale bg-red-50 text-ink' : 'border-stock-in bg-green-50 text-ink'
      }`}
    >
      {children}
    </div>
  );
}

/** The form's submit button; shows `busyLabel` while this form's submission is on its way. */
export function SubmitButton({
  children,
  busyLabel,
  name,
  value,
  tone = 'primary',
  size = 'md',
  className = '',
}: {
  children: React.ReactNode;
  busyLabel: string;
  name?: string;
  value?: string;
  tone?: 'primary' | 'danger' | 'secondary';
  size?: 'md' | 'sm';
  className?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && (name === undefined || navigation.formData?.get(name) === value);
  const tones = {
    primary: 'bg-accent text-ink hover:bg-accent-dark',
    danger: 'bg-sale text-white hover:bg-red-800',
    secondary: 'border border-navy-800 text-navy-800 hover:bg-navy-100',
  };
  return (
    <button
      type="submit"
      name={name}
      value={value}
      disabled={busy}
      className={`rounded font-semibold disabled:cursor-wait disabled:opacity-70 ${size === 'sm' ? 'px-3 py-1.5 text-sm' : 'px-6 py-3'} ${tones[tone]} ${className}`}
    >
      {busy ? busyLabel : children}
    </button>
  );
}
