import type { CountryCode } from 'libphonenumber-js/max';
import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import type { ContactStore, Store, UpsertOutcome } from '../ports/store.js';
import { explainRefusal } from './contact-conflict.js';
import { checkContactInput, type ContactUpsertInput } from './contact-input.js';
import type { FieldError } from './contact-row.js';
import type { ContactWrite } from './import-contact-records.js';
import { writeContactBatch } from './write-contact-batch.js';

/** Rows per write transaction, as an import's batch: few commits, and other writers never wait long. */
export const UPSERT_CHUNK_ROWS = 1_000;

/** What became of one row: written, refused for its content (`invalid`), or because its identifiers belong to others (`conflict`). */
export type RowOutcome =
  { status: UpsertOutcome; contactId: number } | { status: 'error'; kind: 'invalid' | 'conflict'; errors: FieldError[] };

export interface UpsertContactRowsOptions {
  defaultCountry: CountryCode | null;
  /** Where the caller sets the default country, named in the reason a number without country code gets. */
  countryOption: string;
  policy: Policy;
  now: Millis;
  /** Recorded as the consent source of a row whose statement names none; statements here always name one. */
  source: string;
  chunkRows?: number;
}

/**
 * Upserts contacts as an import does, one outcome per row in input order. Every row is checked
 * first and a bad one is reported, never written; the good ones are written a chunk per
 * transaction, and a chunk the database refuses is written again row by row, so a refused row
 * leaves nothing behind while every other row lands. A row stating only what is stored is `unchanged`.
 */
export async function upsertContactRows(
  store: Pick<Store, 'transaction'> & Pick<ContactStore, 'findContact'>,
  inputs: readonly ContactUpsertInput[],
  options: UpsertContactRowsOptions,
): Promise<RowOutcome[]> {
  const outcomes: RowOutcome[] = new Array<RowOutcome>(inputs.length);
  const chunkRows = options.chunkRows ?? UPSERT_CHUNK_ROWS;
  let chunk: Array<{ at: number; record: ContactWrite }> = [];
  const flush = async (): Promise<void> => {
    const writes = await writeContactBatch(
      store,
      chunk.map((c) => c.record),
      options.source,
      options.policy,
      options.now,
    );
    for (const [i, write] of writes.entries()) {
      const { at, record } = chunk[i]!;
      outcomes[at] = write.ok
        ? { status: write.outcome, contactId: write.id }
        : { status: 'error', kind: 'conflict', errors: await explainRefusal(store, record, write.error) };
    }
    chunk = [];
  };
  for (const [at, input] of inputs.entries()) {
    const checked = checkContactInput(input, options.defaultCountry, options.countryOption);
    if (!checked.ok) {
      outcomes[at] = { status: 'error', kind: 'invalid', errors: checked.errors };
      continue;
    }
    chunk.push({ at, record: checked.record });
    if (chunk.length >= chunkRows) await flush();
  }
  if (chunk.length > 0) await flush();
  return outcomes;
}
