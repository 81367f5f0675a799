import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import { isDataError, type Store, type UpsertOutcome } from '../ports/store.js';
import { importContactRecords, type ContactWrite } from './import-contact-records.js';

/** What became of one record of a batch: written (with what it did), or refused by the database for its data. */
export type RecordWrite = { ok: true; id: number; outcome: UpsertOutcome } | { ok: false; error: Error };

/**
 * Writes a batch in one transaction. When the database refuses it for its data (a key another
 * contact holds, say), each record is written again on its own, so the records at fault are found
 * and every other one still lands; a refused record leaves nothing behind. Faults of the database
 * itself (unavailable, full) are thrown.
 */
export async function writeContactBatch(
  store: Pick<Store, 'transaction'>,
  records: readonly ContactWrite[],
  source: string,
  policy: Policy,
  now: Millis,
): Promise<RecordWrite[]> {
  if (records.length === 0) return [];
  try {
    return written(await importContactRecords(store, records, source, policy, now));
  } catch (error) {
    if (!isDataError(error)) throw error;
  }
  const out: RecordWrite[] = [];
  for (const record of records) {
    try {
      out.push(...written(await importContactRecords(store, [record], source, policy, now)));
    } catch (error) {
      if (!isDataError(error)) throw error;
      out.push({ ok: false, error: error as Error });
    }
  }
  return out;
}

function written(result: { ids: number[]; outcomes: UpsertOutcome[] }): RecordWrite[] {
  return result.ids.map((id, i) => ({ ok: true, id, outcome: result.outcomes[i] ?? 'updated' }));
}
