/**
 * Whether a domain call failed with the domain's NotFoundError. Checked by shape, not
 * `instanceof`: the built storefront bundles its own copy of server/domain/errors.ts, while
 * the services handed to loaders throw the server's copy, so `instanceof` would never match.
 */
export function isNotFoundError(error: unknown): boolean {
  return error instanceof Error && (error as { statusCode?: unknown }).statusCode === 404;
}

/** `.catch(nullIfNotFound)`: a missing record becomes null (→ a 404 page); any other failure still throws. */
export function nullIfNotFound(error: unknown): null {
  if (isNotFoundError(error)) return null;
  throw error;
}
