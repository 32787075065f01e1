import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { productSchema } from '../../contracts/catalog.ts';
import { idParamsSchema } from '../../contracts/params.ts';
import { productInputSchema, stockAdjustmentSchema } from '../../contracts/product-admin.ts';
import type { Actor } from '../domain/audit.ts';
import { DomainError } from '../domain/errors.ts';
import { exportProductsCsv, importProductsCsv } from '../domain/product-csv.ts';
import { authOf, requireRole } from '../plugins/auth.ts';
import { errorResponses } from './openapi.ts';

async function actorOf(request: FastifyRequest): Promise<Actor> {
  const { session } = await authOf(request);
  return { userId: session.user.id, email: session.user.email };
}

/** A CSV of 10,000 products is about 5 MB; this leaves room for long descriptions. */
const CSV_MAX_BYTES = 20 * 1024 * 1024;

const importReportSchema = z.object({
  applied: z.boolean(),
  created: z.number(),
  updated: z.number(),
  rejected: z.array(z.object({ row: z.number(), sku: z.string(), reason: z.string() })),
});

const adminProductPageSchema = z.object({
  items: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      sku: z.string(),
      category: z.string(),
      brand: z.string(),
      price: z.number(),
      discountPrice: z.number().nullable(),
      stockQuantity: z.number(),
      isActive: z.boolean(),
    }),
  ),
  page: z.number(),
  totalCount: z.number(),
  totalPages: z.number(),
});

/**
 * Catalogue writes (spec §7 `POST /api/products`, and editing) and the back office's product
 * list. Every route needs the admin role (401 signed out, 403 for a customer), checked before
 * the body is read.
 */
export const adminProductRoutes: FastifyPluginAsyncZod = async (app) => {
  const { catalogAdmin, catalog } = app.services;
  app.addHook('onRequest', requireRole('admin'));
  const tags = ['Admin'];
  if (!app.hasContentTypeParser('multipart/form-data')) {
    await app.register(fastifyMultipart, { limits: { fileSize: CSV_MAX_BYTES, files: 1, fields: 5, fieldSize: 1024 } });
  }

  app.get(
    '/admin/products/export.csv',
    {
      schema: {
        tags,
        summary: 'Every product as CSV (the import’s columns)',
        response: { 200: z.string(), ...errorResponses(401, 403) },
      },
    },
    async (_request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="products-${new Date().toISOString().slice(0, 10)}.csv"`)
        .send(await exportProductsCsv(app.db)),
  );

  app.post(
    '/admin/products/import',
    {
      schema: {
        tags,
        summary: 'Import a product CSV (multipart field `file`): upsert by SKU, all or nothing',
        description:
          'Answers the report: created, updated and rejected rows with the reason per row. With any rejected row nothing is written (400).',
        response: {
          200: importReportSchema,
          400: importReportSchema.extend({ message: z.string() }),
          ...errorResponses(401, 403, 413, 415),
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new DomainError(415, 'Send the CSV as multipart/form-data in the field `file`');
      }
      const file = await request.file();
      if (!file)
        return reply
          .code(400)
          .send({ message: 'No file was sent', applied: false, created: 0, updated: 0, rejected: [] });
      let csv: string;
      try {
        csv = (await file.toBuffer()).toString('utf8');
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new DomainError(413, `The file is larger than ${CSV_MAX_BYTES / 1024 / 1024} MB`);
        }
        throw error;
      }
      const report = await importProductsCsv(app.db, csv, await actorOf(request));
      if (!report.applied) {
        return reply
          .code(400)
          .send({ message: `No products were imported: ${report.rejected.length} row(s) have problems`, ...report });
      }
      app.services.catalogAdmin.announceChange();
      return report;
    },
  );

  app.post(
    '/products',
    {
      schema: {
        tags,
        summary: 'Create a product with its variants (pictures: POST /api/products/images)',
        body: productInputSchema,
        response: { 201: productSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { id } = await catalogAdmin.createProduct(request.body, await actorOf(request));
      return reply.code(201).send(await catalog.getProduct(id));
    },
  );

  app.put(
    '/products/:id',
    {
      schema: {
        tags,
        summary: 'Save every field of a product; variants not listed are removed',
        params: idParamsSchema,
        body: productInputSchema,
        response: { 200: productSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await catalogAdmin.updateProduct(request.params.id, request.body, await actorOf(request));
      return catalog.getProduct(request.params.id);
    },
  );

  app.get(
    '/admin/products',
    {
      schema: {
        tags,
        summary: 'Every product (active or not), searchable by name or SKU',
        querystring: z.object({
          q: z.string().trim().max(200, 'q must be 200 characters or fewer').optional(),
          page: z.coerce.number({ error: 'page must be a whole number' }).int().min(1).max(10_000).default(1),
        }),
        response: { 200: adminProductPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => catalogAdmin.listProducts(request.query),
  );

  app.put(
    '/admin/products/:id/active',
    {
      schema: {
        tags,
        summary: 'Show or hide a product (hidden: out of listings, search and the sitemap)',
        params: idParamsSchema,
        body: z.object({ isActive: z.boolean({ error: 'isActive must be true or false' }) }),
        response: { 204: z.null(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await catalogAdmin.setActive(request.params.id, request.body.isActive, await actorOf(request));
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/admin/products/:id/stock',
    {
      schema: {
        tags,
        summary: 'Set the stock count',
        params: idParamsSchema,
        body: stockAdjustmentSchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await catalogAdmin.setStock(request.params.id, request.body.stockQuantity, await actorOf(request));
      return reply.code(204).send(null);
    },
  );
};
