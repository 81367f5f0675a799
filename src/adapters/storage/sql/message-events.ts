import type { MessageEventInput } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';

const APPEND = `INSERT INTO message_events (wamid, status, at, error_code, inbox_id, recorded_at, outbox_id)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (wamid, status) DO NOTHING RETURNING id`;

/** Meta delivers webhooks at least once; the (wamid, status) key makes a redelivery a no-op. */
export async function appendMessageEvent(db: SqlRunner, event: MessageEventInput, now: number): Promise<{ inserted: boolean }> {
  const rows = await db.query(APPEND, [event.wamid, event.status, event.at, event.errorCode, event.inboxId, now, event.outboxId ?? null]);
  return { inserted: rows.length === 1 };
}
