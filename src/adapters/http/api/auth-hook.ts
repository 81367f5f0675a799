import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { scopeAllows, type ApiScope } from '../../../app/api-scope.js';
import { checkApiToken, principalKey, type ApiPrincipal, type TokenCheck } from '../../../app/api-tokens.js';
import type { Store } from '../../../ports/store.js';
import type { AuthFailureLimiter } from '../auth-failures.js';
import type { RateLimiter } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The least a token must hold for this route (the route table's `scope`); absent means `read`. */
    scope?: ApiScope;
  }
  interface FastifyRequest {
    /** Who the API request comes from, once the bearer token was accepted; null on public routes. */
    pacerPrincipal: ApiPrincipal | null;
  }
}

const REFUSALS: Record<Extract<TokenCheck, { ok: false }>['reason'], string> = {
  missing: 'missing bearer token: send the header Authorization: Bearer <token> (create one with pacer token create)',
  malformed: 'malformed Authorization header: expected Bearer <token>',
  unknown: 'unknown API token',
  revoked: 'this API token was revoked',
};

export interface AuthCounters {
  refused: Record<Extract<TokenCheck, { ok: false }>['reason'], number>;
  rateLimited: number;
  /** Requests refused 403: the token's scope is below the route's. */
  insufficientScope: number;
}

export function createAuthCounters(): AuthCounters {
  return { refused: { missing: 0, malformed: 0, unknown: 0, revoked: 0 }, rateLimited: 0, insufficientScope: 0 };
}

/** The route's declared scope; a request no route matched (a 404) needs a token of any scope. */
export function requiredScope(request: FastifyRequest): ApiScope {
  return request.routeOptions.config.scope ?? 'read';
}

/**
 * Bearer authentication, then the token's rate limit, then its scope against the route's. Routes
 * declared `public` (the API's own reference) skip all of it. Refusals are logged by reason only:
 * the presented token never reaches a log line (the logger also censors the Authorization header).
 * An address that presented too many wrong tokens (here or on the dashboard) is refused first.
 */
export function bearerAuth(deps: {
  store: Pick<Store, 'findApiToken'>;
  adminToken: string | null;
  limiter: RateLimiter | null;
  counters: AuthCounters;
  failures: AuthFailureLimiter;
}): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const needed = requiredScope(request);
    if (needed === 'public') return;
    const presented = request.headers.authorization !== undefined;
    if (presented) {
      const lockout = deps.failures.attempt(request.ip, 'api');
      if (!lockout.ok) {
        request.log.info('api request refused: too many failed authentications from this address');
        return reply
          .code(429)
          .header('retry-after', String(lockout.retryAfterSeconds))
          .send({
            error: 'too_many_failures',
            message: `too many failed authentications from this address; retry in ${lockout.retryAfterSeconds} s`,
          });
      }
    }
    const check = await checkApiToken(deps.store, request.headers.authorization, deps.adminToken);
    if (check.ok && presented) deps.failures.succeeded(request.ip);
    if (!check.ok) {
      deps.counters.refused[check.reason]++;
      request.log.info({ reason: check.reason }, 'api request refused: not authenticated');
      return reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'unauthorized', message: REFUSALS[check.reason] });
    }
    request.pacerPrincipal = check.principal;
    if (deps.limiter !== null) {
      const admission = deps.limiter.admit(principalKey(check.principal));
      if (!admission.ok) {
        deps.counters.rateLimited++;
        return reply
          .code(429)
          .header('retry-after', String(admission.retryAfterSeconds))
          .send({ error: 'rate_limited', message: `too many requests for this token; retry in ${admission.retryAfterSeconds} s` });
      }
    }
    const held = check.principal.scope;
    if (!scopeAllows(held, needed)) {
      deps.counters.insufficientScope++;
      request.log.info({ needed, held }, 'api request refused: insufficient scope');
      // RFC 6750's challenge, so a client library can tell a scope refusal from a bad token.
      return reply
        .code(403)
        .header('www-authenticate', `Bearer error="insufficient_scope", scope="${needed}"`)
        .send({
          error: 'insufficient_scope',
          message: `this operation needs a token of scope ${needed}; this token's scope is ${held} (create one with pacer token create --scope ${needed})`,
        });
    }
  };
}
