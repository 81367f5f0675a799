import { ImportInputError, type SourceRow } from '../../app/contact-source.js';
import type { JsonValue } from '../../ports/store.js';
import { CsvSplitter, type CsvRecord } from './csv-splitter.js';

/**
 * Rows of a CSV file with a header row, from its physical lines. The header must name a `phone`
 * column (any case); a row whose field count differs from the header's is reported, not guessed at.
 */
export async function* readCsvRows(lines: AsyncIterable<string>, file: string): AsyncGenerator<SourceRow> {
  const splitter = new CsvSplitter();
  let header: string[] | null = null;
  let line = 0;
  function* rows(records: CsvRecord[]): Generator<SourceRow> {
    for (const record of records) {
      if ('error' in record) {
        if (header === null)
          throw new ImportInputError(`${file}: the header row (line ${record.line}) cannot be read: ${record.error}`, 'usage');
        yield { kind: 'unreadable', line: record.line, reason: record.error };
      } else if (header === null) {
        header = checkHeader(record.fields, file);
      } else if (record.fields.length !== header.length) {
        yield { kind: 'unreadable', line: record.line, reason: `has ${record.fields.length} fields, the header has ${header.length}` };
      } else {
        const values = new Map<string, JsonValue>();
        for (let i = 0; i < header.length; i++) {
          const name = header[i]!;
          if (name !== '') values.set(name, record.fields[i]!);
        }
        yield { kind: 'row', line: record.line, values };
      }
    }
  }
  for await (const text of lines) {
    line += 1;
    yield* rows(splitter.push(line === 1 ? text.replace(/^\uFEFF/, '') : text, line));
  }
  yield* rows(splitter.end());
}

/** Column names, trimmed. Known columns match in any case; a nameless column is ignored. */
function checkHeader(fields: readonly string[], file: string): string[] {
  const names = fields.map((f) => f.trim());
  const seen = new Set<string>();
  for (const name of names) {
    const key = name.toLowerCase();
    if (name !== '' && seen.has(key)) throw new ImportInputError(`${file}: the header names the column "${name}" twice`, 'usage');
    seen.add(key);
  }
  if (!seen.has('phone')) {
    throw new ImportInputError(
      `${file}: the header row has no "phone" column (it has: ${names.filter((n) => n !== '').join(', ') || 'no names'})`,
      'usage',
    );
  }
  return names;
}
