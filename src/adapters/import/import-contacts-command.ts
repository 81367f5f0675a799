import path from 'node:path';
import type { CountryCode } from 'libphonenumber-js/max';
import { importContactsFile, type ImportSummary } from '../../app/import-contacts-file.js';
import type { Policy } from '../../core/policy.js';
import type { Store } from '../../ports/store.js';
import { CliFailure, EXIT } from '../cli/exit-codes.js';
import { ErrorsFile } from './errors-file.js';
import { createProgressBar } from './import-progress.js';
import { isCountryCode } from './normalise-phone.js';
import { contactFileFormat } from './open-contact-source.js';
import { renderImportReport } from './render-import-report.js';
import { ImportInputError, type ContactFileFormat } from './source-row.js';

/** Errors and notes listed in the output; the rest are counted (and all errors go to --errors FILE). */
export const LISTED_LIMIT = 1_000;

export interface ImportContactsCliOptions {
  format?: string;
  defaultCountry?: string;
  errors?: string;
  json?: boolean;
}

export interface ContactImportPlan {
  file: string;
  format: ContactFileFormat;
  defaultCountry: CountryCode | null;
  errorsFile: string | null;
  json: boolean;
}

export interface ImportReport extends ImportSummary {
  file: string;
  format: ContactFileFormat;
  errors: Array<{ line: number; field: string | null; reason: string; phone: string | null }>;
  errorsNotListed: number;
  notes: Array<{ line: number; note: string }>;
  notesNotListed: number;
}

/** Checks the arguments before anything is opened: a usage error exits 2 and touches no database. */
export function planContactImport(file: string, opts: ImportContactsCliOptions): ContactImportPlan {
  const country = opts.defaultCountry?.toUpperCase();
  if (country !== undefined && !isCountryCode(country)) {
    throw new CliFailure(`--default-country "${opts.defaultCountry}" is not a known two-letter country code (e.g. GB, US, IN)`, EXIT.usage);
  }
  return { file: path.resolve(file), format: asCli(() => contactFileFormat(file, opts.format)), defaultCountry: country ?? null, errorsFile: opts.errors ?? null, json: opts.json === true };
}

export interface RunImportDeps {
  policy: Policy;
  now: number;
  out: (text: string) => void;
  /** The terminal the progress bar is drawn on; null for none (not a TTY, or --json). */
  progress: { write: (text: string) => void; now: () => number } | null;
}

/** Runs the import and prints the report; exits 1 (after printing) when any row was rejected. */
export async function runContactImport(store: Pick<Store, 'transaction'>, plan: ContactImportPlan, deps: RunImportDeps): Promise<ImportReport> {
  const errorsFile = plan.errorsFile === null ? null : await asCli(() => ErrorsFile.open(plan.errorsFile!));
  const name = path.basename(plan.file);
  const errors: ImportReport['errors'] = [];
  const notes: ImportReport['notes'] = [];
  let errorsNotListed = 0;
  let notesNotListed = 0;
  const bar = deps.progress === null || plan.json ? null : createProgressBar({ ...deps.progress, label: name });
  let summary: ImportSummary;
  try {
    summary = await asCli(() =>
      importContactsFile(store, {
        file: plan.file,
        format: plan.format,
        defaultCountry: plan.defaultCountry,
        policy: deps.policy,
        now: deps.now,
        onRejected: async ({ line, errors: rowErrors, phone }) => {
          for (const e of rowErrors) {
            if (errors.length < LISTED_LIMIT) errors.push({ line, field: e.field, reason: e.reason, phone });
            else errorsNotListed += 1;
            await errorsFile?.add(line, e.field, e.reason);
          }
        },
        onDuplicate: ({ line, firstLine }) => {
          if (notes.length < LISTED_LIMIT) notes.push({ line, note: `same phone number as line ${firstLine}; this later row wins` });
          else notesNotListed += 1;
        },
        onProgress: (p) => bar?.update(p),
      }),
    );
  } finally {
    bar?.done();
    await errorsFile?.close();
  }
  const report: ImportReport = { file: name, format: plan.format, ...summary, errors, errorsNotListed, notes, notesNotListed };
  deps.out(plan.json ? JSON.stringify(report, null, 2) : renderImportReport(report, plan.errorsFile));
  if (report.rejected > 0) {
    throw new CliFailure(`${report.rejected.toLocaleString('en-US')} of ${(report.accepted + report.rejected).toLocaleString('en-US')} rows were rejected; the accepted rows were imported`, EXIT.failure);
  }
  return report;
}

/** Input problems become CLI failures: usage errors exit 2, unreadable files exit 1. */
function asCli<T>(work: () => T): T {
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
