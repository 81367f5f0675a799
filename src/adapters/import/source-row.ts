import type { JsonValue } from '../../ports/store.js';

/** A data row of an import file, keyed by column (CSV header) or key (JSON Lines), or a row that could not be read. */
export type SourceRow =
  | { kind: 'row'; line: number; values: ReadonlyMap<string, JsonValue> }
  | { kind: 'unreadable'; line: number; reason: string };

export type ContactFileFormat = 'csv' | 'jsonl';

/** The input as a whole cannot be imported: the user must fix the command or the file first. */
export class ImportInputError extends Error {
  override readonly name = 'ImportInputError';
  constructor(
    message: string,
    /** `usage`: wrong arguments or a header without phone (exit 2); `unreadable`: the file cannot be read (exit 1). */
    readonly kind: 'usage' | 'unreadable',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
