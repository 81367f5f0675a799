/** What differs between the backends, in one place; operations branch on these flags, never on a name. */
export interface Capabilities {
  dialect: 'sqlite' | 'postgres';
  /** `SELECT ... FOR UPDATE SKIP LOCKED` exists; otherwise the single writer claims inside BEGIN IMMEDIATE. */
  skipLocked: boolean;
  /** JSON columns come back parsed (jsonb); otherwise they are text to parse. */
  jsonParsedOnRead: boolean;
  /** Largest number of bound parameters in one statement we allow ourselves. */
  maxParams: number;
  /** How SQL reads one value out of a JSON column: `json_extract` (SQLite) or the `#>>` operator (jsonb). */
  jsonRead: 'json_extract' | 'jsonb_path';
}

export const SQLITE: Capabilities = Object.freeze({
  dialect: 'sqlite',
  skipLocked: false,
  jsonParsedOnRead: false,
  maxParams: 30_000,
  jsonRead: 'json_extract',
});

export const POSTGRES: Capabilities = Object.freeze({
  dialect: 'postgres',
  skipLocked: true,
  jsonParsedOnRead: true,
  maxParams: 30_000,
  jsonRead: 'jsonb_path',
});
