/** What differs between the backends, in one place; operations branch on these flags, never on a name. */
export interface Capabilities {
  dialect: 'sqlite' | 'postgres';
  /** `SELECT ... FOR UPDATE SKIP LOCKED` exists; otherwise the single writer claims inside BEGIN IMMEDIATE. */
  skipLocked: boolean;
  /** JSON columns come back parsed (jsonb); otherwise they are text to parse. */
  jsonParsedOnRead: boolean;
  /** Largest number of bound parameters in one statement we allow ourselves. */
  maxParams: number;
}

export const SQLITE: Capabilities = Object.freeze({
  dialect: 'sqlite',
  skipLocked: false,
  jsonParsedOnRead: false,
  maxParams: 30_000,
});

export const POSTGRES: Capabilities = Object.freeze({
  dialect: 'postgres',
  skipLocked: true,
  jsonParsedOnRead: true,
  maxParams: 30_000,
});
