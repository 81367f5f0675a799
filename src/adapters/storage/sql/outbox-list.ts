import type { OutboxListFilter, OutboxListRow, OutboxStatus } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { int, intOrNull, textOrNull } from './values.js';

const KIND: Record<OutboxListFilter['kind'], string> = {
  retry: `o.status = 'queued' AND o.attempts > 0`,
  held: `o.status = 'held'`,
};

/** Keyset paging by id: each page costs the same however deep the operator goes. */
export async function listOutboxRows(db: SqlRunner, f: OutboxListFilter): Promise<OutboxListRow[]> {
  const rows = await db.query(
    `SELECT o.id, o.contact_id, c.name, o.status, o.attempts, o.cap_attempts, o.next_attempt_at, o.last_error_code, o.updated_at
FROM outbox o JOIN contacts c ON c.id = o.contact_id
WHERE o.campaign_id = $1 AND ${KIND[f.kind]} AND o.id > $2
ORDER BY o.id LIMIT $3`,
    [f.campaignId, f.afterId, f.limit],
  );
  return rows.map((r) => ({
    id: int(r['id']),
    contactId: int(r['contact_id']),
    contactName: textOrNull(r['name']),
    status: String(r['status']) as OutboxStatus,
    attempts: int(r['attempts']),
    capAttempts: int(r['cap_attempts']),
    nextAttemptAt: intOrNull(r['next_attempt_at']),
    lastErrorCode: intOrNull(r['last_error_code']),
    updatedAt: int(r['updated_at']),
  }));
}
