import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orderSchema } from '../../contracts/orders.ts';
import { idParamsSchema, pageNumberSchema } from '../../contracts/params.ts';
import type { Actor } from '../domain/audit.ts';
import { listAudit } from '../domain/audit.ts';
import { ADMIN_ORDER_STATUSES } from '../domain/back-office.ts';
import { authOf, requireRole } from '../plugins/auth.ts';
import { errorResponses } from './openapi.ts';

export const adminOrderDetailSchema = z.object({
  order: orderSchema,
  customer: z.object({ id: z.number(), email: z.string(), name: z.string() }).nullable(),
  history: z.array(
    z.object({ status: z.string(), actor: z.string(), note: z.string().nullable(), createdAt: z.string() }),
  ),
  returns: z.array(
    z.object({
      id: z.number(),
      status: z.string(),
      reason: z.string(),
      items: z.array(z.object({ orderItemId: z.number(), quantity: z.number() })),
      resolutionNote: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  allowedMoves: z.array(z.enum(ADMIN_ORDER_STATUSES)),
});

const summarySchema = z.object({
  orders: z.record(z.string(), z.number()),
  openReturns: z.number(),
  recentMessages: z.number(),
});
const orderPageSchema = z.object({
  items: z.array(
    z.object({
      id: z.number(),
      orderNumber: z.string(),
      email: z.string().nullable(),
      status: z.string(),
      paymentStatus: z.string(),
      totalCents: z.number(),
      total: z.number(),
      itemCount: z.number(),
      createdAt: z.string(),
    }),
  ),
  page: z.number(),
  pageSize: z.number(),
  totalCount: z.number(),
  totalPages: z.number(),
});
const returnListSchema = z.array(
  z.object({
    id: z.number(),
    orderId: z.number(),
    orderNumber: z.string(),
    email: z.string().nullable(),
    status: z.string(),
    reason: z.string(),
    resolutionNote: z.string().nullable(),
    createdAt: z.string(),
    items: z.array(z.object({ orderItemId: z.number(), quantity: z.number(), productName: z.string() })),
  }),
);
const messagePageSchema = z.object({
  items: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      email: z.string(),
      phone: z.string().nullable(),
      subject: z.string(),
      message: z.string(),
      orderNumber: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  page: z.number(),
  totalCount: z.number(),
  totalPages: z.number(),
});
const auditSchema = z.array(
  z.object({
    id: z.number(),
    actorUserId: z.number().nullable(),
    actorEmail: z.string(),
    action: z.string(),
    entity: z.string(),
    entityId: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
  }),
);

/** Who is acting, for the audit log. The scope's hook has already checked the admin role. */
export async function actorOf(request: FastifyRequest): Promise<Actor> {
  const { session } = await authOf(request);
  return { userId: session.user.id, email: session.user.email };
}

/**
 * The back office's API under /api/admin: orders, returns, contact messages and the audit
 * log. Every route needs the admin role: 401 signed out, 403 for a customer.
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { backOffice } = app.services;
  app.addHook('onRequest', requireRole('admin'));
  const tags = ['Admin'];

  app.get(
    '/summary',
    {
      schema: {
        tags,
        summary: 'Counts for the dashboard',
        response: { 200: summarySchema, ...errorResponses(401, 403) },
      },
    },
    () => backOffice.summary(),
  );

  app.get(
    '/orders',
    {
      schema: {
        tags,
        summary: 'Orders, newest first; search by order number or e-mail',
        querystring: z.object({
          status: z
            .enum(ADMIN_ORDER_STATUSES, { error: `status must be one of ${ADMIN_ORDER_STATUSES.join(', ')}` })
            .optional(),
          q: z.string().trim().max(200, 'q must be 200 characters or fewer').optional(),
          page: pageNumberSchema,
        }),
        response: { 200: orderPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => backOffice.listOrders(request.query),
  );

  app.get(
    '/orders/:id',
    {
      schema: {
        tags,
        summary: 'One order with its customer, history and returns',
        params: idParamsSchema,
        response: { 200: adminOrderDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => backOffice.getOrder(request.params.id),
  );

  app.put(
    '/orders/:id/status',
    {
      schema: {
        tags,
        summary: 'Move an order: Pending → Processing → Succeeded, or Cancelled (stock back, refund)',
        params: idParamsSchema,
        body: z.object({
          status: z.enum(ADMIN_ORDER_STATUSES, { error: `status must be one of ${ADMIN_ORDER_STATUSES.join(', ')}` }),
        }),
        response: { 200: adminOrderDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => backOffice.moveOrder(request.params.id, request.body.status, await actorOf(request)),
  );

  app.get(
    '/returns',
    {
      schema: {
        tags,
        summary: 'Return requests, open ones first',
        querystring: z.object({
          status: z
            .enum(['Requested', 'Approved', 'Rejected'], { error: 'status must be Requested, Approved or Rejected' })
            .optional(),
        }),
        response: { 200: returnListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => backOffice.listReturns(request.query),
  );

  app.post(
    '/returns/:id/approve',
    {
      schema: {
        tags,
        summary: 'Approve a return: stock back, refund',
        params: idParamsSchema,
        response: { 200: adminOrderDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => backOffice.approveReturn(request.params.id, await actorOf(request)),
  );

  app.post(
    '/returns/:id/reject',
    {
      schema: {
        tags,
        summary: 'Reject a return with a reason the customer is told',
        params: idParamsSchema,
        body: z.object({
          reason: z
            .string({ error: 'Please give the customer a reason' })
            .trim()
            .min(1, 'Please give the customer a reason')
            .max(1000, 'The reason must be 1000 characters or fewer'),
        }),
        response: { 200: adminOrderDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => backOffice.rejectReturn(request.params.id, request.body.reason, await actorOf(request)),
  );

  app.get(
    '/messages',
    {
      schema: {
        tags,
        summary: 'Messages sent through the contact form, newest first',
        querystring: z.object({ page: pageNumberSchema }),
        response: { 200: messagePageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => backOffice.listMessages(request.query),
  );

  app.get(
    '/audit',
    {
      schema: {
        tags,
        summary: 'The latest back-office changes',
        response: { 200: auditSchema, ...errorResponses(401, 403) },
      },
    },
    async () => (await listAudit(app.db)).map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() })),
  );
};
