/**
 * Errors the domain raises on purpose. The API's error handler turns each into
 * its status code and `{ message, errors? }`; anything else is a 500 whose
 * details stay in the log.
 */
export class DomainError extends Error {
  readonly statusCode: number;
  readonly errors: Record<string, string[]> | undefined;

  constructor(statusCode: number, message: string, errors?: Record<string, string[]>) {
    super(message);
    this.name = new.target.name;
    this.statusCode = statusCode;
    this.errors = errors;
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string, errors?: Record<string, string[]>) {
    super(404, message, errors);
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, errors?: Record<string, string[]>) {
    super(400, message, errors);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, errors?: Record<string, string[]>) {
    super(409, message, errors);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message: string) {
    super(401, message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super(403, message);
  }
}

/** 429 with the seconds until the client may try again (sent as `Retry-After`). */
export class RateLimitedError extends DomainError {
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super(429, message);
    this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
  }
}
