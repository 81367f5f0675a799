/** What differs between the backends, in one place; operations branch on these flags, never on a name. */
export interface Capabilities {
  dialect: 'sqlite' | 'postgres';
  /** `SELECT ... FOR UPDATE SKIP LOCKED` exists; otherwise the single writer claims inside BEGIN IMMEDIATE. */
  skipLocked: boolean;
  /** ` FOR UPDATE` locks the rows a transaction read until it ends; SQLite's single writer (BEGIN IMMEDIATE) needs none. */
  rowLock: ' FOR UPDATE' | '';
  /** JSON columns come back parsed (jsonb); otherwise they are text to parse. */
  jsonParsedOnRead: boolean;
  /** Largest number of bound parameters in one statement we allow ourselves. */
  maxParams: number;
  /** How SQL reads one value out of a JSON column: `json_extract` (SQLite) or the `#>>` operator (jsonb). */
  jsonRead: 'json_extract' | 'jsonb_path';
  /**
   * How SQL lower-cases text exactly as JavaScript's `toLowerCase` does (full Unicode mapping, final
   * sigma): `unicode_lower()`, which the SQLite connection registers from JavaScript, or PostgreSQL's
   * `lower()` under the ICU root collation (the server's own locale may lower ASCII only).
   */
  lowerText: 'unicode_lower' | 'icu_lower';
  /**
   * A transaction may commit without waiting for its write to reach disk (`SET LOCAL
   * synchronous_commit = off`), for writes whose loss in a crash only repeats work (a delivery's
   * claim or settlement: the delivery goes again). SQLite in WAL mode with synchronous=NORMAL does
   * not wait for the disk at each commit anyway.
   */
  relaxedCommit: boolean;
  /** The type a JSON value is cast to where its column type cannot be inferred (a VALUES list). */
  jsonCast: 'JSONB' | 'TEXT';
  /**
   * Rows become visible in the order of their ids (one writer at a time). PostgreSQL takes an id
   * before its transaction commits, so a row can appear after one with a higher id.
   */
  idsVisibleInOrder: boolean;
}

export const SQLITE: Capabilities = Object.freeze({
  dialect: 'sqlite',
  skipLocked: false,
  rowLock: '',
  jsonParsedOnRead: false,
  maxParams: 30_000,
  jsonRead: 'json_extract',
  lowerText: 'unicode_lower',
  relaxedCommit: false,
  jsonCast: 'TEXT',
  idsVisibleInOrder: true,
});

export const POSTGRES: Capabilities = Object.freeze({
  dialect: 'postgres',
  skipLocked: true,
  rowLock: ' FOR UPDATE',
  jsonParsedOnRead: true,
  maxParams: 30_000,
  jsonRead: 'jsonb_path',
  lowerText: 'icu_lower',
  relaxedCommit: true,
  jsonCast: 'JSONB',
  idsVisibleInOrder: false,
});
