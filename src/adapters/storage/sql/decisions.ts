import type { DecisionAuditInput } from '../../../ports/store.js';
import type { SqlParam, SqlSession } from '../sql-executor.js';
import { chunks, valuesList } from './values.js';

const WIDTH = 7;

/** Append-only audit of every decision, so "why did this contact get (or not get) this" has an answer. */
export function appendDecisions(db: SqlSession, entries: readonly DecisionAuditInput[]): Promise<void> {
  if (entries.length === 0) return Promise.resolve();
  return db.transaction('appendDecisions', async (tx) => {
    for (const chunk of chunks(entries, WIDTH, tx.caps)) {
      const params: SqlParam[] = chunk.flatMap((d) => [d.outboxId, d.contactId, d.kind, d.reason, d.explanation, d.until, d.at]);
      await tx.execute(
        `INSERT INTO decisions (outbox_id, contact_id, kind, reason, explanation, until, at) VALUES ${valuesList(chunk.length, WIDTH)}`,
        params,
      );
    }
  });
}
