import type { FastifyInstance } from 'fastify';
import findMyWay, { type HTTPMethod } from 'find-my-way';

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Keeps every path under /api in JSON: without it the storefront's catch-all page route
 * would answer an unknown API path with the HTML not-found page. A path the API knows
 * with another method is 405 with `Allow`; anything else is 404 `{ message }`.
 * Call before the API's routes are added, so it sees them all.
 */
export function registerApiFallback(api: FastifyInstance): void {
  const known = findMyWay({ ignoreTrailingSlash: true, maxParamLength: 200 });
  api.addHook('onRoute', (route) => {
    if (route.url.endsWith('*')) return;
    for (const method of [route.method].flat()) {
      if (!known.find(method as HTTPMethod, route.url)) known.on(method as HTTPMethod, route.url, () => {});
    }
  });
  api.all('/*', { schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((method) => known.find(method, path));
    if (allowed.length > 0) {
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send({ message: `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}` });
    }
    return reply.code(404).send({ message: `No API route for ${request.method} ${path}` });
  });
}
