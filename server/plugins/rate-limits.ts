import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CounterStore } from '../domain/counters.ts';
import { rateLimitStoreFor } from '../domain/counters.ts';

const FIFTEEN_MINUTES = 15 * 60_000;

/**
 * Per-client-address caps on the account doors, counted in the shared counter store so they
 * hold across processes. The page forms (/login, /register, /forgot-password) count against
 * the same keys as the API. Generous enough for an office behind one address; the per-account
 * lock after 10 failed sign-ins (server/domain/accounts.ts) is the real guard for a password.
 */
export const AUTH_RATE_LIMITS = {
  login: { max: 100, timeWindow: FIFTEEN_MINUTES, keyGenerator: (request: FastifyRequest) => `login:${request.ip}` },
  register: {
    max: 30,
    timeWindow: FIFTEEN_MINUTES,
    keyGenerator: (request: FastifyRequest) => `register:${request.ip}`,
  },
  forgotPassword: {
    max: 10,
    timeWindow: FIFTEEN_MINUTES,
    keyGenerator: (request: FastifyRequest) => `forgot-password:${request.ip}`,
  },
} as const;

export async function registerRateLimits(app: FastifyInstance, counters: CounterStore): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    store: rateLimitStoreFor(counters),
    // When the counter store cannot answer, let the request through rather than lock everyone out.
    skipOnError: true,
  });
}
