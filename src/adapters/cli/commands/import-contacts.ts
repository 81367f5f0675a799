import path from 'node:path';
import type { CountryCode } from 'libphonenumber-js/max';
import type { ContactFileFormat } from '../../../app/contact-source.js';
import type { ColumnMap } from '../../../app/import-columns.js';
import { importContacts, type ImportSummary } from '../../../app/import-contacts.js';
import { isCountryCode } from '../../../app/normalise-phone.js';
import type { Store } from '../../../ports/store.js';
import type { CliCommand, CliDeps } from '../cli-command.js';
import type { ContactFiles } from '../contact-files.js';
import { asCli, columnMapOf, delimiterOf, withContactFileFlags, type ContactFileFlags } from '../contact-file-flags.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { createProgressBar } from '../import-progress.js';
import { renderImportReport, type ImportReport } from '../render-import-report.js';

/** Errors and notes listed in the output; the rest are counted (and all errors go to --errors FILE). */
const LISTED_LIMIT = 1_000;

interface ImportContactsCliOptions extends ContactFileFlags {
  defaultCountry?: string;
  errors?: string;
  json?: boolean;
}

interface ContactImportPlan {
  file: string;
  format: ContactFileFormat;
  defaultCountry: CountryCode | null;
  columns: ColumnMap;
  delimiter: string | null;
  errorsFile: string | null;
  json: boolean;
}

export const importContactsCommand: CliCommand = {
  path: ['import', 'contacts'],
  define: (c) =>
    withContactFileFlags(
      c
        .description('Import contacts and their consent from CSV (header row) or JSON Lines; streamed, idempotent')
        .argument('<file>', 'a .csv file with a header row naming a phone column, or .jsonl / .ndjson'),
    )
      .option(
        '--default-country <XX>',
        'country of numbers in national format (ISO code, e.g. GB); digits that form a valid international number are read as one',
      )
      .option('--errors <file>', 'write every refused row as given, with a pacer_error column, to this file (same format as the input)')
      .option('--json', 'JSON summary: accepted, rejected, created, updated, errors'),
  run: (deps) => async (file: string, opts: ImportContactsCliOptions) => {
    const plan = planContactImport(deps.contactFiles, file, opts);
    await deps.withStore(async (store) => void (await runContactImport(store, plan, deps)));
  },
};

/** Checks the arguments before anything is opened: a usage error exits 2 and touches no database. */
function planContactImport(files: ContactFiles, file: string, opts: ImportContactsCliOptions): ContactImportPlan {
  const country = opts.defaultCountry?.toUpperCase();
  if (country !== undefined && !isCountryCode(country)) {
    throw new CliFailure(`--default-country "${opts.defaultCountry}" is not a known two-letter country code (e.g. GB, US, IN)`, EXIT.usage);
  }
  return {
    file: path.resolve(file),
    format: asCli(() => files.formatOf(file, opts.format)),
    defaultCountry: country ?? null,
    columns: asCli(() => columnMapOf(opts.map)),
    delimiter: delimiterOf(opts.delimiter),
    errorsFile: opts.errors ?? null,
    json: opts.json === true,
  };
}

/** Runs the import and prints the report; exits 1 (after printing) when any row was rejected. */
async function runContactImport(
  store: Pick<Store, 'transaction'>,
  plan: ContactImportPlan,
  deps: Pick<CliDeps, 'contactFiles' | 'policy' | 'now' | 'out' | 'terminal'>,
): Promise<ImportReport> {
  const errorsFile = plan.errorsFile === null ? null : await asCli(() => deps.contactFiles.openErrorsFile(plan.errorsFile!, plan.format));
  const name = path.basename(plan.file);
  const errors: ImportReport['errors'] = [];
  const notes: ImportReport['notes'] = [];
  let errorsNotListed = 0;
  let notesNotListed = 0;
  const bar = deps.terminal === null || plan.json ? null : createProgressBar({ ...deps.terminal, label: name });
  let summary: ImportSummary;
  try {
    const source = await asCli(() => deps.contactFiles.open(plan.file, plan.format, { delimiter: plan.delimiter }));
    summary = await asCli(() =>
      importContacts(store, source, {
        defaultCountry: plan.defaultCountry,
        columns: plan.columns,
        policy: deps.policy(),
        now: deps.now(),
        onHeader: async ({ raw, delimiter }) => errorsFile?.header(raw, delimiter),
        onRejected: async ({ line, errors: rowErrors, phone, raw }) => {
          for (const e of rowErrors) {
            if (errors.length < LISTED_LIMIT) errors.push({ line, field: e.field, reason: e.reason, phone });
            else errorsNotListed += 1;
          }
          await errorsFile?.add({ line, errors: rowErrors, raw });
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
    const n = (count: number) => count.toLocaleString('en-US');
    const were = (count: number) => (count === 1 ? 'was' : 'were');
    const total = report.accepted + report.rejected;
    throw new CliFailure(
      report.accepted === 0
        ? `${total === 1 ? 'the only row was' : `all ${n(total)} rows were`} rejected; nothing was imported`
        : `${n(report.rejected)} of ${n(total)} rows ${were(report.rejected)} rejected; the other ${n(report.accepted)} ${were(report.accepted)} imported`,
      EXIT.failure,
    );
  }
  return report;
}
