/**
 * Validation messages grouped by field: `{ field: [messages] }`, the shape every 400 answer and
 * form error list uses. Collected in a Map and made own properties, so a field named
 * "constructor" or "__proto__" is just a field (plain-object grouping once read
 * Object.prototype and answered 500).
 */
export function groupMessagesByField<T>(
  issues: Iterable<T>,
  fieldOf: (issue: T) => string,
  messageOf: (issue: T) => string,
): Record<string, string[]> {
  const byField = new Map<string, string[]>();
  for (const issue of issues) {
    const field = fieldOf(issue);
    byField.set(field, [...(byField.get(field) ?? []), messageOf(issue)]);
  }
  return Object.fromEntries(byField);
}

/**
 * The API's banner for refused input names the fields by their code names ("Invalid field:
 * newPassword", "Invalid query parameter: page"): right for a developer, never for a shopper.
 * Such a banner becomes the fields' own messages (or the form's `fallback`, e.g. its spec §8
 * failure text, when the fields show their messages themselves); any other message is kept.
 */
export function readableFailureMessage(
  message: string,
  errors: Record<string, string[]> | undefined,
  fallback?: string,
): string {
  if (!/^Invalid (?:field|query parameter|path parameter|header|input)s?: /.test(message)) return message;
  if (fallback) return fallback;
  const messages = [...new Set(Object.values(errors ?? {}).flat())];
  return messages.length > 0 ? messages.join(' ') : 'Please check the form and try again.';
}
