import { StoreError, type StoreErrorCode } from '../../../ports/store.js';

/** Maps better-sqlite3 result codes (`SQLITE_READONLY_DBMOVED`...) by their primary part. */
function codeOf(primary: string): StoreErrorCode {
  switch (primary) {
    case 'SQLITE_READONLY':
    case 'SQLITE_PERM':
    case 'SQLITE_AUTH':
      return 'read_only';
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return 'busy';
    case 'SQLITE_FULL':
      return 'full';
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_IOERR':
    case 'SQLITE_NOTADB':
    case 'SQLITE_CORRUPT':
    case 'SQLITE_MISUSE':
      return 'unavailable';
    case 'SQLITE_CONSTRAINT':
      return 'constraint';
    case 'SQLITE_TOOBIG':
    case 'SQLITE_MISMATCH':
      return 'invalid_data';
    default:
      return 'unknown';
  }
}

export function sqliteStoreError(error: unknown, operation: string): StoreError {
  if (error instanceof StoreError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) {
    const primary = /^SQLITE_[A-Z]+/.exec(code)?.[0] ?? code;
    // SQLite messages name tables and columns, never bound values, so they are safe to keep.
    return new StoreError(codeOf(primary), operation, `SQLite ${code}: ${(error as Error).message}`, { cause: error });
  }
  if (error instanceof TypeError && /not open/i.test(error.message)) {
    return new StoreError('unavailable', operation, 'the SQLite database is closed', { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new StoreError('unknown', operation, message, { cause: error });
}
