import type { SqlParam, SqlRunner } from '../sql-executor.js';

/** Below this many rows a COPY's extra round trips (savepoint, copy, release) cost more than it saves. */
const COPY_MIN_ROWS = 64;

/** Whether `rows` rows would go by COPY on this connection (PostgreSQL, enough of them). */
export function copies(tx: SqlRunner, rows: number): boolean {
  return tx.copyRows !== undefined && rows >= COPY_MIN_ROWS;
}

/**
 * Writes rows by COPY where it pays; true when they were written. False: nothing was written (SQLite,
 * few rows, or a unique key refused a row) and the caller writes them with its INSERT, as before.
 */
export async function copied(
  tx: SqlRunner,
  table: string,
  columns: readonly string[],
  rows: ReadonlyArray<readonly SqlParam[]>,
): Promise<boolean> {
  return copies(tx, rows.length) && (await tx.copyRows!(table, columns, rows));
}
