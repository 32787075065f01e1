import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable', 'stopping']),
  database: z.enum(['up', 'down']),
});

/** Load balancers poll this: 200 while the database answers, 503 when it does not. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['Operations'],
        summary: 'Liveness and database reachability',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (request, reply) => {
      // Stopping (SIGTERM, server/main.ts): not ready, so the balancer sends nothing new.
      if (app.draining) return reply.code(503).send({ status: 'stopping', database: 'up' });
      try {
        await app.database.ping();
        return { status: 'ok' as const, database: 'up' as const };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        return reply.code(503).send({ status: 'unavailable', database: 'down' });
      }
    },
  );
};
