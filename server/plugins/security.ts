import { randomBytes } from 'node:crypto';
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { isSecureOrigin } from '../session-cookie.ts';

declare module 'fastify' {
  interface FastifyReply {
    /** This response's Content-Security-Policy nonce: the storefront's inline scripts carry it. */
    scriptNonce: string;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The shop's security headers, for pages, API answers and errors alike: a
 * Content-Security-Policy with a fresh script nonce per response (no `unsafe-inline`
 * for scripts), nosniff, strict-origin-when-cross-origin, no framing, HSTS when the shop
 * is served over https. Then: no CORS unless `CORS_ORIGINS` names origins, and writes that
 * a browser sends from another site are refused (403) unless they carry a bearer token.
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const https = isSecureOrigin(config.publicUrl);
  const maps = config.shop.googleMapsApiKey ? ['https://maps.googleapis.com', 'https://maps.gstatic.com'] : [];

  app.decorateReply('scriptNonce', '');
  app.addHook('onRequest', async (_request, reply) => {
    reply.scriptNonce = randomBytes(16).toString('base64');
    (reply.raw as unknown as { scriptNonce: string }).scriptNonce = reply.scriptNonce;
  });

  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [
          "'self'",
          (_request, response) => `'nonce-${(response as unknown as { scriptNonce: string }).scriptNonce}'`,
          ...maps,
        ],
        // React renders a few style attributes (star fills, picture ratios); scripts stay nonce-only.
        styleSrc: ["'self'", "'unsafe-inline'", ...(maps.length ? ['https://fonts.googleapis.com'] : [])],
        imgSrc: [
          "'self'",
          'data:',
          'blob:',
          ...(maps.length ? ['https://*.googleapis.com', 'https://*.gstatic.com'] : []),
        ],
        fontSrc: ["'self'", 'data:', ...(maps.length ? ['https://fonts.gstatic.com'] : [])],
        connectSrc: ["'self'", ...(maps.length ? ['https://*.googleapis.com'] : [])],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // Pictures and fonts are the shop's own; nothing needs to be embedded elsewhere.
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });

  if (config.corsOrigins.length > 0) {
    await app.register(fastifyCors, {
      origin: config.corsOrigins,
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    });
  }

  app.addHook('onRequest', async (request, reply) => {
    if (!UNSAFE_METHODS.has(request.method)) return;
    // An API client's bearer token is not sent by a browser on its own, so it cannot be forged cross-site.
    if (request.headers.authorization) return;
    if (isCrossSite(request.headers, request.host, config.corsOrigins)) {
      return reply.code(403).type('application/json').send({ message: CROSS_SITE_MESSAGE });
    }
  });
}

export const CROSS_SITE_MESSAGE = 'Cross-site requests are not allowed';

/**
 * Whether a browser sent this from another site: `Sec-Fetch-Site: cross-site`, or an
 * `Origin` whose host is not this shop's (and not an origin allowed by CORS_ORIGINS).
 * Requests with neither header (curl, server-to-server) are not browsers' and pass.
 */
export function isCrossSite(
  headers: Record<string, string | string[] | undefined>,
  host: string,
  allowedOrigins: readonly string[],
): boolean {
  const origin = typeof headers.origin === 'string' ? headers.origin : undefined;
  if (origin && allowedOrigins.includes(origin)) return false;
  if (headers['sec-fetch-site'] === 'cross-site') return true;
  if (!origin) return false;
  if (origin === 'null') return true;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}
