import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addressInputSchema,
  addressSchema,
  paymentMethodInputSchema,
  paymentMethodSchema,
} from '../../contracts/account.ts';
import { idParamsSchema } from '../../contracts/params.ts';
import { authOf, requireUser } from '../plugins/auth.ts';
import { errorResponses } from './openapi.ts';

interface OwnedService<Input, Output> {
  list(userId: number): Promise<Output[]>;
  create(userId: number, input: Input): Promise<Output>;
  update(userId: number, id: number, input: Input): Promise<Output>;
  remove(userId: number, id: number): Promise<void>;
  setDefault(userId: number, id: number): Promise<Output>;
}

/**
 * The five calls spec §7 gives both addresses and payment methods: list, add, change,
 * delete, set default. Only the signed-in shopper's own records: any other id is 404.
 */
function ownedRecordRoutes<Input, Output>(
  app: FastifyInstance,
  options: {
    path: string;
    noun: string;
    input: z.ZodType<Input>;
    output: z.ZodType<Output>;
    service: OwnedService<Input, Output>;
  },
): void {
  // Typed per call site by the zod schemas at run time; generic response types defeat the type provider here.
  const api = app;
  const idOf = (request: { params: unknown }) => (request.params as { id: number }).id;
  const { path, noun, service } = options;
  const tags = ['Accounts'];
  const userId = async (request: Parameters<typeof authOf>[0]) => (await authOf(request)).session.userId;

  api.get(
    path,
    {
      schema: {
        tags,
        summary: `Your ${noun}s, default first`,
        response: { 200: z.array(options.output), ...errorResponses(401) },
      },
    },
    async (request) => service.list(await userId(request)),
  );
  api.post(
    path,
    {
      schema: {
        tags,
        summary: `Add a ${noun} (the first one becomes the default)`,
        body: options.input,
        response: { 201: options.output, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(await userId(request), request.body as Input)),
  );
  api.put(
    `${path}/:id`,
    {
      schema: {
        tags,
        summary: `Change a ${noun}`,
        params: idParamsSchema,
        body: options.input,
        response: { 200: options.output, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.update(await userId(request), idOf(request), request.body as Input),
  );
  api.delete(
    `${path}/:id`,
    {
      schema: {
        tags,
        summary: `Delete a ${noun} (deleting the default makes the newest other one default)`,
        params: idParamsSchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await service.remove(await userId(request), idOf(request));
      return reply.code(204).send(null);
    },
  );
  api.post(
    `${path}/:id/set-default`,
    {
      schema: {
        tags,
        summary: `Make a ${noun} the default`,
        params: idParamsSchema,
        response: { 200: options.output, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.setDefault(await userId(request), idOf(request)),
  );
}

/** `/addresses` and `/paymentmethods` (spec §7). */
export const addressBookRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireUser);
  ownedRecordRoutes(app, {
    path: '/addresses',
    noun: 'address',
    input: addressInputSchema,
    output: addressSchema,
    service: app.services.addresses,
  });
  ownedRecordRoutes(app, {
    path: '/paymentmethods',
    noun: 'payment method',
    input: paymentMethodInputSchema,
    output: paymentMethodSchema,
    service: app.services.paymentMethods,
  });
};
