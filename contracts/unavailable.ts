/**
 * What the API answers (503, with a Retry-After) while the shop cannot reach its database:
 * the shopper is told to try again, never signed out and never shown internals.
 */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The shop is briefly unavailable. Please try again in a moment.';

/** Seconds a client is asked to wait before trying again (the Retry-After header). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
