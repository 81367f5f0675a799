import type { JsonValue } from '../ports/store.js';

/**
 * A record of an import file: the header (CSV), a data row keyed by column or key, or a row that
 * could not be read. `raw` is the record's text as given, so a refused row can be written back for fixing.
 */
export type SourceRow =
  | { kind: 'header'; line: number; columns: readonly string[]; raw: string; delimiter: string }
  | { kind: 'row'; line: number; values: ReadonlyMap<string, JsonValue>; raw: string }
  | { kind: 'unreadable'; line: number; reason: string; raw: string };

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
