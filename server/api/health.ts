import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable', 'stopping']),
  database: z.enum(['up', 'down']),
});

const liveSchema = z.object({ status: z.literal('ok') });

/** How long readiness waits for the database before answering 503: a balancer's check must never hang. */
const READY_WITHIN_MS = 1_000;

class NoAnswerInTime extends Error {
  constructor() {
    super(`the database did not answer within ${READY_WITHIN_MS} ms`);
  }
}

/**
 * Two checks for a balancer or an orchestrator: `/health/live` says the process answers (it
 * touches no database, so an outage never gets a live process restarted); `/health` says it is
 * ready for traffic: 200 while the database answers within a second, 503 otherwise or while
 * the process is stopping.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health/live',
    {
      schema: {
        tags: ['Operations'],
        summary: 'Liveness: the process answers (no database involved)',
        response: { 200: liveSchema },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health',
    {
      schema: {
        tags: ['Operations'],
        summary: 'Readiness: the database answers within a second (503 otherwise, or while stopping)',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (request, reply) => {
      // Stopping (SIGTERM, server/main.ts): not ready, so the balancer sends nothing new.
      if (app.draining) return reply.code(503).send({ status: 'stopping', database: 'up' });
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        await Promise.race([
          app.database.ping(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new NoAnswerInTime()), READY_WITHIN_MS);
          }),
        ]);
        return { status: 'ok' as const, database: 'up' as const };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        return reply.code(503).send({ status: 'unavailable', database: 'down' });
      } finally {
        clearTimeout(timer);
      }
    },
  );
};
