/** Infrastructure faults, raised as exceptions; expected outcomes (conflicts, duplicates) are values. */
export type StoreErrorCode = 'unavailable' | 'read_only' | 'busy' | 'full' | 'constraint' | 'invalid_data' | 'migration' | 'unknown';

/** The data itself was refused: the same rows would fail again, so they are set aside rather than retried. */
export function isDataError(error: unknown): boolean {
  return error instanceof StoreError && (error.code === 'constraint' || error.code === 'invalid_data');
}

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    /** The store operation that failed, e.g. `appendInbox`. */
    readonly operation: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${operation}: ${message}`, options);
  }
}
