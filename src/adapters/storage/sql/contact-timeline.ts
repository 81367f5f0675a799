import type { Category } from '../../../core/category.js';
import type { ConsentStatus, DeliveryStatus } from '../../../core/contact-event.js';
import type { DecisionAuditInput, TimelineEntry } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { int, intOrNull } from './values.js';

/** Consent changes, decisions and delivery events of one contact, newest first. */
export async function contactTimeline(db: SqlRunner, contactId: number, limit: number): Promise<TimelineEntry[]> {
  const [consents, decisions, events] = await Promise.all([
    db.query('SELECT category, status, source, at, id FROM consent_events WHERE contact_id = $1 ORDER BY at DESC, id DESC LIMIT $2', [
      contactId,
      limit,
    ]),
    db.query(
      'SELECT outbox_id, kind, reason, explanation, at, id FROM decisions WHERE contact_id = $1 ORDER BY at DESC, id DESC LIMIT $2',
      [contactId, limit],
    ),
    db.query(
      // Events name their row (callback data) or, for older ones, only the wamid it had then.
      `SELECT o.id AS outbox_id, e.wamid, e.status, e.error_code, e.at, e.id FROM message_events e
JOIN outbox o ON o.id = e.outbox_id OR (e.outbox_id IS NULL AND o.wamid = e.wamid)
WHERE o.contact_id = $1 ORDER BY e.at DESC, e.id DESC LIMIT $2`,
      [contactId, limit],
    ),
  ]);
  const entries: TimelineEntry[] = [
    ...consents.map((r): TimelineEntry => ({
      type: 'consent',
      at: int(r['at']),
      category: String(r['category']) as Category,
      status: String(r['status']) as ConsentStatus,
      source: String(r['source']),
    })),
    ...decisions.map((r): TimelineEntry => ({
      type: 'decision',
      at: int(r['at']),
      outboxId: intOrNull(r['outbox_id']),
      kind: String(r['kind']) as DecisionAuditInput['kind'],
      reason: String(r['reason']),
      explanation: String(r['explanation']),
    })),
    ...events.map((r): TimelineEntry => ({
      type: 'message_event',
      at: int(r['at']),
      outboxId: int(r['outbox_id']),
      wamid: String(r['wamid']),
      status: String(r['status']) as DeliveryStatus,
      errorCode: intOrNull(r['error_code']),
    })),
  ];
  // Stable sort: equal times keep consent, decision, event order.
  return entries.sort((a, b) => b.at - a.at).slice(0, limit);
}
