import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { contactMessageCreatedSchema, contactMessageSchema } from '../../contracts/contact.ts';
import { errorResponses } from './openapi.ts';

/** A contact message is a few kilobytes at most (5,000 characters of message); anything far larger is refused unread. */
export const CONTACT_BODY_LIMIT = 64 * 1024;

/** `POST /contact`: the contact form for API clients; the page `/contact` stores messages through the same service. */
export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/contact',
    {
      bodyLimit: CONTACT_BODY_LIMIT,
      schema: {
        tags: ['Shop'],
        summary: 'Send the shop a message (stored; the shop replies by e-mail)',
        description:
          'JSON body. Blank optional fields count as not given. At most 5 messages per client address every 15 minutes, counted with the page form (429 with Retry-After after that).',
        body: contactMessageSchema,
        response: { 201: contactMessageCreatedSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const created = await app.services.contact.send(request.body, { clientAddress: request.ip });
      return reply.code(201).send(created);
    },
  );
};
