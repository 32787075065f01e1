import type { z } from 'zod';
import { groupMessagesByField, readableFailureMessage } from '../../contracts/field-errors.ts';

/** zod issues → `{ field: [messages] }`, the first path segment naming the field (nested address fields too). */
export function fieldErrorsOf(error: z.ZodError, flattenNested = true): Record<string, string[]> {
  return groupMessagesByField(
    error.issues,
    (issue) => {
      const path = issue.path.map(String);
      return (flattenNested ? path[path.length - 1] : path[0]) ?? 'form';
    },
    (issue) => issue.message,
  );
}

export interface DomainFailure {
  status: number;
  message: string;
  errors?: Record<string, string[]>;
}

/**
 * A domain error (4xx, raised on purpose) read by its shape: the built storefront bundles
 * its own copy of server/domain/errors.ts, so `instanceof` would not match the services' errors.
 * Anything else is not a domain error and should reach the route's error boundary.
 */
export function domainFailureOf(error: unknown): DomainFailure | null {
  if (!(error instanceof Error)) return null;
  const { statusCode, errors } = error as { statusCode?: unknown; errors?: Record<string, string[]> };
  if (typeof statusCode !== 'number' || statusCode < 400 || statusCode >= 500) return null;
  // Every form's banner comes from here: never a field's code name ('Invalid field: newPassword').
  return { status: statusCode, message: readableFailureMessage(error.message, errors), ...(errors ? { errors } : {}) };
}

/** A form post's fields as plain strings (a missing field is ''). */
export function formValues<const Names extends readonly string[]>(
  form: URLSearchParams,
  names: Names,
): Record<Names[number], string> {
  return Object.fromEntries(names.map((name) => [name, form.get(name) ?? ''])) as Record<Names[number], string>;
}
