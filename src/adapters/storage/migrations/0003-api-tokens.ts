import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// REST API tokens: only the SHA-256 of each token is kept, so a copy of the database grants nothing.

export const apiTokens: Migration = {
  version: 3,
  name: 'api tokens, stored hashed',
  sqlite: `CREATE TABLE api_tokens (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;`,
  postgres: `CREATE TABLE api_tokens (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT
);`,
};
