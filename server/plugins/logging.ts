import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are secrets (reset links, OAuth codes): never written to a log line. */
const SECRET_QUERY = /([?&](?:token|code|state|password)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/**
 * Pino options for the app: request lines carry method, redacted URL and client address
 * only (no headers, so no cookie or bearer token), and any object that does carry a
 * secret-looking key has it censored.
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
