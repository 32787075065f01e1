/**
 * `Retry-After` for a page action's answer when the domain refused with 429 (RateLimitedError
 * carries the seconds), read by shape: the built storefront has its own copy of the error classes.
 */
export function retryAfterHeaders(error: unknown): Record<string, string> | undefined {
  const seconds = (error as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
  return typeof seconds === 'number' && seconds > 0 ? { 'Retry-After': String(Math.ceil(seconds)) } : undefined;
}
