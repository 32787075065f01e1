import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCOUNT_MESSAGES } from '../../contracts/account-fields.ts';
import { ForbiddenError, UnauthorizedError } from '../domain/errors.ts';
import type { ValidSession } from '../domain/sessions.ts';
import {
  carriesSignedInHint,
  clearedSessionCookie,
  isSecureOrigin,
  readSessionToken,
  sessionCookie,
  signedInHint,
  signedInHintFor,
  signedInHintName,
} from '../session-cookie.ts';

export interface RequestAuth {
  session: ValidSession;
  carrier: 'bearer' | 'cookie';
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The signed-in session of this request, looked up once on first use (bearer token,
     * else the session cookie); null when signed out or the token is unknown, revoked or expired.
     */
    getAuth(): Promise<RequestAuth | null>;
  }
}

const authCache = new WeakMap<FastifyRequest, Promise<RequestAuth | null>>();

/**
 * Decorates every request with `getAuth()`. Static files and catalogue reads never ask, so
 * they cost no session query. A cookie session that was extended (at most daily) or that
 * turned out to be dead gets its cookie re-sent or cleared on the way out.
 */
export function registerAuth(app: FastifyInstance): void {
  const secure = isSecureOrigin(app.config.publicUrl);
  app.decorateRequest('getAuth', function getAuth(this: FastifyRequest) {
    let pending = authCache.get(this);
    if (!pending) {
      pending = resolveAuth(app, this, secure);
      authCache.set(this, pending);
    }
    return pending;
  });
  // The refreshed or cleared session cookie goes out with the reply, unless the route set its own (sign-in, sign-out).
  // Callback-style hooks here and in the other per-request plugins: an async hook costs a promise and a microtask on every response.
  app.addHook('onSend', (request, reply, payload, done) => {
    const cookie = pendingCookies.get(request);
    if (cookie && !reply.hasHeader('set-cookie')) reply.header('set-cookie', cookie);
    // Whatever set or cleared the session cookie (sign-in, sign-out, a refresh, a page action), the hint follows it.
    const setCookies = reply.getHeader('set-cookie');
    const values = setCookies === undefined ? [] : Array.isArray(setCookies) ? setCookies : [String(setCookies)];
    const hint = signedInHintFor(values, secure);
    if (hint) reply.header('set-cookie', hint);
    else {
      // A live session that came without its hint gets it, whatever cookies the route set of its own.
      const missingHint = pendingHints.get(request);
      if (missingHint && !values.some((value) => value.startsWith(`${signedInHintName(secure)}=`))) {
        reply.header('set-cookie', missingHint);
      }
    }
    done(null, payload);
  });
}

async function resolveAuth(
  app: FastifyInstance,
  request: FastifyRequest,
  secure: boolean,
): Promise<RequestAuth | null> {
  const carried = readSessionToken(request.headers, secure);
  if (!carried) return null;
  const session = await app.services.sessions.validate(carried.token);
  if (carried.carrier === 'cookie' && (!session || session.refreshed)) {
    pendingCookies.set(
      request,
      session ? sessionCookie(carried.token, session.expiresAt, secure) : clearedSessionCookie(secure),
    );
  } else if (carried.carrier === 'cookie' && !carriesSignedInHint(request.headers.cookie, secure)) {
    // A live session without its hint (made before the hint existed): the hint alone goes out.
    pendingHints.set(request, signedInHint(session!.expiresAt, secure));
  }
  return session ? { session, carrier: carried.carrier } : null;
}

/** Cookies to send with the reply of a request whose session was refreshed or found dead. */
const pendingCookies = new WeakMap<FastifyRequest, string>();
/** The signed-in hint for a request whose live session came without it. */
const pendingHints = new WeakMap<FastifyRequest, string>();

/** preHandler for routes that need a signed-in shopper: 401 `{ message }` otherwise. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!(await request.getAuth())) throw new UnauthorizedError(ACCOUNT_MESSAGES.signedOut);
}

/** preHandler factory for routes that need a role: 401 when signed out, 403 for the wrong role. */
export function requireRole(role: 'admin') {
  return async (request: FastifyRequest): Promise<void> => {
    const auth = await request.getAuth();
    if (!auth) throw new UnauthorizedError(ACCOUNT_MESSAGES.signedOut);
    if (auth.session.user.role !== role) throw new ForbiddenError('You are not allowed to do this');
  };
}

/** The signed-in session of a request that has passed `requireUser`. */
export async function authOf(request: FastifyRequest): Promise<RequestAuth> {
  const auth = await request.getAuth();
  if (!auth) throw new UnauthorizedError(ACCOUNT_MESSAGES.signedOut);
  return auth;
}
