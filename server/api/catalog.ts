import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  brandListQuerySchema,
  brandSchema,
  categorySchema,
  fullProductSchema,
  includeImagesQuerySchema,
  productListQuerySchema,
  productPageSchema,
  productSchema,
  subcategoryListQuerySchema,
  subcategorySchema,
} from '../../contracts/catalog.ts';
import { idParamsSchema } from '../../contracts/params.ts';
import { errorResponses } from './openapi.ts';

/** Catalogue reads of spec §7: categories, brands, subcategories, products. Public, cacheable. */
export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { catalog } = app.services;
  // Every answer here is a kept catalogue read: sent from bytes compressed once (kept-json.ts).
  const { keptJson } = app;

  app.get(
    '/categories',
    {
      schema: {
        tags: ['Catalogue'],
        summary: 'All categories, sorted by name',
        querystring: includeImagesQuerySchema,
        response: { 200: z.array(categorySchema), ...errorResponses(400) },
      },
    },
    async (request, reply) =>
      keptJson.send(request, reply, await catalog.listCategories(request.query), z.array(categorySchema)),
  );

  app.get(
    '/brands',
    {
      schema: {
        tags: ['Catalogue'],
        summary: 'All brands, or the brands with products in one category',
        querystring: brandListQuerySchema,
        response: { 200: z.array(brandSchema), ...errorResponses(400) },
      },
    },
    async (request, reply) =>
      keptJson.send(request, reply, await catalog.listBrands(request.query), z.array(brandSchema)),
  );

  app.get(
    '/subcategories',
    {
      schema: {
        tags: ['Catalogue'],
        summary: 'Subcategories, optionally of one category',
        querystring: subcategoryListQuerySchema,
        response: { 200: z.array(subcategorySchema), ...errorResponses(400) },
      },
    },
    async (request, reply) =>
      keptJson.send(request, reply, await catalog.listSubcategories(request.query), z.array(subcategorySchema)),
  );

  app.get(
    '/subcategories/:id',
    {
      schema: {
        tags: ['Catalogue'],
        summary: 'One subcategory',
        params: idParamsSchema,
        response: { 200: subcategorySchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) =>
      keptJson.send(request, reply, await catalog.getSubcategory(request.params.id), subcategorySchema),
  );

  app.get(
    '/products',
    {
      schema: {
        tags: ['Catalogue'],
        summary: 'A page of active products with filters and sort',
        querystring: productListQuerySchema,
        response: { 200: productPageSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) =>
      keptJson.send(request, reply, await catalog.listProducts(request.query), productPageSchema),
  );

  app.get(
    '/products/featured',
    {
      schema: {
        tags: ['Catalogue'],
        summary: 'A page of featured products (same query and shape as /products)',
        querystring: productListQuerySchema,
        response: { 200: productPageSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) =>
      keptJson.send(
        request,
        reply,
        await catalog.listProducts({ ...request.query, featured: true }),
        productPageSchema,
      ),
  );

  app.get(
    '/products/redemption',
    {
      schema: {
        tags: ['Catalogue'],
        summary: 'A page of products that can be redeemed with points',
        querystring: productListQuerySchema,
        response: { 200: productPageSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) =>
      keptJson.send(
        request,
        reply,
        await catalog.listProducts({ ...request.query, isRedemption: true }),
        productPageSchema,
      ),
  );

  app.get(
    '/products/full/:id',
    {
      schema: {
        tags: ['Catalogue'],
        summary: 'Everything the product page shows: product, images, variants, brand, category, related, reviews',
        params: idParamsSchema,
        response: { 200: fullProductSchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) =>
      keptJson.send(request, reply, await catalog.getFullProduct(request.params.id), fullProductSchema),
  );

  app.get(
    '/products/:id',
    {
      schema: {
        tags: ['Catalogue'],
        summary: 'One product with its images',
        params: idParamsSchema,
        response: { 200: productSchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => keptJson.send(request, reply, await catalog.getProduct(request.params.id), productSchema),
  );
};
