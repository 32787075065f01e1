/**
 * Whether an error means the database could not be reached (rather than that it refused a
 * statement): the server is down or restarting, the network is gone, or the connection was
 * given up. Such errors answer 503 with a Retry-After, never 500 and never 401 (issue 23).
 * Drizzle wraps the driver's error as `cause`, so the chain is walked.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof DatabaseUnavailableError) return true;
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    if (typeof message === 'string' && message === 'PGlite is closed') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Thrown where the shop itself decides the database is out of reach (a probe that went unanswered). */
export class DatabaseUnavailableError extends Error {
  constructor(message = 'the database is unreachable') {
    super(message);
    this.name = 'DatabaseUnavailableError';
  }
}

/** Node's socket errors and postgres.js's own connection errors. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
]);

/**
 * SQLSTATE class 08 (connection exception) and 57P01–57P03 (the server shutting down, crashed,
 * or not yet accepting connections). 53300 (too many connections) is an answer: not here.
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123])$/;
