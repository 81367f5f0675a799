import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// API tokens get a scope (read, write or admin). Tokens made before scopes existed could do
// everything, so they become admin: nobody is locked out by the upgrade. The column has no default
// afterwards, so a token is never created with a scope nobody chose.
// Idempotency keys: the first answer to a POST sent with an Idempotency-Key header, per token, so a
// retry gets that answer back instead of creating the thing twice. A row without a status is a
// request still running (or one whose process died: it is taken over once it is stale).

export const tokenScopesIdempotency: Migration = {
  version: 20,
  name: 'api token scopes; idempotency keys',
  sqlite: `ALTER TABLE api_tokens RENAME TO api_tokens_unscoped;
CREATE TABLE api_tokens (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER,
  scope TEXT NOT NULL CHECK (scope IN ('read', 'write', 'admin'))
) STRICT;
INSERT INTO api_tokens (id, name, token_hash, created_at, revoked_at, scope)
  SELECT id, name, token_hash, created_at, revoked_at, 'admin' FROM api_tokens_unscoped;
DROP TABLE api_tokens_unscoped;
CREATE TABLE idempotency_keys (
  principal TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  status INTEGER,
  response_headers TEXT,
  response_body TEXT,
  PRIMARY KEY (principal, idempotency_key)
) STRICT;
CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);`,
  postgres: `ALTER TABLE api_tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'admin' CHECK (scope IN ('read', 'write', 'admin'));
ALTER TABLE api_tokens ALTER COLUMN scope DROP DEFAULT;
CREATE TABLE idempotency_keys (
  principal TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  status INTEGER,
  response_headers JSONB,
  response_body TEXT,
  PRIMARY KEY (principal, idempotency_key)
);
CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);`,
};
