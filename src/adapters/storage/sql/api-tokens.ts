import type { ApiToken, ApiTokenInput, ApiTokenScope } from '../../../ports/store.js';
import type { SqlRow, SqlRunner } from '../sql-executor.js';
import { int, intOrNull } from './values.js';

/** REST API tokens: hashes only. */

const SCOPES: readonly ApiTokenScope[] = ['read', 'write', 'admin'];

function scopeOf(value: unknown): ApiTokenScope {
  const scope = SCOPES.find((s) => s === value);
  if (scope === undefined) throw new Error(`api_tokens.scope holds ${JSON.stringify(value)}, not a scope`);
  return scope;
}

function toApiToken(row: SqlRow): ApiToken {
  return {
    id: int(row['id']),
    name: String(row['name']),
    tokenHash: String(row['token_hash']),
    createdAt: int(row['created_at']),
    revokedAt: intOrNull(row['revoked_at']),
    scope: scopeOf(row['scope']),
  };
}

export async function createApiToken(db: SqlRunner, token: ApiTokenInput, now: number): Promise<ApiToken> {
  const [row] = await db.query('INSERT INTO api_tokens (name, token_hash, scope, created_at) VALUES ($1, $2, $3, $4) RETURNING *', [
    token.name,
    token.tokenHash,
    token.scope,
    now,
  ]);
  if (row === undefined) throw new Error('insert returned no row');
  return toApiToken(row);
}

/** The token with this hash, revoked or not; the caller decides what a revoked token means. */
export async function findApiToken(db: SqlRunner, tokenHash: string): Promise<ApiToken | null> {
  const [row] = await db.query('SELECT * FROM api_tokens WHERE token_hash = $1', [tokenHash]);
  return row ? toApiToken(row) : null;
}

export async function listApiTokens(db: SqlRunner): Promise<ApiToken[]> {
  return (await db.query('SELECT * FROM api_tokens ORDER BY id')).map(toApiToken);
}

/** False when there is no such token or it was already revoked (the first revocation time stays). */
export async function revokeApiToken(db: SqlRunner, id: number, now: number): Promise<boolean> {
  return (await db.execute('UPDATE api_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [id, now])) > 0;
}
