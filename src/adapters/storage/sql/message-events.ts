import type { MessageEventInput } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { int } from './values.js';

const APPEND = `INSERT INTO message_events (wamid, status, at, error_code, inbox_id, recorded_at, outbox_id)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (wamid, status) DO NOTHING RETURNING id`;

/** Meta delivers webhooks at least once; the (wamid, status) key makes a redelivery a no-op. */
export async function appendMessageEvent(db: SqlRunner, event: MessageEventInput, now: number): Promise<{ inserted: boolean }> {
  const rows = await db.query(APPEND, [event.wamid, event.status, event.at, event.errorCode, event.inboxId, now, event.outboxId ?? null]);
  return { inserted: rows.length === 1 };
}

/** The newest message event's id: when it has not moved, no campaign window has changed either. */
export async function latestMessageEventId(db: SqlRunner): Promise<number> {
  const [row] = await db.query('SELECT MAX(id) AS id FROM message_events', []);
  return int(row?.['id'] ?? 0);
}
