import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { shipOrderSchema } from '../../contracts/fulfilment.ts';
import { idParamsSchema } from '../../contracts/params.ts';
import { requireRole } from '../plugins/auth.ts';
import { actorOf, adminOrderDetailSchema } from './admin.ts';
import { errorResponses } from './openapi.ts';

/**
 * Fulfilment by the owner under /api/admin (issue 22): ship a delivery with a carrier and
 * tracking number; mark a click & collect order ready, then collected. Each answers the order
 * as the back office shows it. Admin only: 401 signed out, 403 for a customer.
 */
export const adminFulfilmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { backOffice, fulfilment } = app.services;
  app.addHook('onRequest', requireRole('admin'));
  const tags = ['Admin'];

  app.post(
    '/orders/:id/ship',
    {
      schema: {
        tags,
        summary: 'Ship a delivery order with a carrier and tracking number: Processing → Succeeded',
        params: idParamsSchema,
        body: shipOrderSchema,
        response: { 200: adminOrderDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await fulfilment.ship(request.params.id, request.body, await actorOf(request));
      return backOffice.getOrder(request.params.id);
    },
  );

  app.post(
    '/orders/:id/ready-to-collect',
    {
      schema: {
        tags,
        summary: 'A click & collect order is waiting at the store (stays Processing)',
        params: idParamsSchema,
        response: { 200: adminOrderDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await fulfilment.readyToCollect(request.params.id, await actorOf(request));
      return backOffice.getOrder(request.params.id);
    },
  );

  app.post(
    '/orders/:id/collected',
    {
      schema: {
        tags,
        summary: 'A ready click & collect order was collected: Processing → Succeeded',
        params: idParamsSchema,
        response: { 200: adminOrderDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await fulfilment.collected(request.params.id, await actorOf(request));
      return backOffice.getOrder(request.params.id);
    },
  );
};
