import type { JsonValue } from '../ports/store.js';

/** A data row of an import file, keyed by column (CSV header) or key (JSON Lines), or a row that could not be read. */
export type SourceRow =
  { kind: 'row'; line: number; values: ReadonlyMap<string, JsonValue> } | { kind: 'unreadable'; line: number; reason: string };

/** The formats contacts are imported from: CSV with a header row, or JSON Lines with the same keys. */
export type ContactFileFormat = 'csv' | 'jsonl';

/** What a contact import reads: its rows, streamed, and how far through the input they are. */
export interface ContactSource {
  /** Shown to people and recorded as the consent source (`import:<name>`), e.g. the file's name. */
  name: string;
  rows: AsyncIterable<SourceRow>;
  totalBytes: number;
  /** Bytes read so far (a little ahead of the rows handed out). */
  bytesRead(): number;
}

/**
 * The input as a whole cannot be imported: the user must fix the command or the file first. A
 * source may throw it while its rows are read (a CSV header without a phone column, say).
 */
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
