/**
 * Security events (issue 21): sign-in failures, slow-downs, password resets, card declines,
 * staff changes. Each is one structured line in the JSON log with the account id and the
 * client address, so an operator can alert on them; nothing secret goes in (no password,
 * token, card number or e-mail body).
 */
export type SecurityEventName =
  | 'sign-in-failed'
  | 'sign-in-slowed'
  | 'sign-in-limited'
  | 'password-check-failed'
  | 'password-check-limited'
  | 'password-reset-requested'
  | 'password-reset'
  | 'password-changed'
  | 'google-linked'
  | 'card-declined'
  | 'card-attempts-limited'
  | 'admin-granted'
  | 'admin-changed'
  | 'second-factor-changed'
  | 'second-factor-failed'
  | 'second-factor-limited'
  | 'rate-limited';

export interface SecurityEvent {
  event: SecurityEventName;
  /** The account concerned, when there is one (null for an unknown e-mail). */
  userId?: number | null;
  /** The client address the request came from, as the server trusts it (TRUST_PROXY). */
  address?: string | null;
  /** Anything else worth seeing (a reason, a count); never a secret. */
  details?: Record<string, string | number | boolean | null>;
}

export interface SecurityEvents {
  record(event: SecurityEvent): void;
}

interface LogLike {
  warn(object: Record<string, unknown>, message: string): void;
}

/** Writes each event as a `warn` line tagged `security: true`. */
export function createSecurityEvents(log: LogLike | null): SecurityEvents {
  return {
    record({ event, userId = null, address = null, details = {} }) {
      log?.warn({ security: true, event, userId, address, ...details }, `security: ${event}`);
    },
  };
}

/** For code and tests that have no log. */
export const ignoreSecurityEvents: SecurityEvents = { record() {} };
