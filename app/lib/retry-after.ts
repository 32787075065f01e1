/**
 * `Retry-After` for a page action's answer when the domain refused with 429 (RateLimitedError
 * carries the seconds), read by shape: the built storefront has its own copy of the error classes.
 */
export function retryAfterHeaders(error: unknown): Record<string, string> | undefined {
  const seconds = (error as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
  return typeof seconds === 'number' && seconds > 0 ? { 'Retry-After': String(Math.ceil(seconds)) } : undefined;
}

/**
 * A route's `headers` export that passes an action's `Retry-After` on to the page's response
 * (React Router keeps action headers only when the route says so), keeping the parents'.
 */
export function retryAfterPageHeaders({
  actionHeaders,
  parentHeaders,
}: {
  actionHeaders: Headers;
  parentHeaders: Headers;
}): Headers {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get('Retry-After');
  if (retryAfter) headers.set('Retry-After', retryAfter);
  return headers;
}
