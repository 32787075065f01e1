import type { RouterContextProvider } from 'react-router';
import { requestContext } from './request-context.ts';

/**
 * Loads one part of a page that can fail on its own (a category's products, the brand list):
 * its value, or null when the load failed, so the rest of the page still renders and that part
 * shows its spec §8 text with a way to try again. The error is still logged, as React Router
 * logs a failed loader, and the page is marked as drawn with a failure, so the page cache does
 * not keep it. A function rather than a promise, so a synchronous throw is caught too.
 */
export async function loadSection<T>(
  context: Readonly<RouterContextProvider>,
  load: () => Promise<T>,
): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    console.error(error);
    context.get(requestContext).partFailed();
    return null;
  }
}

/**
 * A streamed part of a page (a promise the loader returns unawaited) that logs its failure and
 * still rejects, so `<Await errorElement>` shows the spec's text: React Router logs a loader that
 * throws, not a streamed promise that rejects later, and such an outage would leave no trace.
 * Like `loadSection`, it marks the page as not to be kept.
 */
export function logRejection<T>(context: Readonly<RouterContextProvider>, streamed: Promise<T>): Promise<T> {
  return streamed.catch((error: unknown) => {
    console.error(error);
    context.get(requestContext).partFailed();
    throw error;
  });
}
