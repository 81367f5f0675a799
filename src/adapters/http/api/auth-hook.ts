import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { checkApiToken, type TokenCheck } from '../../../app/api-tokens.js';
import type { Store } from '../../../ports/store.js';
import type { AuthFailureLimiter } from '../auth-failures.js';
import type { RateLimiter } from './rate-limit.js';

const REFUSALS: Record<Extract<TokenCheck, { ok: false }>['reason'], string> = {
  missing: 'missing bearer token: send the header Authorization: Bearer <token> (create one with pacer token create)',
  malformed: 'malformed Authorization header: expected Bearer <token>',
  unknown: 'unknown API token',
  revoked: 'this API token was revoked',
};

export interface AuthCounters {
  refused: Record<Extract<TokenCheck, { ok: false }>['reason'], number>;
  rateLimited: number;
}

export function createAuthCounters(): AuthCounters {
  return { refused: { missing: 0, malformed: 0, unknown: 0, revoked: 0 }, rateLimited: 0 };
}

/**
 * Bearer authentication, then the token's rate limit. Refusals are logged by reason only: the
 * presented token never reaches a log line (the logger also censors the Authorization header).
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
    if (deps.limiter === null) return;
    const key = check.principal.kind === 'admin' ? 'admin' : `token:${check.principal.id}`;
    const admission = deps.limiter.admit(key);
    if (!admission.ok) {
      deps.counters.rateLimited++;
      return reply
        .code(429)
        .header('retry-after', String(admission.retryAfterSeconds))
        .send({ error: 'rate_limited', message: `too many requests for this token; retry in ${admission.retryAfterSeconds} s` });
    }
  };
}
