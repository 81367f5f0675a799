import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import type { FieldError } from '../../app/contact-row.js';
import { ImportInputError, type ContactFileFormat } from '../../app/contact-source.js';
import { IGNORED_COLUMN } from '../../app/import-columns.js';

/** The errors file's reasons for one row: its line, then each problem with the field at fault. */
export function describeRejection(line: number, errors: readonly FieldError[]): string {
  return `line ${line}: ${errors.map((e) => (e.field === null ? e.reason : `${e.field}: ${e.reason}`)).join('; ')}`;
}

/**
 * Every refused row as given, in the input's own format, with the reasons in a `pacer_error` column
 * (CSV, after the header's columns) or key (JSON Lines), written as the import goes, honouring
 * back-pressure. Fix the rows and import the file again: the import ignores `pacer_error`.
 */
export class ErrorsFile {
  private delimiter = ',';
  private constructor(
    private readonly stream: WriteStream,
    private readonly format: ContactFileFormat,
  ) {}

  static async open(file: string, format: ContactFileFormat): Promise<ErrorsFile> {
    const stream = createWriteStream(file, { encoding: 'utf8' });
    try {
      await once(stream, 'open');
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      throw new ImportInputError(
        `cannot write the errors file ${path.basename(file)}: ${typeof code === 'string' ? code : String(error)}`,
        'unreadable',
        { cause: error },
      );
    }
    return new ErrorsFile(stream, format);
  }

  /** The input's header row (CSV), before any rejection. */
  async header(raw: string, delimiter: string): Promise<void> {
    this.delimiter = delimiter;
    await this.write(`${raw}${delimiter}${IGNORED_COLUMN}\n`);
  }

  async add(rejection: { line: number; errors: readonly FieldError[]; raw: string }): Promise<void> {
    const reasons = describeRejection(rejection.line, rejection.errors);
    if (this.format === 'csv') return this.write(`${rejection.raw}${this.delimiter}${csvField(reasons, this.delimiter)}\n`);
    let object: Record<string, unknown> | null = null;
    try {
      const parsed: unknown = JSON.parse(rejection.raw);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) object = parsed as Record<string, unknown>;
    } catch {
      // not JSON: written whole under pacer_raw below
    }
    const line = object === null ? { [IGNORED_COLUMN]: reasons, pacer_raw: rejection.raw } : { ...object, [IGNORED_COLUMN]: reasons };
    await this.write(`${JSON.stringify(line)}\n`);
  }

  async close(): Promise<void> {
    this.stream.end();
    await once(this.stream, 'finish');
  }

  private async write(text: string): Promise<void> {
    if (!this.stream.write(text)) await once(this.stream, 'drain');
  }
}

export function csvField(value: string, delimiter = ','): string {
  return value.includes(delimiter) || /["\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
