import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changePlanSchema, joinMembershipSchema, redemptionSchema } from '../../contracts/membership-input.ts';
import { orderSchema } from '../../contracts/orders.ts';
import { pointsLedgerSchema } from '../../contracts/points.ts';
import { authOf, requireUser } from '../plugins/auth.ts';
import { errorResponses } from './openapi.ts';

const membershipSchema = z
  .object({
    plan: z.enum(['basic', 'premium']),
    status: z.enum(['active', 'cancelling', 'cancelled']),
    startedAt: z.string(),
    renewsOn: z.string(),
  })
  .meta({ id: 'Membership' });

/** Membership, points and redemptions (membership issue). All need a signed-in shopper. */
export const membershipRoutes: FastifyPluginAsyncZod = async (app) => {
  const { memberships, points, orders } = app.services;
  const tags = ['Membership'];
  app.addHook('onRequest', requireUser);
  const userOf = async (request: Parameters<typeof authOf>[0]) => (await authOf(request)).session.user;

  app.get(
    '/membership',
    {
      schema: {
        tags,
        summary: 'Your membership, or null',
        response: { 200: z.object({ membership: membershipSchema.nullable() }), ...errorResponses(401) },
      },
    },
    async (request) => ({ membership: await memberships.get((await userOf(request)).id) }),
  );

  app.post(
    '/membership',
    {
      schema: {
        tags,
        summary: 'Join a plan: checks your password, pays the first month by card',
        body: joinMembershipSchema,
        response: { 201: membershipSchema, ...errorResponses(400, 401, 402, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await memberships.join((await userOf(request)).id, request.body)),
  );

  app.put(
    '/membership',
    {
      schema: {
        tags,
        summary: 'Switch plan (at once; the new price from the next renewal)',
        body: changePlanSchema,
        response: { 200: membershipSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => memberships.changePlan((await userOf(request)).id, request.body.plan),
  );

  app.delete(
    '/membership',
    {
      schema: {
        tags,
        summary: 'Cancel at the end of the paid month',
        response: { 200: membershipSchema, ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => memberships.cancel((await userOf(request)).id),
  );

  app.get(
    '/points',
    {
      schema: {
        tags,
        summary: 'Your points: available and pending balances, when pending points free up, the ledger newest first',
        querystring: z.object({
          page: z.coerce
            .number({ error: 'page must be a whole number' })
            .int('page must be a whole number')
            .min(1, 'page must be 1 or more')
            .max(10_000, 'page must be at most 10000')
            .default(1),
        }),
        response: { 200: pointsLedgerSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => points.ledger((await userOf(request)).id, { page: request.query.page }),
  );

  app.post(
    '/redemptions',
    {
      schema: {
        tags,
        summary: 'Redeem a product with points (an order paid with points)',
        body: redemptionSchema,
        response: { 201: orderSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const user = await userOf(request);
      return reply.code(201).send(await orders.redeem(user.id, user.email, request.body));
    },
  );
};
