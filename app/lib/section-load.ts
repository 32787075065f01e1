/**
 * Loads one part of a page that can fail on its own (a category's products, the brand list):
 * its value, or null when the load failed, so the rest of the page still renders and that part
 * shows its spec §8 text with a way to try again. The error is still logged, as React Router
 * logs a failed loader; a function rather than a promise, so a synchronous throw is caught too.
 */
export async function loadSection<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    console.error(error);
    return null;
  }
}

/**
 * A streamed part of a page (a promise the loader returns unawaited) that logs its failure and
 * still rejects, so `<Await errorElement>` shows the spec's text: React Router logs a loader that
 * throws, not a streamed promise that rejects later, and such an outage would leave no trace.
 */
export function logRejection<T>(streamed: Promise<T>): Promise<T> {
  return streamed.catch((error: unknown) => {
    console.error(error);
    throw error;
  });
}
