import type { SqlParam } from '../sql-executor.js';
import { storableText } from '../storable-text.js';

// COPY's text format: one line a row, tab between columns, `\N` for NULL; a backslash, tab, newline
// or carriage return inside a value is written as its backslash escape.

const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One value as COPY's text format writes it, stored as the same value bound to a statement would be. */
export function copyField(value: SqlParam): string {
  if (value === null) return '\\N';
  if (typeof value === 'string') {
    const text = storableText(value);
    return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPES[c]!) : text;
  }
  // As the driver sends a bound number or boolean: the same text, so the column parses the same value.
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // bytea's hex form, its backslash escaped for the text format (bytes go to bytea columns only).
  return `\\\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
}

/** Rows as COPY text, one line each. */
export function copyLines(rows: ReadonlyArray<readonly SqlParam[]>): string {
  let out = '';
  for (const row of rows) out += `${row.map(copyField).join('\t')}\n`;
  return out;
}
