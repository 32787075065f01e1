import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are secrets (reset links, OAuth codes): never written to a log line. */
const SECRET_QUERY = /([?&](?:token|code|state|password)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/** What a database error may keep in a log: names and codes, never values. */
const SAFE_DATABASE_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'schema', 'routine'] as const;

/** A database error as the log keeps it: the SQL (with its $n placeholders) and PostgreSQL's error code. */
export class DatabaseErrorForLog extends Error {
  query?: string;
  code?: string;
  severity?: string;
  constraint?: string;
  table?: string;
  column?: string;
  schema?: string;
  routine?: string;
}

/** Drizzle's failed query: its message and `params` carry the values sent (hashes, e-mails, addresses). */
function isFailedQuery(error: object): error is Error & { query: string; params: unknown } {
  return error instanceof Error && typeof (error as { query?: unknown }).query === 'string' && 'params' in error;
}

/** PostgreSQL's own error (postgres-js or PGlite): its message, `detail` and `where` may quote values. */
function isPostgresError(error: object): error is Error & Record<string, unknown> {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return (
    error instanceof Error && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string'
  );
}

/**
 * A database error without the values it was sent or quotes: the SQL, PostgreSQL's error code and
 * the names of the constraint, table and column, with the original stack frames. Anything else
 * comes back as it was (an error whose `cause` is a database error gets that cause cleaned).
 */
export function withoutQueryParameters(error: unknown, depth = 0): unknown {
  if (error === null || typeof error !== 'object' || depth > 5) return error;
  const failedQuery = isFailedQuery(error);
  const postgres = failedQuery ? (error.cause as object | undefined) : error;
  const postgresError = postgres && isPostgresError(postgres) ? postgres : undefined;
  if (!failedQuery && !postgresError) {
    const cause = (error as { cause?: unknown }).cause;
    if (!(error instanceof Error) || cause === undefined) return error;
    const cleanCause = withoutQueryParameters(cause, depth + 1);
    if (cleanCause === cause) return error;
    const copy = Object.assign(Object.create(Object.getPrototypeOf(error) as object) as Error, error);
    Object.defineProperty(copy, 'message', { value: error.message, enumerable: false, writable: true });
    Object.defineProperty(copy, 'stack', { value: error.stack, enumerable: false, writable: true });
    copy.cause = cleanCause;
    return copy;
  }
  const query = failedQuery ? error.query : undefined;
  const code = typeof postgresError?.code === 'string' ? postgresError.code : undefined;
  const clean = new DatabaseErrorForLog(
    query === undefined
      ? `Database error${code ? ` ${code}` : ''}`
      : `Failed query${code ? ` (${code})` : ''}: ${query}`,
  );
  clean.name = 'DatabaseError';
  if (query !== undefined) clean.query = query;
  for (const field of SAFE_DATABASE_FIELDS) {
    const value = postgresError?.[field];
    if (typeof value === 'string') clean[field] = value;
  }
  // The frames only: the first lines of the original stack repeat its message.
  const frames = ((error as Error).stack ?? '').split('\n').filter((line) => line.startsWith('    at '));
  clean.stack = [`${clean.name}: ${clean.message}`, ...frames].join('\n');
  return clean;
}

/** Pino's `err` serializer, with database errors cleaned first (withoutQueryParameters). */
function serializeError(error: unknown): unknown {
  const clean = withoutQueryParameters(error);
  if (!(clean instanceof Error)) return clean;
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(clean)) {
    if (key !== 'cause') fields[key] = value;
  }
  return {
    type: clean.name,
    message: clean.message,
    stack: clean.stack,
    ...fields,
    ...(clean.cause === undefined ? {} : { cause: serializeError(clean.cause) }),
  };
}

let consoleCleaned = false;
/**
 * Page actions and React Router write their failures with `console.error`: from now on, a
 * database error handed to `console.error` or `console.warn` is written without its parameters
 * (withoutQueryParameters). Once per process; everything else is written as it was.
 */
export function cleanConsoleErrors(): void {
  if (consoleCleaned) return;
  consoleCleaned = true;
  for (const level of ['error', 'warn'] as const) {
    const write = console[level];
    console[level] = (...args: unknown[]) =>
      write.apply(
        console,
        args.map((arg) => withoutQueryParameters(arg)),
      );
  }
}

/**
 * Pino options for the app: request lines carry method, redacted URL and client address
 * only (no headers, so no cookie or bearer token), any object that does carry a
 * secret-looking key has it censored, and a logged error (`err`) that came from the database
 * keeps its SQL and error code but not its parameters.
 */
export function loggerOptions(base: boolean | Record<string, unknown>): Record<string, unknown> {
  const options = typeof base === 'object' ? base : {};
  return {
    ...options,
    redact: {
      paths: [
        'password',
        'newPassword',
        'currentPassword',
        'token',
        'cardNumber',
        'cvv',
        'cardData',
        '*.password',
        '*.newPassword',
        '*.currentPassword',
        '*.token',
        '*.passwordHash',
        '*.cardNumber',
        '*.cvv',
        '*.cardData',
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
    serializers: {
      err: serializeError,
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
        };
      },
    },
  };
}
