import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { ImportInputError } from '../../app/contact-source.js';

/** Every rejection as CSV (line, field, reason), written as the import goes, honouring back-pressure. */
export class ErrorsFile {
  private constructor(private readonly stream: WriteStream) {}

  static async open(file: string): Promise<ErrorsFile> {
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
    const errors = new ErrorsFile(stream);
    await errors.write('line,field,reason\n');
    return errors;
  }

  async add(line: number, field: string | null, reason: string): Promise<void> {
    await this.write(`${line},${csvField(field ?? '')},${csvField(reason)}\n`);
  }

  async close(): Promise<void> {
    this.stream.end();
    await once(this.stream, 'finish');
  }

  private async write(text: string): Promise<void> {
    if (!this.stream.write(text)) await once(this.stream, 'drain');
  }
}

export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
