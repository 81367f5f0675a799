import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Millis } from '../core/time.js';
import type { ApiToken, ApiTokenScope, ApiTokenStore } from '../ports/store.js';
import type { TokenScope } from './api-scope.js';

// The store's scopes are the API's: a scope added to one and not the other fails to compile here.
const SAME_SCOPES: [TokenScope, ApiTokenScope] extends [ApiTokenScope, TokenScope] ? true : never = true;
void SAME_SCOPES;

/** Prefix that makes a leaked token easy to recognise (and to scan for) in code and chat logs. */
export const API_TOKEN_PREFIX = 'pacer_';

export interface NewApiToken {
  id: number;
  name: string;
  scope: TokenScope;
  /** The only time the token exists outside its holder's hands: it is not stored. */
  token: string;
  createdAt: Millis;
}

/** SHA-256 hex: the token carries 256 random bits, so a plain hash (no salt, no stretching) suffices. */
export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Creates a token from 32 random bytes and stores only its hash. */
export async function createApiToken(
  store: Pick<ApiTokenStore, 'createApiToken'>,
  what: { name: string; scope: TokenScope },
  now: Millis,
  random: (size: number) => Buffer = randomBytes,
): Promise<NewApiToken> {
  const token = `${API_TOKEN_PREFIX}${random(32).toString('base64url')}`;
  const row = await store.createApiToken({ name: what.name, scope: what.scope, tokenHash: hashApiToken(token) }, now);
  return { id: row.id, name: row.name, scope: row.scope, token, createdAt: row.createdAt };
}

/** Who a request comes from: the bootstrap token (PACER_ADMIN_TOKEN, always admin) or a stored token. */
export type ApiPrincipal = { kind: 'admin'; scope: 'admin' } | { kind: 'token'; id: number; name: string; scope: TokenScope };

/** A stable name for the principal (rate-limit buckets, idempotency keys): `admin` or `token:<id>`. */
export function principalKey(p: ApiPrincipal): string {
  return p.kind === 'admin' ? 'admin' : `token:${p.id}`;
}

export type TokenCheck = { ok: true; principal: ApiPrincipal } | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'revoked' };

/**
 * Checks an `Authorization` header value. The bootstrap admin token (PACER_ADMIN_TOKEN) is compared
 * in constant time; stored tokens are looked up by hash, so their comparison leaks nothing useful.
 */
export async function checkApiToken(
  store: Pick<ApiTokenStore, 'findApiToken'>,
  authorization: string | undefined,
  adminToken: string | null,
): Promise<TokenCheck> {
  if (authorization === undefined || authorization.trim() === '') return { ok: false, reason: 'missing' };
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  const presented = match?.[1];
  if (presented === undefined) return { ok: false, reason: 'malformed' };
  if (adminToken !== null && sameSecret(presented, adminToken)) return { ok: true, principal: { kind: 'admin', scope: 'admin' } };
  const found: ApiToken | null = await store.findApiToken(hashApiToken(presented));
  if (found === null) return { ok: false, reason: 'unknown' };
  if (found.revokedAt !== null) return { ok: false, reason: 'revoked' };
  return { ok: true, principal: { kind: 'token', id: found.id, name: found.name, scope: found.scope } };
}

/** Constant-time equality that does not reveal the secret's length either (both sides hashed first). */
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
