import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MEMBERSHIP_VIEW_STATUSES } from '../../contracts/membership.ts';
import { changePlanSchema, joinMembershipSchema, redemptionSchema } from '../../contracts/membership-input.ts';
import { orderSchema } from '../../contracts/orders.ts';
import { pageNumberSchema } from '../../contracts/params.ts';
import { pointsLedgerSchema } from '../../contracts/points.ts';
import { authOf, requireUser } from '../plugins/auth.ts';
import { errorResponses } from './openapi.ts';

const planIdSchema = z.enum(['basic', 'premium']);

const membershipSchema = z
  .object({
    plan: planIdSchema,
    status: z.enum(MEMBERSHIP_VIEW_STATUSES).meta({
      description:
        "'past_due': the renewal was declined and is retried a day later (benefits kept); 'lapsed': the third attempt was declined",
    }),
    startedAt: z.string(),
    renewsOn: z.string().meta({ description: 'End of the paid period: the renewal date' }),
    pendingPlan: planIdSchema.nullable().meta({ description: 'A cheaper plan taking over at the renewal' }),
    nextChargeCents: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'What the renewal will charge, in cents; null when none is coming' }),
    retryOn: z.string().nullable().meta({ description: 'While past due: when the renewal is tried again' }),
    paymentMethod: z
      .object({
        id: z.number().int(),
        provider: z.string(),
        last4Digits: z.string(),
        expiryMonth: z.string(),
        expiryYear: z.number().int(),
      })
      .nullable()
      .meta({ description: 'The saved method renewals charge' }),
    lastCharge: z
      .object({
        kind: z.enum(['join', 'renewal', 'upgrade']),
        plan: planIdSchema,
        amountCents: z.number().int(),
        chargedAt: z.string(),
        last4: z.string().nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'Membership' });

/** Membership, points and redemptions (membership issue). All need a signed-in shopper. */
export const membershipRoutes: FastifyPluginAsyncZod = async (app) => {
  const { memberships, points, orders, accounts } = app.services;
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
        summary:
          'Join a plan: checks your password (an account made with Google: a Google sign-in of this session within 10 minutes, the password field ignored), pays the first month by card (saved, last 4 and expiry only, to pay renewals) or a saved method',
        body: joinMembershipSchema,
        response: { 201: membershipSchema, ...errorResponses(400, 401, 402, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { session } = await authOf(request);
      const address = request.ip;
      const confirmWithGoogle = () => accounts.confirmIdentity(session.user.id, session.id, null, { address });
      return reply
        .code(201)
        .send(await memberships.join(session.user.id, request.body, { address, confirmWithGoogle }));
    },
  );

  app.put(
    '/membership',
    {
      schema: {
        tags,
        summary:
          'Change plan: a dearer one at once, charged floor((new − old price) × time left / period) cents; a cheaper one from the renewal. A card or saved method given becomes the one renewals charge (the same plan with one only changes the card)',
        body: changePlanSchema,
        response: { 200: membershipSchema, ...errorResponses(400, 401, 402, 404, 409, 429) },
      },
    },
    async (request) => memberships.changePlan((await userOf(request)).id, request.body, { address: request.ip }),
  );

  app.delete(
    '/membership',
    {
      schema: {
        tags,
        summary: 'Cancel: nothing is charged at the renewal; benefits last to the end of the paid period',
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
        querystring: z.object({ page: pageNumberSchema }),
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
