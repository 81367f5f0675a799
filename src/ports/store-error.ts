/** Infrastructure faults, raised as exceptions; expected outcomes (conflicts, duplicates) are values. */
export type StoreErrorCode = 'unavailable' | 'read_only' | 'busy' | 'full' | 'constraint' | 'migration' | 'unknown';

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
