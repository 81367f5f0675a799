import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ImportInputError, type ContactFileFormat, type ContactSource } from '../../app/contact-source.js';
import { readCsvRows } from './csv-reader.js';
import { readJsonlRows } from './jsonl-reader.js';

const EXTENSIONS: Readonly<Record<string, ContactFileFormat>> = { '.csv': 'csv', '.jsonl': 'jsonl', '.ndjson': 'jsonl' };

/** The format named by `--format`, or else by the file's extension. */
export function contactFileFormat(file: string, format: string | undefined): ContactFileFormat {
  if (format !== undefined) {
    const f = format.toLowerCase();
    if (f === 'csv') return 'csv';
    if (f === 'jsonl' || f === 'ndjson') return 'jsonl';
    throw new ImportInputError(`unknown --format "${format}": use csv or jsonl`, 'usage');
  }
  const byExtension = EXTENSIONS[path.extname(file).toLowerCase()];
  if (byExtension === undefined) {
    throw new ImportInputError(
      `cannot tell the format of ${path.basename(file)} from its extension: name it .csv, .jsonl or .ndjson, or pass --format csv|jsonl`,
      'usage',
    );
  }
  return byExtension;
}

/** Opens an import file as a stream of rows; nothing but the current chunk and batch is held in memory. */
export async function openContactSource(
  file: string,
  format: ContactFileFormat,
  options: { delimiter?: string | null } = {},
): Promise<ContactSource> {
  const name = path.basename(file);
  let totalBytes: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new ImportInputError(`cannot read ${name}: it is not a file`, 'unreadable');
    totalBytes = info.size;
  } catch (error) {
    if (error instanceof ImportInputError) throw error;
    throw unreadable(name, error);
  }
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  // A read error surfaces through the line iterator; give it the file's name and what went wrong.
  async function* safeLines(): AsyncGenerator<string> {
    try {
      yield* lines;
    } catch (error) {
      throw unreadable(name, error);
    } finally {
      lines.close();
      stream.destroy();
    }
  }
  const rows = format === 'csv' ? readCsvRows(safeLines(), name, options.delimiter ?? null) : readJsonlRows(safeLines());
  return { name, rows, totalBytes, bytesRead: () => stream.bytesRead };
}

function unreadable(name: string, error: unknown): ImportInputError {
  const code = (error as { code?: unknown } | null)?.code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'it is a folder'
          : error instanceof Error
            ? error.message
            : String(error);
  return new ImportInputError(`cannot read ${name}: ${why}`, 'unreadable', { cause: error });
}
