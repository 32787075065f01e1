import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema, pageNumberSchema } from '../../contracts/params.ts';
import { pointsAdjustmentSchema, pointsLedgerSchema } from '../../contracts/points.ts';
import { authOf, requireRole } from '../plugins/auth.ts';
import { errorResponses } from './openapi.ts';

const userParamsSchema = z.object({ userId: idSchema });

/**
 * Staff's view of a shopper's points under /api/admin (issue 21): read the ledger, and grant or
 * take back points with a reason (audited, available at once, never below zero). Admin only:
 * 401 signed out, 403 for a customer.
 */
export const adminPointsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { backOffice } = app.services;
  app.addHook('onRequest', requireRole('admin'));
  const tags = ['Admin'];

  app.get(
    '/users/:userId/points',
    {
      schema: {
        tags,
        summary: "A shopper's points: available and pending balances and the ledger, newest first",
        params: userParamsSchema,
        querystring: z.object({ page: pageNumberSchema }),
        response: { 200: pointsLedgerSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => backOffice.userPoints(request.params.userId, { page: request.query.page }),
  );

  app.post(
    '/users/:userId/points',
    {
      schema: {
        tags,
        summary:
          'Grant (positive) or take back (negative) points with a reason: available at once, audited; a take-back beyond the available balance is 409',
        params: userParamsSchema,
        body: pointsAdjustmentSchema,
        response: { 201: pointsLedgerSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { session } = await authOf(request);
      const ledger = await backOffice.adjustPoints(request.params.userId, request.body, {
        userId: session.user.id,
        email: session.user.email,
      });
      return reply.code(201).send(ledger);
    },
  );
};
