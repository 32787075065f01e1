import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  autocompleteQuerySchema,
  searchQuerySchema,
  searchResponseSchema,
  suggestionSchema,
} from '../../contracts/search.ts';
import { errorResponses } from './openapi.ts';

/** Search of spec §7: autocomplete for the header box and the faceted results page. Public reads. */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/search/autocomplete',
    {
      schema: {
        tags: ['Search'],
        summary: 'Up to 10 suggestions (products, brands, categories) for a partly typed term, best first',
        description:
          'The term is trimmed; under 2 characters the answer is an empty array. The last word may be unfinished; a misspelt word is corrected when the term finds nothing.',
        querystring: autocompleteQuerySchema,
        response: { 200: z.array(suggestionSchema), ...errorResponses(400) },
      },
    },
    (request) => app.services.search.autocomplete(request.query.term),
  );

  app.get(
    '/search',
    {
      schema: {
        tags: ['Search'],
        summary: 'A page of products matching a term, with category and brand counts for the current query',
        description:
          'Words match name, brand, category, subcategory, SKU, tag line and description, weighted in that order; plurals meet singulars; model numbers match with or without punctuation. An empty term lists every product.',
        querystring: searchQuerySchema,
        response: { 200: searchResponseSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const outcome = await app.services.search.search(request.query);
      // A kept answer is the same object on every hit: its JSON and compressed bytes are made once.
      return app.keptJson.send(request, reply, outcome.response, searchResponseSchema);
    },
  );
};
