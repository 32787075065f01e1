import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authResultSchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  messageSchema,
  registerBodySchema,
  resetPasswordBodySchema,
} from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES } from '../../contracts/account-fields.ts';
import {
  SECOND_FACTOR_MESSAGES,
  secondFactorChallengeBodySchema,
  secondFactorRequiredSchema,
} from '../../contracts/second-factor.ts';
import type { SignedIn } from '../domain/accounts.ts';
import { authOf, requireUser } from '../plugins/auth.ts';
import { clearedSessionCookie, isSecureOrigin, sessionCookie } from '../session-cookie.ts';
import { errorResponses } from './openapi.ts';

/** Sign-in, registration, sign-out and password reset (spec §7 "Auth and profile"). */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { accounts } = app.services;
  const secure = isSecureOrigin(app.config.publicUrl);

  const meta = (request: FastifyRequest) => ({ userAgent: request.headers['user-agent'], address: request.ip });

  /** `{ token, user }` for API clients, and the same session as an httpOnly cookie for the web storefront. */
  const signedIn = (reply: FastifyReply, result: SignedIn) => {
    reply.header('set-cookie', sessionCookie(result.token, result.expiresAt, secure));
    return { token: result.token, user: result.user };
  };

  app.post(
    '/auth/register',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'Create an account; its address becomes the default address (30 per address per 15 minutes)',
        description:
          'Answers `{ token, user }` and sets the session cookie. The token goes in `Authorization: Bearer`. `PhoneNumber` (spec) or `phoneNumber`.',
        body: registerBodySchema,
        response: { 201: authResultSchema, ...errorResponses(400, 409, 429) },
      },
    },
    async (request, reply) => {
      const result = await accounts.register(request.body, meta(request));
      return reply.code(201).send(signedIn(reply, result));
    },
  );

  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['Accounts'],
        summary:
          'Sign in with e-mail and password (staff with two-step sign-in: 202 and a challenge for POST /auth/second-factor)',
        description:
          'Unknown e-mail and wrong password both answer 401 `Invalid email or password`. 429 with `Retry-After`: past 100 sign-ins per address per 15 minutes; after 5 failures for one account from one address, each further try waits twice as long as the last (1 s, 2 s, 4 s … at most 15 minutes); past 50 failed sign-ins for one account per hour from all addresses.',
        body: loginBodySchema,
        response: { 200: authResultSchema, 202: secondFactorRequiredSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const result = await accounts.login(request.body, meta(request));
      if ('secondFactorRequired' in result) {
        return reply.code(202).send({
          message: SECOND_FACTOR_MESSAGES.codeNeeded,
          secondFactorRequired: true,
          challenge: result.challenge,
          expiresAt: result.expiresAt.toISOString(),
        });
      }
      return signedIn(reply, result);
    },
  );

  app.post(
    '/auth/second-factor',
    {
      schema: {
        tags: ['Staff security'],
        summary: 'The second step of a staff sign-in: the challenge from 202 and a code from the authenticator app',
        description:
          'A six-digit code or an unused recovery code. 400 for a wrong code (a challenge takes 5), 401 once the challenge is spent or over (5 minutes): sign in again.',
        body: secondFactorChallengeBodySchema,
        response: { 200: authResultSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) =>
      signedIn(reply, await accounts.completeSecondFactor(request.body.challenge, request.body.code, meta(request))),
  );

  app.post(
    '/auth/logout',
    {
      onRequest: requireUser,
      schema: {
        tags: ['Accounts'],
        summary: 'End this session',
        response: { 200: messageSchema, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const { session } = await authOf(request);
      await app.services.sessions.revoke(session.id);
      reply.header('set-cookie', clearedSessionCookie(secure));
      return { message: 'Signed out' };
    },
  );

  app.post(
    '/auth/forgot-password',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'E-mail a password reset link (valid one hour, single use)',
        description:
          'Answers 202 with the same message whether or not an account has that e-mail, before the link is made and mailed; a new link makes earlier ones stop working. 10 per address per 15 minutes.',
        body: forgotPasswordBodySchema,
        response: { 202: messageSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      await accounts.requestPasswordReset(request.body.email, meta(request));
      return reply.code(202).send({ message: ACCOUNT_MESSAGES.forgotPasswordSent });
    },
  );

  app.post(
    '/auth/reset-password',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'Set a new password with the token from the e-mailed link; ends every session',
        description: '10 tries per address per 15 minutes; a dead link answers 400 at once.',
        body: resetPasswordBodySchema,
        response: { 200: messageSchema, ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      await accounts.resetPassword(request.body.token, request.body.newPassword, meta(request));
      return { message: 'Your password has been reset. Please sign in with your new password.' };
    },
  );
};
