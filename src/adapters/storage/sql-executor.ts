import type { StoreError } from '../../ports/store-error.js';
import type { QueuedWatch } from '../../ports/work-signal.js';
import type { Capabilities } from './capabilities.js';

/** A bound value: SQL text never contains values, only `$1`-style placeholders. */
export type SqlParam = string | number | boolean | null | Uint8Array;
export type SqlRow = Record<string, unknown>;

/** The little each operation needs from a connection. Placeholders are `$1`, `$2`... in both dialects. */
export interface SqlRunner {
  readonly caps: Capabilities;
  /** Rows of a SELECT or of a statement with RETURNING. */
  query(sql: string, params?: readonly SqlParam[]): Promise<SqlRow[]>;
  /** Number of rows changed. */
  execute(sql: string, params?: readonly SqlParam[]): Promise<number>;
  /**
   * Tells other processes' dispatchers that outbox work falls due at `at`. PostgreSQL: NOTIFY on the
   * same connection, so inside a transaction it is delivered on commit only; SQLite: nothing (other
   * processes poll its data version).
   */
  notifyQueued(at: number): Promise<void>;
  /**
   * PostgreSQL only (absent on SQLite): writes `rows` into `table`'s `columns` with COPY, far less
   * work per row than a multi-row INSERT, inside a savepoint. Resolves false, having written nothing
   * and released the savepoint, when a row would break a unique key (a conflict an INSERT … ON
   * CONFLICT resolves, or a race): the caller then writes the rows as before. Any other refusal
   * fails like a statement.
   */
  copyRows?(table: string, columns: readonly string[], rows: ReadonlyArray<readonly SqlParam[]>): Promise<boolean>;
  /**
   * SQLite only (absent on PostgreSQL): while `work` runs, `pacer_row_intent(name, attributes)` in
   * SQL calls `fn` with each row's contact name and attributes (JSON text) and stores what it returns,
   * so a statement can write per-row values computed by the core without the rows leaving SQLite.
   */
  withRowIntent?<T>(fn: (name: string | null, attributesJson: string) => string, work: () => Promise<T>): Promise<T>;
}

/** What a store operation is given: a connection, or an open transaction that its own `transaction` joins. */
export interface SqlSession extends SqlRunner {
  /** Runs `work` in one write transaction (SQLite: BEGIN IMMEDIATE), committing when it resolves. */
  transaction<T>(operation: string, work: (tx: SqlRunner) => Promise<T>): Promise<T>;
}

export interface SqlExecutor extends SqlSession {
  /**
   * Inside a migration transaction, excludes every other migrator before anything is read
   * (PostgreSQL: an advisory lock; SQLite: BEGIN IMMEDIATE already did).
   */
  lockForMigration(tx: SqlRunner): Promise<void>;
  /** Several parameterless statements (migration scripts). */
  script(tx: SqlRunner, sql: string): Promise<void>;
  /** Turns a driver error into the port's typed error, without values from the failed statement. */
  toStoreError(error: unknown, operation: string): StoreError;
  /**
   * Hears of work other processes queue: `onQueued` gets the due time a NOTIFY carried, or null
   * when only a change was seen (SQLite's data version moved) and the caller must look.
   */
  watchQueued(onQueued: (at: number | null) => void): QueuedWatch;
  /** Runs `work`, many write transactions in a row, as the backend writes bulk fastest (the Store's `bulkWrites`). */
  bulkWrites<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
