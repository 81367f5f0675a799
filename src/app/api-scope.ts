/**
 * What a token may do. `read` sees; `write` changes contacts, consent, campaigns and messages;
 * `admin` also manages tokens, event subscriptions and settings. `public` routes need no token
 * (the API's own reference). Each scope includes the ones before it.
 */
export type ApiScope = 'public' | 'read' | 'write' | 'admin';

export const TOKEN_SCOPES = ['read', 'write', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

const RANK: Record<ApiScope, number> = { public: 0, read: 1, write: 2, admin: 3 };

/** True when a token of scope `held` may call a route that declares `needed`. */
export function scopeAllows(held: TokenScope, needed: ApiScope): boolean {
  return RANK[held] >= RANK[needed];
}
