import type { PrunedEvents } from '../../../ports/store.js';
import type { SqlSession } from '../sql-executor.js';
import { chunks, inList, int } from './values.js';

/**
 * The oldest events that occurred before the cut-off and that nothing still owes: no delivery of
 * theirs is pending (claimed ones are pending too). Read by the occurred_at index, oldest first.
 */
const SETTLED_BEFORE = `SELECT e.id FROM outbound_events e
WHERE e.occurred_at < $1
  AND NOT EXISTS (SELECT 1 FROM event_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
ORDER BY e.occurred_at, e.id
LIMIT $2`;

/**
 * Deletes up to `limit` such events with their deliveries and attempts, in one transaction. A
 * replay that makes one of their deliveries pending meanwhile wins: that delivery, and so its event,
 * stay (PostgreSQL re-checks `status` on the rows it waited for; SQLite holds the write lock).
 */
export function pruneOutboundEvents(db: SqlSession, occurredBefore: number, limit: number): Promise<PrunedEvents> {
  return db.transaction('pruneOutboundEvents', async (tx) => {
    const ids = (await tx.query(SETTLED_BEFORE, [occurredBefore, limit])).map((r) => int(r['id']));
    const pruned: PrunedEvents = { events: 0, deliveries: 0, attempts: 0 };
    for (const part of chunks(ids, 1, tx.caps)) {
      // Explicitly, not by ON DELETE CASCADE: SQLite enforces foreign keys only when told to.
      pruned.attempts += await tx.execute(
        `DELETE FROM event_delivery_attempts WHERE delivery_id IN
          (SELECT id FROM event_deliveries WHERE event_id IN (${inList(part.length)}) AND status <> 'pending')`,
        part,
      );
      pruned.deliveries += await tx.execute(
        `DELETE FROM event_deliveries WHERE event_id IN (${inList(part.length)}) AND status <> 'pending'`,
        part,
      );
      pruned.events += await tx.execute(
        `DELETE FROM outbound_events WHERE id IN (${inList(part.length)})
          AND NOT EXISTS (SELECT 1 FROM event_deliveries d WHERE d.event_id = outbound_events.id)`,
        part,
      );
    }
    return pruned;
  });
}
