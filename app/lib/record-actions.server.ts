import { data, redirect } from 'react-router';
import type { z } from 'zod';
import { parseId } from '../../contracts/params.ts';
import type { FieldErrors } from '../components/account/form-field.tsx';
import { domainFailureOf, fieldErrorsOf } from './form-errors.ts';

export interface RecordService<Input> {
  create(userId: number, input: Input): Promise<unknown>;
  update(userId: number, id: number, input: Input): Promise<unknown>;
  remove(userId: number, id: number): Promise<void>;
  setDefault(userId: number, id: number): Promise<unknown>;
}

export type RecordActionResult = {
  intent: string;
  message: string;
  errors: FieldErrors;
  values?: Record<string, string>;
  /** The record being edited ('new' for a new one), so the form stays open with what was typed. */
  editing?: string;
};

/**
 * The form posts of the address and payment-method pages (intent save | delete |
 * set-default), validated with the API's schema. Success redirects back to the list with a
 * notice (so a reload does not post again); failure answers with the spec's §8 text, the
 * field messages and what was typed. Another shopper's id is a 404 like on the API.
 */
export async function handleRecordAction<Input>(options: {
  form: URLSearchParams;
  userId: number;
  path: string;
  service: RecordService<Input>;
  schema: z.ZodType<Input>;
  /** The schema's input built from the form's fields. */
  inputOf: (form: URLSearchParams) => { input: Record<string, unknown>; values: Record<string, string> };
  failures: { save: string; delete: string; setDefault: string };
}): Promise<Response | ReturnType<typeof data<RecordActionResult>>> {
  const { form, userId, path, service, failures } = options;
  const intent = form.get('intent') ?? '';
  const id = parseId(form.get('id')) ?? undefined;

  const failed = (error: unknown, message: string, extra: Partial<RecordActionResult> = {}) => {
    const failure = domainFailureOf(error);
    if (failure?.status === 404) throw data(failure.message, { status: 404 });
    if (!failure) console.error(message, error);
    return data<RecordActionResult>(
      { intent, message, errors: failure?.errors ?? {}, ...extra },
      { status: failure?.status ?? 500 },
    );
  };

  if (intent === 'save') {
    const { input, values } = options.inputOf(form);
    const editing = id === undefined ? 'new' : String(id);
    const parsed = options.schema.safeParse(input);
    if (!parsed.success) {
      return data<RecordActionResult>(
        { intent, message: failures.save, errors: fieldErrorsOf(parsed.error), values, editing },
        { status: 400 },
      );
    }
    try {
      if (id === undefined) await service.create(userId, parsed.data);
      else await service.update(userId, id, parsed.data);
    } catch (error) {
      return failed(error, failures.save, { values, editing });
    }
    return redirect(`${path}?notice=saved`);
  }
  if (id === undefined) throw data('Unknown record', { status: 400 });
  if (intent === 'delete') {
    try {
      await service.remove(userId, id);
    } catch (error) {
      return failed(error, failures.delete);
    }
    return redirect(`${path}?notice=deleted`);
  }
  if (intent === 'set-default') {
    try {
      await service.setDefault(userId, id);
    } catch (error) {
      return failed(error, failures.setDefault);
    }
    return redirect(`${path}?notice=default`);
  }
  throw data('Unknown action', { status: 400 });
}
