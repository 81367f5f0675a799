import { StoreError, type StoreErrorCode } from '../../../ports/store.js';

const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** SQLSTATE classes and Node socket codes to the port's codes. */
function codeOf(code: string): StoreErrorCode {
  if (NETWORK.has(code)) return 'unavailable';
  if (code === '25006') return 'read_only'; // read_only_sql_transaction
  if (code === '53100') return 'full'; // disk_full
  if (code === '40001' || code === '40P01' || code === '55P03') return 'busy';
  if (code.startsWith('08') || code.startsWith('57P') || code === '3D000' || code === '28000' || code === '28P01') return 'unavailable';
  if (code.startsWith('23')) return 'constraint';
  // Data exceptions (a NUL in text, a value out of range) and values too large for an index row.
  if (code.startsWith('22') || code === '54000') return 'invalid_data';
  return 'unknown';
}

function driverCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  // Node reports a refused multi-address connect as an AggregateError.
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const innerCode = driverCode(inner);
      if (innerCode) return innerCode;
    }
  }
  return null;
}

export function postgresStoreError(error: unknown, operation: string): StoreError {
  if (error instanceof StoreError) return error;
  const code = driverCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code !== null) {
    // Keep the server's message but never its `detail`, which quotes row values (phone numbers).
    return new StoreError(codeOf(code), operation, `PostgreSQL ${code}: ${message}`, { cause: error });
  }
  if (/connection terminated|pool after calling end|timeout exceeded when trying to connect/i.test(message)) {
    return new StoreError('unavailable', operation, `PostgreSQL: ${message}`, { cause: error });
  }
  return new StoreError('unknown', operation, message, { cause: error });
}
