import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TokenScope } from '../../../app/api-scope.js';
import { checkApiToken } from '../../../app/api-tokens.js';
import type { Clock } from '../../../ports/clock.js';
import type { Store } from '../../../ports/store.js';
import type { AuthFailureLimiter } from '../auth-failures.js';
import type { Viewer } from './layout.js';
import { readCookie, SESSION_COOKIE, type Session, type SessionStore } from './sessions.js';

export interface AuthDeps {
  store: Pick<Store, 'findApiToken'>;
  clock: Clock;
  adminToken: string | null;
  sessions: SessionStore;
  failures: AuthFailureLimiter;
}

export type Authenticated = { viewer: Viewer; session: Session | null; sessionId: string | null };
/** The address presented too many wrong tokens (here, at sign-in or on the API): 429 for now. */
export type LockedOut = { lockedOutFor: number };

/**
 * The session cookie, or (for scripts) the API's bearer token. A session of a token revoked since
 * sign-in ends at once. Null means "not signed in": pages redirect to /login.
 */
export async function authenticate(request: FastifyRequest, deps: AuthDeps): Promise<Authenticated | LockedOut | null> {
  const sessionId = readCookie(request.headers.cookie, SESSION_COOKIE);
  const session = deps.sessions.get(sessionId, deps.clock.now());
  if (session !== null && sessionId !== undefined) {
    const scope = await scopeNow(session, deps);
    if (scope !== null) return { viewer: { csrf: session.csrf, name: nameOf(session.principal), scope }, session, sessionId };
    deps.sessions.delete(sessionId);
  }
  if (request.headers.authorization === undefined) return null;
  const lockout = deps.failures.attempt(request.ip, 'dashboard');
  if (!lockout.ok) return { lockedOutFor: lockout.retryAfterSeconds };
  const check = await checkApiToken(deps.store, request.headers.authorization, deps.adminToken);
  if (!check.ok) return null;
  deps.failures.succeeded(request.ip);
  return { viewer: { csrf: null, name: nameOf(check.principal), scope: check.principal.scope }, session: null, sessionId: null };
}

/** The session's token scope as the store has it now; null once the token is revoked (the session ends). */
async function scopeNow(session: Session, deps: AuthDeps): Promise<TokenScope | null> {
  if (session.principal.kind === 'admin') return deps.adminToken !== null ? 'admin' : null;
  const found = await deps.store.findApiToken(session.principal.tokenHash);
  return found !== null && found.revokedAt === null ? found.scope : null;
}

function nameOf(p: Session['principal'] | { kind: 'admin' } | { kind: 'token'; name: string }): string {
  return p.kind === 'admin' ? 'admin' : `token ${p.name}`;
}

export function redirectToLogin(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const next = request.method === 'GET' ? request.url : '/';
  return reply
    .code(303)
    .header('location', `/login?next=${encodeURIComponent(next)}`)
    .send();
}

/**
 * A browser sends Origin with every POST; a request from another site (or a page framed by one)
 * carries that site's origin. Requests without Origin come from non-browser clients.
 */
export function sameOrigin(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return origin === `${request.protocol}://${request.host}`;
}
