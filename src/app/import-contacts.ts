import type { CountryCode } from 'libphonenumber-js/max';
import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import type { Store } from '../ports/store.js';
import { checkContactRow, type FieldError } from './contact-row.js';
import type { ContactSource } from './contact-source.js';
import { checkHeader, columnResolver, type ColumnMap } from './import-columns.js';
import type { ContactRecord } from './import-contact-records.js';
import { maskPhone } from './normalise-phone.js';
import { PhoneLineMap } from './phone-line-map.js';
import { writeContactBatch } from './write-contact-batch.js';

/** Rows per batch (one write transaction): big enough to amortise the queries, short enough not to stall other writers long. */
export const IMPORT_BATCH_ROWS = 1_000;

export interface ImportContactsOptions {
  defaultCountry: CountryCode | null;
  /** Columns that hold a field under another name (`phone` in "Phone Number"). */
  columns?: ColumnMap;
  policy: Policy;
  /** The import's timestamp: consent is recorded as given at this time. */
  now: Millis;
  batchRows?: number;
  /** Every rejected row, in input order, with all of its problems. */
  onRejected?: (rejection: RowRejection) => void | Promise<void>;
  /** The file's header row as given, before any row (CSV only), e.g. for an errors file. */
  onHeader?: (header: { raw: string; delimiter: string }) => void | Promise<void>;
  /** A repeated phone number: the later row wins. */
  onDuplicate?: (duplicate: { line: number; firstLine: number }) => void;
  /** After each batch is written. */
  onProgress?: (progress: ImportProgress) => void;
}

export interface RowRejection {
  line: number;
  errors: FieldError[];
  /** The row's phone number, masked, when it has one. */
  phone: string | null;
  /** The row as given (full phone number included): for the errors file, never for a terminal or a log. */
  raw: string;
}

export interface ImportProgress {
  rows: number;
  bytesRead: number;
  totalBytes: number;
}

export interface ImportSummary {
  /** `import:<source name>`, the consent source recorded. */
  source: string;
  accepted: number;
  rejected: number;
  /** Contacts created and contacts matched (a phone repeated in one batch counts once). */
  created: number;
  updated: number;
  /** Rows whose phone number appeared on an earlier line. */
  duplicates: number;
}

/**
 * Imports contacts from a stream of rows (the import adapter opens files as such): rows are checked
 * as they are read and written in batches, so memory stays flat whatever the input's size. A bad row
 * is reported and skipped; it never stops the import, not even when only the database can tell it
 * is bad: a batch the database refuses for its data is written again row by row, and the rows it
 * still refuses are reported with their lines while every other row is imported. Importing the same
 * rows again creates nothing and records no consent twice.
 */
export async function importContacts(
  store: Pick<Store, 'transaction'>,
  source: ContactSource,
  options: ImportContactsOptions,
): Promise<ImportSummary> {
  const summary: ImportSummary = { source: `import:${source.name}`, accepted: 0, rejected: 0, created: 0, updated: 0, duplicates: 0 };
  const batchRows = options.batchRows ?? IMPORT_BATCH_ROWS;
  const resolve = columnResolver(options.columns ?? {});
  const seen = new PhoneLineMap();
  let batch: ContactRecord[] = [];
  /** The input rows behind each record of `batch` (more than one when a number repeats in the batch). */
  let origins: Array<Array<{ line: number; raw: string }>> = [];
  /** Index in `batch` by phone, so a number repeated within a batch is merged into one record. */
  let inBatch = new Map<string, number>();

  const reject = async (rejection: RowRejection): Promise<void> => {
    summary.rejected += 1;
    await options.onRejected?.(rejection);
  };
  const flush = async (): Promise<void> => {
    const writes = await writeContactBatch(store, batch, summary.source, options.policy, options.now);
    for (const [i, write] of writes.entries()) {
      if (write.ok) {
        if (write.outcome === 'created') summary.created += 1;
        else summary.updated += 1;
        continue;
      }
      // The database refused this record for its data: its rows are rejected, every other one imported.
      const reason = `the database refused this row: ${write.error.message}`;
      for (const origin of origins[i]!) {
        summary.accepted -= 1;
        await reject({ ...origin, errors: [{ field: null, reason }], phone: maskPhone(batch[i]!.phoneE164) });
      }
    }
    batch = [];
    origins = [];
    inBatch = new Map();
    options.onProgress?.({ rows: summary.accepted + summary.rejected, bytesRead: source.bytesRead(), totalBytes: source.totalBytes });
  };

  for await (const row of source.rows) {
    if (row.kind === 'header') {
      checkHeader(row.columns, options.columns ?? {}, source.name);
      await options.onHeader?.({ raw: row.raw, delimiter: row.delimiter });
      continue;
    }
    const checked =
      row.kind === 'row'
        ? checkContactRow(row.values, options.defaultCountry, resolve)
        : { ok: false as const, errors: [{ field: null, reason: row.reason }], phone: null };
    if (!checked.ok) {
      await reject({ line: row.line, errors: checked.errors, phone: checked.phone, raw: row.raw });
      continue;
    }
    summary.accepted += 1;
    const record = checked.record;
    const firstLine = seen.firstLineOf(record.phoneE164, row.line);
    if (firstLine !== undefined) {
      summary.duplicates += 1;
      options.onDuplicate?.({ line: row.line, firstLine });
    }
    const at = inBatch.get(record.phoneE164);
    if (at === undefined) {
      inBatch.set(record.phoneE164, batch.length);
      batch.push(record);
      origins.push([{ line: row.line, raw: row.raw }]);
    } else {
      batch[at] = mergeLaterRow(batch[at]!, record);
      origins[at]!.push({ line: row.line, raw: row.raw });
    }
    if (batch.length >= batchRows) await flush();
  }
  await flush();
  return summary;
}

/** The same contact twice in a batch: what the later row states wins, as the upsert does across batches. */
function mergeLaterRow(earlier: ContactRecord, later: ContactRecord): ContactRecord {
  return {
    phoneE164: later.phoneE164,
    name: later.name ?? earlier.name,
    consent: { ...earlier.consent, ...later.consent },
    tags: [...new Set([...earlier.tags, ...later.tags])],
    attributes: { ...earlier.attributes, ...later.attributes },
  };
}
