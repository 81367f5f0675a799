import type { Command } from 'commander';
import { ImportInputError } from '../../app/contact-source.js';
import { parseColumnMap, type ColumnMap } from '../../app/import-columns.js';
import { CliFailure, EXIT } from './exit-codes.js';

/** How a contacts file is read, as given on the command line: the same for `import contacts` and `lab`. */
export interface ContactFileFlags {
  format?: string;
  map?: string[];
  delimiter?: string;
}

/** `--format`, `--map` and `--delimiter`, worded once for every command that reads a contacts file. */
export function withContactFileFlags(c: Command): Command {
  return c
    .option('--format <format>', 'csv or jsonl (default: from the file extension)')
    .option(
      '--map <field=column,...>',
      'columns named otherwise: phone="Phone Number",consent_marketing=Opt-in (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .option('--delimiter <char>', 'CSV field separator: , ; | or tab (default: told from the header row)');
}

/** Every `--map` given, as one map (a later pair for the same field wins). */
export function columnMapOf(maps: readonly string[] | undefined): ColumnMap {
  return Object.assign({}, ...(maps ?? []).map(parseColumnMap)) as ColumnMap;
}

/** `--delimiter`: one character, with `tab` and `\t` for a tab. */
export function delimiterOf(value: string | undefined): string | null {
  if (value === undefined) return null;
  const d = value === 'tab' || value === '\\t' ? '\t' : value;
  if (d.length !== 1 || d === '"' || /[\r\n]/.test(d)) {
    throw new CliFailure(`--delimiter "${value}" must be one character other than a quote (e.g. , ; | or tab)`, EXIT.usage);
  }
  return d;
}

/** Input problems become CLI failures: usage errors exit 2, unreadable files exit 1. */
export function asCli<T>(work: () => T): T {
  const wrap = (error: unknown): never => {
    if (error instanceof ImportInputError) throw new CliFailure(error.message, error.kind === 'usage' ? EXIT.usage : EXIT.failure);
    throw error;
  };
  try {
    const result = work();
    return (result instanceof Promise ? result.catch(wrap) : result) as T;
  } catch (error) {
    return wrap(error);
  }
}
