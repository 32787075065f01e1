import { type FormEvent, useState } from 'react';
import type { z } from 'zod';
import type { FieldErrors } from '../components/account/form-field.tsx';

const NONE: ReadonlySet<string> = new Set();

/** The names an issue may be filed under: its whole path, its first segment, its last (how the actions key them). */
function namesOf(issue: z.ZodError['issues'][number]): string[] {
  const path = issue.path.map(String);
  if (path.length === 0) return ['form'];
  return [path.join('.'), path[0]!, path.at(-1)!];
}

/**
 * A back-office form's field errors from its action, each hidden once the form's current
 * values pass `schema` (the one the action parses with) for that field, without a submit
 * (issue 27 item 10; the product form keeps its own copy of this rule). None is added while
 * typing, and a hidden one does not come back until the next action result, which starts afresh.
 *
 * Put `onChange` on the form: it reads every named control, so the whole form is checked as the
 * action would check it. `allCorrected` says every field error it came with is gone (the form's
 * banner, which only summed them up, can go too).
 */
export function useCorrectedErrors(
  errors: FieldErrors | undefined,
  schema: z.ZodType,
): {
  errors: FieldErrors | undefined;
  allCorrected: boolean;
  onChange: (event: FormEvent<HTMLFormElement>) => void;
} {
  // Keyed by the result's errors: a new action result (even with the same messages) shows all again.
  const [corrected, setCorrected] = useState<{ of: FieldErrors | undefined; fields: ReadonlySet<string> }>({
    of: errors,
    fields: NONE,
  });
  const hidden = corrected.of === errors ? corrected.fields : NONE;
  const named = Object.keys(errors ?? {}).filter((field) => (errors?.[field]?.length ?? 0) > 0);

  const onChange = (event: FormEvent<HTMLFormElement>) => {
    if (named.length === 0) return;
    const values = Object.fromEntries(new FormData(event.currentTarget));
    const parsed = schema.safeParse(values);
    const failing = new Set(parsed.success ? [] : parsed.error.issues.flatMap(namesOf));
    const passing = named.filter((field) => !hidden.has(field) && !failing.has(field));
    if (passing.length === 0) return;
    setCorrected({ of: errors, fields: new Set([...hidden, ...passing]) });
  };

  const visible = errors && Object.fromEntries(Object.entries(errors).filter(([field]) => !hidden.has(field)));
  return {
    errors: visible,
    allCorrected: named.length > 0 && named.every((field) => hidden.has(field)),
    onChange,
  };
}
