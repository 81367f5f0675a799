import type { MessageEventInput } from '../../../ports/store.js';
import type { SqlRunner, SqlSession } from '../sql-executor.js';
import { chunks, int, valuesList } from './values.js';

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

const APPEND_MANY = (rows: string) => `INSERT INTO message_events (wamid, status, at, error_code, inbox_id, recorded_at, outbox_id)
VALUES ${rows}
ON CONFLICT (wamid, status) DO NOTHING RETURNING wamid, status`;

/**
 * One statement per chunk: rows go in in order, so of several equal (wamid, status) in the list the
 * first is inserted and the others are repeats, as calling `appendMessageEvent` in turn would find.
 */
export function appendMessageEvents(db: SqlSession, events: readonly MessageEventInput[], now: number): Promise<boolean[]> {
  if (events.length === 0) return Promise.resolve([]);
  return db.transaction('appendMessageEvents', async (tx) => {
    const inserted = new Set<string>();
    for (const group of chunks(events, 7, tx.caps)) {
      const params = group.flatMap((e) => [e.wamid, e.status, e.at, e.errorCode, e.inboxId, now, e.outboxId ?? null]);
      for (const row of await tx.query(APPEND_MANY(valuesList(group.length, 7)), params))
        inserted.add(eventKey(row['wamid'], row['status']));
    }
    return events.map((e) => inserted.delete(eventKey(e.wamid, e.status)));
  });
}

const eventKey = (wamid: unknown, status: unknown): string => `${String(wamid)}\u0000${String(status)}`;
