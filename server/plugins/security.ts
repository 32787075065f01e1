import { randomBytes } from 'node:crypto';
import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { isSecureOrigin } from '../session-cookie.ts';

declare module 'fastify' {
  interface FastifyReply {
    /** This response's Content-Security-Policy nonce: the storefront's inline scripts carry it. */
    scriptNonce: string;
  }
  interface FastifyInstance {
    /** The shop's Content-Security-Policy with `scriptSources` (a nonce, or hashes) allowed for inline scripts. */
    contentSecurityPolicy: (scriptSources: string) => string;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const NONCE_BYTES = 16;
let noncePool = Buffer.alloc(0);
let nonceOffset = 0;

/**
 * A fresh nonce for each response: 16 bytes from the CSPRNG, never reused. They are cut from
 * a 4 kB buffer filled 256 nonces at a time, since a `randomBytes` call per request cost
 * ~3 % of an API request's CPU.
 */
export function nextScriptNonce(): string {
  if (nonceOffset + NONCE_BYTES > noncePool.length) {
    noncePool = randomBytes(256 * NONCE_BYTES);
    nonceOffset = 0;
  }
  const nonce = noncePool.toString('base64', nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}

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

  const headers = securityHeaders(
    helmet({
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
    }),
  );
  app.decorate('contentSecurityPolicy', headers.policy);
  app.addHook('onRequest', (_request, reply, done) => {
    const nonce = nextScriptNonce();
    reply.scriptNonce = nonce;
    const response = reply.raw;
    for (const [name, value] of headers.fixed) response.setHeader(name, value);
    response.setHeader('content-security-policy', headers.policy(`'nonce-${nonce}'`));
    done();
  });

  if (config.corsOrigins.length > 0) {
    await app.register(fastifyCors, {
      origin: config.corsOrigins,
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    });
  }

  app.addHook('onRequest', (request, reply, done) => {
    // An API client's bearer token is not sent by a browser on its own, so it cannot be forged cross-site.
    if (
      UNSAFE_METHODS.has(request.method) &&
      !request.headers.authorization &&
      isCrossSite(request.headers, request.host, config.corsOrigins)
    ) {
      reply.code(403).type('application/json').send({ message: CROSS_SITE_MESSAGE });
      return;
    }
    done();
  });
}

/** What helmet sets, worked out once: the fixed headers, and the policy around its nonce. */
interface SecurityHeaders {
  fixed: [string, string][];
  policy: (scriptSources: string) => string;
}

const NONCE_MARK = 'nonce-mark-0b1e2c';

/**
 * Runs helmet once against a recording response and keeps what it set. Every header it sets
 * is the same for every response but the policy's nonce, so a request then costs a copy of
 * them rather than helmet's middleware chain, which builds and validates each value again
 * (4 % of a cached page's CPU in a profile).
 */
function securityHeaders(middleware: ReturnType<typeof helmet>): SecurityHeaders {
  const recorded = new Map<string, string>();
  const response = {
    scriptNonce: NONCE_MARK,
    setHeader: (name: string, value: string) => recorded.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => recorded.delete(name.toLowerCase()),
  };
  let failure: unknown;
  middleware({} as never, response as never, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  const template = recorded.get('content-security-policy');
  recorded.delete('content-security-policy');
  const [before, after] = template?.split(`'nonce-${NONCE_MARK}'`) ?? [];
  if (before === undefined || after === undefined) throw new Error('the Content-Security-Policy lost its nonce');
  return {
    fixed: [...recorded],
    // No sources (a page without inline scripts) leaves no double space behind.
    policy: (scriptSources) => (scriptSources ? `${before}${scriptSources}${after}` : `${before.trimEnd()}${after}`),
  };
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
