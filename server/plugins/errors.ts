import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { groupMessagesByField } from '../../contracts/field-errors.ts';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE } from '../../contracts/unavailable.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { DomainError, RateLimitedError } from '../domain/errors.ts';

export interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
}

const validationPlaces: Record<string, string> = {
  querystring: 'query parameter',
  params: 'path parameter',
  body: 'field',
  headers: 'header',
};

/**
 * The API's one error shape, `{ message, errors? }`. Bad input and domain errors
 * keep their 4xx status and message; a database out of reach is a 503 with a Retry-After
 * (db/unavailable.ts); anything else unexpected is a 500 whose details
 * (stack, SQL) go to the log only, a database error's without its parameters (logging.ts).
 * Set on the root scope too, so nothing outside /api answers a raw message or a stack;
 * `notFound: false` leaves unknown paths to the storefront.
 */
export function registerErrorHandler(app: FastifyInstance, options: { notFound?: boolean } = {}): void {
  app.setErrorHandler<FastifyError>((error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A query or path parameter is one field to the client, even when zod checked it element by element.
      const inUrl = error.validationContext === 'querystring' || error.validationContext === 'params';
      const errors = groupMessagesByField(
        error.validation,
        (issue) => {
          const path = issue.instancePath.slice(1).split('/');
          return (inUrl ? path[0] : path.join('.')) || 'request';
        },
        (issue) => issue.message ?? 'Invalid value',
      );
      const fields = Object.keys(errors);
      const place = validationPlaces[error.validationContext ?? ''] ?? 'input';
      const message =
        fields.length === 1 ? `Invalid ${place}: ${fields[0]}` : `Invalid ${place}s: ${fields.join(', ')}`;
      return reply.code(400).send({ message, errors } satisfies ErrorBody);
    }
    if (error instanceof DomainError) {
      if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply
        .code(error.statusCode)
        .send({ message: error.message, ...(error.errors ? { errors: error.errors } : {}) } satisfies ErrorBody);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ message: DATABASE_UNAVAILABLE_MESSAGE } satisfies ErrorBody);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'client error');
      return reply.code(status).send({ message: clientErrorMessage(error) } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ message: 'Something went wrong on our side. Please try again.' } satisfies ErrorBody);
  });

  if (options.notFound === false) return;
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ message: `No API route for ${request.method} ${request.url.split('?')[0]}` });
  });
}

const NUL_MESSAGE = 'Contains a character that is not allowed';

/** Where a parsed query, path or JSON body holds U+0000, as field paths ("q", "items.0.note"); iterative, so depth costs no stack. */
function pathsWithNul(root: unknown): string[] {
  const found: string[] = [];
  const pending: { value: unknown; path: string }[] = [{ value: root, path: '' }];
  while (pending.length > 0) {
    const { value, path } = pending.pop() as { value: unknown; path: string };
    if (typeof value === 'string') {
      if (value.includes('\u0000')) found.push(path || 'request');
    } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value) && !('pipe' in value)) {
      // Plain objects, arrays and the query parser's prototype-less objects alike.
      for (const [key, item] of Object.entries(value))
        pending.push({ value: item, path: path ? `${path}.${key}` : key });
    }
  }
  return found.reverse();
}

function nulAnswer(place: string, fields: string[]): ErrorBody {
  return {
    message: fields.length === 1 ? `Invalid ${place}: ${fields[0]}` : `Invalid ${place}s: ${fields.join(', ')}`,
    errors: Object.fromEntries(fields.map((field) => [field, [NUL_MESSAGE]])),
  };
}

/**
 * PostgreSQL text cannot hold U+0000, so a NUL byte in any free-text input would fail its query
 * (a 500). One place refuses it for every route, pages included: in a query string or path
 * before validation, and in a body after validation (so a field's own message, where its
 * schema has one, comes first). 400 with the field named.
 */
export function refuseNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    for (const [place, value] of [
      ['query parameter', request.query],
      ['path parameter', request.params],
    ] as const) {
      const fields = pathsWithNul(value);
      if (fields.length > 0) return reply.code(400).send(nulAnswer(place, fields));
    }
  });
  app.addHook('preHandler', async (request, reply) => {
    const fields = pathsWithNul(request.body);
    if (fields.length > 0) return reply.code(400).send(nulAnswer('field', fields));
  });
}

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route or error handler runs
 * (a malformed URL), answered in the same `{ message }` shape.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  request.log.info({ err: error }, 'client error');
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  reply.code(status).send({ message: clientErrorMessage(error) } satisfies ErrorBody);
}

/** Fastify's own 4xx messages are safe to show, except parser internals. */
function clientErrorMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type';
    default:
      return error.statusCode === 429 ? 'Too many requests. Please try again shortly.' : error.message;
  }
}
