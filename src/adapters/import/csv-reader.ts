import { ImportInputError, type SourceRow } from '../../app/contact-source.js';
import { IGNORED_COLUMN } from '../../app/import-columns.js';
import type { JsonValue } from '../../ports/store.js';
import { csvField } from './errors-file.js';
import { CsvSplitter, type CsvRecord } from './csv-splitter.js';

/** Delimiters told apart by looking at the header row, when none is given. */
const CANDIDATES = [',', ';', '\t', '|'] as const;

/**
 * Rows of a CSV file with a header row, from its physical lines. The first record is the header; a
 * row whose field count differs from the header's is reported, not guessed at. The delimiter is the
 * one given, or else the candidate the header row uses most (`,` on a tie or when it uses none).
 * Each row carries its text as given, without a `pacer_error` column (the errors file's own), so a
 * refused row can be written back, fixed and imported again.
 */
export async function* readCsvRows(lines: AsyncIterable<string>, file: string, delimiter: string | null): AsyncGenerator<SourceRow> {
  let splitter: CsvSplitter | null = null;
  let header: string[] | null = null;
  let ignoredAt = -1;
  let line = 0;
  function* rows(records: CsvRecord[]): Generator<SourceRow> {
    for (const record of records) {
      if ('error' in record) {
        if (header === null)
          throw new ImportInputError(`${file}: the header row (line ${record.line}) cannot be read: ${record.error}`, 'usage');
        yield { kind: 'unreadable', line: record.line, reason: record.error, raw: record.raw };
      } else if (header === null) {
        header = record.fields.map((f) => f.trim());
        ignoredAt = header.findIndex((name) => name.toLowerCase() === IGNORED_COLUMN);
        yield { kind: 'header', line: record.line, columns: header, raw: given(record), delimiter: splitter!.delimiter };
      } else if (record.fields.length !== header.length) {
        const reason = `has ${record.fields.length} fields, the header has ${header.length}`;
        yield { kind: 'unreadable', line: record.line, reason, raw: record.raw };
      } else {
        const values = new Map<string, JsonValue>();
        for (let i = 0; i < header.length; i++) {
          const name = header[i]!;
          if (name !== '') values.set(name, record.fields[i]!);
        }
        yield { kind: 'row', line: record.line, values, raw: given(record) };
      }
    }
  }
  function given(record: { fields: string[]; raw: string }): string {
    if (ignoredAt < 0) return record.raw;
    return record.fields
      .filter((_, i) => i !== ignoredAt)
      .map((f) => csvField(f, splitter!.delimiter))
      .join(splitter!.delimiter);
  }
  for await (const raw of lines) {
    line += 1;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (splitter === null) {
      if (text.trim() === '') continue;
      splitter = new CsvSplitter(delimiter ?? detectDelimiter(text));
    }
    yield* rows(splitter.push(text, line));
  }
  if (splitter !== null) yield* rows(splitter.end());
}

/** The candidate that occurs most often outside quotes in the header line. */
export function detectDelimiter(headerLine: string): string {
  const counts = new Map<string, number>(CANDIDATES.map((c) => [c, 0]));
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best: string = ',';
  for (const [c, n] of counts) if (n > counts.get(best)!) best = c;
  return best;
}
