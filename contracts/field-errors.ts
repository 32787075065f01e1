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
