import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountSummarySchema,
  changePasswordBodySchema,
  deleteAccountBodySchema,
  messageSchema,
  preferencesSchema,
  profileUpdateSchema,
  userSchema,
} from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES } from '../../contracts/account-fields.ts';
import { productSchema } from '../../contracts/catalog.ts';
import { idSchema, numberIdSchema } from '../../contracts/params.ts';
import { toUser } from '../domain/accounts.ts';
import { getPreferences, savePreferences } from '../domain/preferences.ts';
import { addToWishlist, listWishlist, removeFromWishlist } from '../domain/wishlist.ts';
import { authOf, requireUser } from '../plugins/auth.ts';
import { clearedSessionCookie, isSecureOrigin } from '../session-cookie.ts';
import { errorResponses } from './openapi.ts';

const productIdParamsSchema = z.object({ productId: idSchema });

/** The signed-in shopper's profile, password, account, preferences and wishlist (spec §7). All need a session. */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { accounts } = app.services;
  const secure = isSecureOrigin(app.config.publicUrl);
  const userId = async (request: Parameters<typeof authOf>[0]) => (await authOf(request)).session.userId;

  app.addHook('onRequest', requireUser);

  app.get(
    '/users/profile',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'The signed-in shopper',
        response: { 200: userSchema, ...errorResponses(401) },
      },
    },
    // The session lookup already loaded the user (and is forgotten whenever the user changes).
    async (request) => toUser((await authOf(request)).session.user),
  );

  app.get(
    '/users/summary',
    {
      schema: {
        tags: ['Accounts'],
        summary: "What every page's frame shows of the signed-in shopper: names, role, wishlist ids, points",
        description:
          'Catalogue pages are served to signed-in shoppers from the shared page cache, the same bytes as ' +
          'to anyone; the page asks for this once it has loaded to show the account menu and hearts.',
        response: { 200: accountSummarySchema, ...errorResponses(401) },
      },
    },
    async (request) => app.services.accountSummary(toUser((await authOf(request)).session.user)),
  );

  app.put(
    '/users/profile',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'Change name and phone number (the e-mail cannot be changed)',
        body: profileUpdateSchema,
        response: { 200: userSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => accounts.updateProfile(await userId(request), request.body),
  );

  app.post(
    '/users/change-password',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'Change the password; every other session ends',
        description:
          'The current password is checked at most 10 times per account per 15 minutes (then 429). An account made with Google has none: it answers 403 unless this session signed in with Google in the last 10 minutes (then any `currentPassword` is accepted and the new password is set), or the shopper sets one with a reset link (`POST /api/auth/forgot-password`). Unused reset links stop working.',
        body: changePasswordBodySchema,
        response: { 200: messageSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { session } = await authOf(request);
      await accounts.changePassword(session.userId, session.id, request.body, { address: request.ip });
      return { message: ACCOUNT_MESSAGES.passwordChanged };
    },
  );

  app.delete(
    '/users/account',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'Delete the account and its personal data; every session ends',
        description:
          'Confirmed with `currentPassword` (400 `Current password is incorrect` when wrong or missing; 10 checks per account per 15 minutes, then 429). An account made with Google has no password: it needs this session to have signed in with Google in the last 10 minutes, else 403.',
        body: deleteAccountBodySchema.nullish(),
        response: { 200: messageSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const { session } = await authOf(request);
      await accounts.deleteAccount(
        session.userId,
        { sessionId: session.id, password: request.body?.currentPassword ?? null },
        { address: request.ip },
      );
      reply.header('set-cookie', clearedSessionCookie(secure));
      return { message: 'Your account has been deleted' };
    },
  );

  app.get(
    '/preferences',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'E-mail and contact preferences',
        response: { 200: preferencesSchema, ...errorResponses(401) },
      },
    },
    async (request) => getPreferences(app.db, await userId(request)),
  );

  app.put(
    '/preferences',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'Save e-mail and contact preferences',
        body: preferencesSchema,
        response: { 200: preferencesSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => savePreferences(app.db, await userId(request), request.body),
  );

  app.get(
    '/wishlist',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'The products on the wishlist, oldest first',
        response: { 200: z.array(productSchema), ...errorResponses(401) },
      },
    },
    async (request) => listWishlist(app.db, await userId(request)),
  );

  app.post(
    '/wishlist',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'Add several products at once (hearts made before signing in)',
        body: z.object({ productIds: z.array(numberIdSchema('productIds must be product ids')).max(500) }),
        response: { 204: z.null(), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await addToWishlist(app.db, await userId(request), [...new Set(request.body.productIds)]);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/wishlist/:productId',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'Add a product to the wishlist',
        params: productIdParamsSchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await addToWishlist(app.db, await userId(request), [request.params.productId]);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/wishlist/:productId',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'Take a product off the wishlist',
        params: productIdParamsSchema,
        response: { 204: z.null(), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      await removeFromWishlist(app.db, await userId(request), request.params.productId);
      return reply.code(204).send(null);
    },
  );
};
