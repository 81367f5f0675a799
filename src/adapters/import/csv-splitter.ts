/**
 * One record of a CSV file: its fields, or why it could not be read. `line` is where it starts (1-based);
 * `raw` is its text as given (lines joined by \n), so a refused row can be written back unchanged.
 */
export type CsvRecord = { line: number; fields: string[]; raw: string } | { line: number; error: string; raw: string };

/** A quoted field left open for this many lines is taken as a stray quote, not a long value. */
export const MAX_RECORD_LINES = 1_000;
const MAX_RECORD_CHARS = 1_048_576;

/**
 * RFC 4180 records from physical lines (without their line breaks), so line numbers stay exact and
 * memory stays bounded: a quoted field may span lines; a quote that is never closed is reported at
 * the line that opened it and the lines after it are read again as records of their own, so one
 * stray quote costs one row, not the rest of the file. Stray quotes inside unquoted fields are kept
 * as text, as most spreadsheet exports expect.
 */
export class CsvSplitter {
  private fields: string[] = [];
  private field = '';
  private inQuotes = false;
  private startLine = 0;
  private chars = 0;
  /** Raw lines of the record in progress, kept only while a quoted field is open, for re-reading. */
  private pending: Array<{ text: string; line: number }> = [];
  /** Every line of the record in progress (slow path only), for its raw text. */
  private rawLines: string[] = [];
  private readonly sepCode: number;

  /** `delimiter`: one character, `,` unless the file uses another (`;` in many European exports, tab). */
  constructor(readonly delimiter = ',') {
    if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r') {
      throw new Error(`a CSV delimiter is one character other than a quote or a line break, got ${JSON.stringify(delimiter)}`);
    }
    this.sepCode = delimiter.charCodeAt(0);
  }

  /** Feeds one physical line; returns the records it completes (usually one, none mid-record). */
  push(text: string, line: number): CsvRecord[] {
    const out: CsvRecord[] = [];
    this.feed(text, line, out);
    return out;
  }

  /** At the end of input: an open quoted field is an error, and the lines after it are records again. */
  end(): CsvRecord[] {
    const out: CsvRecord[] = [];
    while (this.inQuotes) this.abandon(`a quoted field opened on this line is never closed`, out);
    return out;
  }

  private feed(text: string, line: number, out: CsvRecord[]): void {
    if (!this.inQuotes) {
      if (text.trim() === '') return; // blank lines separate nothing and are not rows
      this.startLine = line;
      // Fast path: most lines have no quotes at all.
      if (text.indexOf('"') === -1) {
        out.push({ line, fields: text.split(this.delimiter), raw: text });
        return;
      }
      this.fields = [];
      this.field = '';
      this.chars = 0;
      this.pending = [];
      this.rawLines = [text];
      this.scan(text, 0, out, line);
    } else {
      this.rawLines.push(text);
      this.field += '\n';
      this.scan(text, 0, out, line);
    }
    if (this.inQuotes) {
      this.pending.push({ text, line });
      this.chars += text.length;
      if (this.pending.length > MAX_RECORD_LINES || this.chars > MAX_RECORD_CHARS) {
        this.abandon(`a quoted field opened on this line is not closed within ${MAX_RECORD_LINES} lines`, out);
      }
    }
  }

  /** Reports the open record at its first line and reads the lines after that one again. */
  private abandon(reason: string, out: CsvRecord[]): void {
    const replay = this.pending.slice(1);
    out.push({ line: this.startLine, error: reason, raw: this.pending[0]?.text ?? '' });
    this.inQuotes = false;
    this.pending = [];
    for (const l of replay) this.feed(l.text, l.line, out);
  }

  /** Scans `text` from `i`, continuing the current field; completes the record unless a quote stays open. */
  private scan(text: string, i: number, out: CsvRecord[], line: number): void {
    const n = text.length;
    for (;;) {
      if (this.inQuotes) {
        const q = text.indexOf('"', i);
        if (q === -1) {
          this.field += text.slice(i);
          return; // the field goes on in the next line
        }
        this.field += text.slice(i, q);
        if (text.charCodeAt(q + 1) === 34) {
          this.field += '"';
          i = q + 2;
          continue;
        }
        this.inQuotes = false;
        i = q + 1;
        if (i === n) return this.finish(out);
        if (text.charCodeAt(i) !== this.sepCode) {
          const column = this.fields.length + 1;
          this.fields = [];
          out.push({
            line: this.startLine,
            error: `unexpected text after the closing quote of field ${column}${line !== this.startLine ? ` (on line ${line})` : ''}`,
            raw: this.rawLines.join('\n'),
          });
          return;
        }
        this.fields.push(this.field);
        this.field = '';
        i += 1;
      } else if (text.charCodeAt(i) === 34) {
        this.inQuotes = true;
        i += 1;
        continue;
      } else {
        const c = text.indexOf(this.delimiter, i);
        if (c === -1) {
          this.field = text.slice(i);
          return this.finish(out);
        }
        this.fields.push(text.slice(i, c));
        i = c + 1;
      }
      // Just after a comma: a field starts here, possibly empty at the end of the line.
      if (i === n) {
        this.field = '';
        return this.finish(out);
      }
    }
  }

  private finish(out: CsvRecord[]): void {
    this.fields.push(this.field);
    out.push({ line: this.startLine, fields: this.fields, raw: this.rawLines.join('\n') });
    this.fields = [];
    this.field = '';
    this.pending = [];
  }
}
