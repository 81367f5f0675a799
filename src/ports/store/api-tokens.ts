import type { Millis } from '../../core/time.js';

/** What a token may do (the scopes of app/api-scope.ts): each includes the ones before it. */
export type ApiTokenScope = 'read' | 'write' | 'admin';

/** Only the SHA-256 (hex) of a token is stored; the token itself is shown once, when created. */
export interface ApiTokenInput {
  name: string;
  tokenHash: string;
  scope: ApiTokenScope;
}
export interface ApiToken extends ApiTokenInput {
  id: number;
  createdAt: Millis;
  revokedAt: Millis | null;
}

/** REST API and dashboard tokens, by hash. */
export interface ApiTokenStore {
  createApiToken(token: ApiTokenInput, now: Millis): Promise<ApiToken>;
  /** By hash, revoked or not. */
  findApiToken(tokenHash: string): Promise<ApiToken | null>;
  listApiTokens(): Promise<ApiToken[]>;
  /** False when the token does not exist or is already revoked. */
  revokeApiToken(id: number, now: Millis): Promise<boolean>;
}
