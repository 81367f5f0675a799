import type { DeliveryStatus } from '../../../core/contact-event.js';
import type { DecisionAuditInput, MessageHistoryEntry } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { int, intOrNull } from './values.js';

/**
 * One row's decisions and status events, oldest first. Each read is an index descent (decisions and
 * message events by outbox id); events recorded before they named their row are found by the wamid
 * the row had then.
 */
export async function messageHistory(db: SqlRunner, outboxId: number, limit: number): Promise<MessageHistoryEntry[]> {
  const [decisions, named, row] = await Promise.all([
    db.query('SELECT kind, reason, explanation, until, at, id FROM decisions WHERE outbox_id = $1 ORDER BY id DESC LIMIT $2', [
      outboxId,
      limit,
    ]),
    db.query('SELECT status, error_code, at, id FROM message_events WHERE outbox_id = $1 ORDER BY id DESC LIMIT $2', [outboxId, limit]),
    db.query('SELECT wamid FROM outbox WHERE id = $1', [outboxId]),
  ]);
  const wamid = row[0]?.['wamid'];
  const older =
    named.length > 0 || wamid === null || wamid === undefined
      ? []
      : await db.query(
          'SELECT status, error_code, at, id FROM message_events WHERE wamid = $1 AND outbox_id IS NULL ORDER BY id DESC LIMIT $2',
          [String(wamid), limit],
        );
  const entries: (MessageHistoryEntry & { seq: number })[] = [
    ...decisions.map((r) => ({
      type: 'decision' as const,
      at: int(r['at']),
      kind: String(r['kind']) as DecisionAuditInput['kind'],
      reason: String(r['reason']),
      explanation: String(r['explanation']),
      until: intOrNull(r['until']),
      seq: int(r['id']),
    })),
    ...[...named, ...older].map((r) => ({
      type: 'status' as const,
      at: int(r['at']),
      status: String(r['status']) as DeliveryStatus,
      errorCode: intOrNull(r['error_code']),
      seq: int(r['id']),
    })),
  ];
  // By time; a decision comes before the status it led to when both carry the same instant.
  entries.sort((a, b) => a.at - b.at || (a.type === b.type ? a.seq - b.seq : a.type === 'decision' ? -1 : 1));
  return entries.map(({ seq: _seq, ...e }) => e);
}
