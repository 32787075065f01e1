import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adjustmentNoteNumberSchema,
  cartLinesSchema,
  cartQuoteSchema,
  ORDER_MESSAGES,
  ORDER_SORTS,
  ORDER_STATUS_FILTERS,
  orderSchema,
  placeOrderResultSchema,
  placeOrderSchema,
  returnRequestSchema,
} from '../../contracts/orders.ts';
import { idParamsSchema } from '../../contracts/params.ts';
import { renderAdjustmentNotePdf, renderInvoicePdf } from '../domain/invoice.ts';
import { authOf, requireUser } from '../plugins/auth.ts';
import { errorResponses } from './openapi.ts';

/** An order body is a few kilobytes at most (100 lines). */
const ORDER_BODY_LIMIT = 64 * 1024;

const orderListQuerySchema = z.object({
  status: z
    .enum(ORDER_STATUS_FILTERS, { error: `status must be one of ${ORDER_STATUS_FILTERS.join(', ')}` })
    .default('all'),
  sort: z.enum(ORDER_SORTS, { error: `sort must be one of ${ORDER_SORTS.join(', ')}` }).default('newest'),
});

const adjustmentNoteParamsSchema = idParamsSchema.extend({ noteNumber: adjustmentNoteNumberSchema });

const cartLinesResponse = z.object({
  items: z.array(
    z.object({
      productId: z.number(),
      variantId: z.number().nullable(),
      quantity: z.number(),
      addedPrice: z.number().optional(),
    }),
  ),
});

/** Orders and the cart (spec §7 "Orders"); all but the quote need a signed-in shopper. */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  const { orders, cart, shop } = app.services;
  const userId = async (request: Parameters<typeof authOf>[0]) => (await authOf(request)).session.userId;

  app.post(
    '/cart/quote',
    {
      schema: {
        tags: ['Orders'],
        summary: "Today's prices and stock for cart lines, with what changed since each was added",
        body: cartLinesSchema,
        response: { 200: cartQuoteSchema, ...errorResponses(400) },
      },
    },
    async (request) => cart.quote(request.body.items),
  );

  app.get(
    '/cart',
    {
      onRequest: requireUser,
      schema: {
        tags: ['Orders'],
        summary: 'The saved cart of the signed-in shopper',
        response: { 200: cartLinesResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ items: await cart.get(await userId(request)) }),
  );

  app.put(
    '/cart',
    {
      onRequest: requireUser,
      schema: {
        tags: ['Orders'],
        summary: 'Replace the saved cart (what the browser holds)',
        body: cartLinesSchema,
        response: { 200: cartLinesResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ items: await cart.save(await userId(request), request.body.items) }),
  );

  app.post(
    '/cart/merge',
    {
      onRequest: requireUser,
      schema: {
        tags: ['Orders'],
        summary: 'Add a signed-out cart to the saved one (quantities added, bounded by stock)',
        body: cartLinesSchema,
        response: { 200: cartLinesResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ items: await cart.merge(await userId(request), request.body.items) }),
  );

  app.post(
    '/orders',
    {
      onRequest: requireUser,
      bodyLimit: ORDER_BODY_LIMIT,
      schema: {
        tags: ['Orders'],
        summary: 'Place an order: priced on the server, stock taken atomically, card charged',
        description:
          '`sessionId` is the idempotency key: the same key and body again answer the same order (200) without a second charge; the same key with another body is 422. A short or no longer sold product is 409 naming it, a product or variant that does not exist 404; `paymentMethodId` is read only with `cardData: null` (beside a card it is ignored, whatever it holds); a declined card is 402 with the spec text. Declined card attempts are capped per hour (5 per account, 10 per client address, 3 per card): past a cap, 429 with Retry-After. Prices sent by the client are ignored.',
        body: placeOrderSchema,
        response: {
          201: placeOrderResultSchema,
          200: placeOrderResultSchema,
          ...errorResponses(400, 401, 402, 404, 409, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const { order, replayed } = await orders.placeOrder(
        { userId: await userId(request), address: request.ip },
        request.body,
      );
      return reply
        .code(replayed ? 200 : 201)
        .send({ status: 'succeeded' as const, message: ORDER_MESSAGES.placed, order });
    },
  );

  app.get(
    '/orders/user',
    {
      onRequest: requireUser,
      schema: {
        tags: ['Orders'],
        summary: "The shopper's orders, newest first",
        querystring: orderListQuerySchema,
        response: { 200: z.array(orderSchema), ...errorResponses(400, 401) },
      },
    },
    async (request) => orders.listOrders(await userId(request), request.query),
  );

  app.get(
    '/orders/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['Orders'],
        summary: 'One of your orders (another shopper’s is 404)',
        params: idParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => orders.getOrder(await userId(request), request.params.id),
  );

  app.get(
    '/orders/:id/invoice.pdf',
    {
      onRequest: requireUser,
      schema: {
        tags: ['Orders'],
        summary: 'The tax invoice of one of your orders, as a PDF',
        description:
          'Drawn from the figures stored with the order: an order keeps the invoice it was issued with. A cancelled order has no tax invoice (409); its refund is on its adjustment note. Another shopper’s order is 404.',
        params: idParamsSchema,
        response: { 200: z.any().describe('The PDF (application/pdf)'), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const invoice = await orders.invoiceOf(await userId(request), request.params.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${invoice.order.orderNumber}-tax-invoice.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(await renderInvoicePdf(invoice, shop));
    },
  );

  app.get(
    '/orders/:id/adjustment-notes/:noteNumber.pdf',
    {
      onRequest: requireUser,
      schema: {
        tags: ['Orders'],
        summary: 'An adjustment note (credit note) of one of your orders, as a PDF',
        description:
          'Each refund of money (a cancel, an approved return) issues one; the order lists them in `adjustmentNotes`. For the order’s owner and the shop’s staff; anyone else is 404.',
        params: adjustmentNoteParamsSchema,
        response: { 200: z.any().describe('The PDF (application/pdf)'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { session } = await authOf(request);
      const { order, note } = await orders.adjustmentNoteOf(
        { userId: session.userId, staff: session.user.role === 'admin' },
        request.params.id,
        request.params.noteNumber,
      );
      return reply
        .type('application/pdf')
        .header(
          'content-disposition',
          `attachment; filename="${note.noteNumber}-adjustment-note-${order.orderNumber}.pdf"`,
        )
        .header('cache-control', 'private, no-store')
        .send(await renderAdjustmentNotePdf(order, note, shop));
    },
  );

  app.put(
    '/orders/:id/cancel',
    {
      onRequest: requireUser,
      schema: {
        tags: ['Orders'],
        summary: 'Cancel a pending or processing order: stock back, payment refunded',
        params: idParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => orders.cancelOrder(request.params.id, { userId: await userId(request) }),
  );

  app.post(
    '/orders/:id/returns',
    {
      onRequest: requireUser,
      schema: {
        tags: ['Orders'],
        summary: 'Ask to return items of a fulfilled (Succeeded) order',
        params: idParamsSchema,
        body: returnRequestSchema,
        response: { 201: orderSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await orders.requestReturn(await userId(request), request.params.id, request.body)),
  );

  app.post(
    '/orders/:id/reorder',
    {
      onRequest: requireUser,
      schema: {
        tags: ['Orders'],
        summary: "Put an order's available lines back in the saved cart at today's prices",
        params: idParamsSchema,
        response: {
          200: z.object({ added: z.array(z.string()), unavailable: z.array(z.string()) }),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => orders.reorder(await userId(request), request.params.id),
  );
};
