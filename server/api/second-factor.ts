import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageSchema } from '../../contracts/account.ts';
import {
  recoveryCodesSchema,
  secondFactorCodeBodySchema,
  secondFactorSetupSchema,
  secondFactorStatusSchema,
} from '../../contracts/second-factor.ts';
import { authOf, requireRole } from '../plugins/auth.ts';
import { errorResponses } from './openapi.ts';

/**
 * The signed-in staff member's own second factor (issue 21): status, set up, turn on (answers
 * the recovery codes once), new recovery codes, turn off. Staff only: a shopper gets 403.
 */
export const secondFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { secondFactor } = app.services;
  app.addHook('onRequest', requireRole('admin'));
  const tags = ['Staff security'];

  app.get(
    '/users/second-factor',
    {
      schema: {
        tags,
        summary: 'Whether two-step sign-in is on, and how many recovery codes are left',
        response: { 200: secondFactorStatusSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => secondFactor.status((await authOf(request)).session.userId),
  );

  app.post(
    '/users/second-factor/setup',
    {
      schema: {
        tags,
        summary: 'A new authenticator secret to scan (QR code as SVG); not in force until turned on',
        response: { 200: secondFactorSetupSchema, ...errorResponses(401, 403, 409) },
      },
    },
    async (request) => secondFactor.beginSetup((await authOf(request)).session.userId),
  );

  app.post(
    '/users/second-factor',
    {
      schema: {
        tags,
        summary: 'Turn two-step sign-in on with a code from the new secret; answers 10 one-use recovery codes, once',
        body: secondFactorCodeBodySchema,
        response: { 201: recoveryCodesSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { session } = await authOf(request);
      const recoveryCodes = await secondFactor.enable(session.userId, request.body.code, {
        address: request.ip,
        sessionId: session.id,
      });
      return reply.code(201).send({ message: 'Two-step sign-in is on', recoveryCodes });
    },
  );

  app.post(
    '/users/second-factor/recovery-codes',
    {
      schema: {
        tags,
        summary: 'Replace the recovery codes (the old ones stop working), with a current code',
        body: secondFactorCodeBodySchema,
        response: { 200: recoveryCodesSchema, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => {
      const { session } = await authOf(request);
      const recoveryCodes = await secondFactor.renewRecoveryCodes(session.userId, request.body.code, {
        address: request.ip,
      });
      return { message: 'New recovery codes made', recoveryCodes };
    },
  );

  app.delete(
    '/users/second-factor',
    {
      schema: {
        tags,
        summary: 'Turn two-step sign-in off, with a current code or a recovery code',
        body: secondFactorCodeBodySchema,
        response: { 200: messageSchema, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => {
      const { session } = await authOf(request);
      await secondFactor.disable(session.userId, request.body.code, { address: request.ip, sessionId: session.id });
      return { message: 'Two-step sign-in is off' };
    },
  );
};
