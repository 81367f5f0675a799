import type { ConversationWindow } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { int, intOrNull } from './values.js';

/** People this number started a conversation with since `since`, and the oldest such start. */
export async function conversationWindow(db: SqlRunner, senderId: number, since: number): Promise<ConversationWindow> {
  const rows = await db.query(
    'SELECT COUNT(*) AS n, MIN(opened_at) AS oldest FROM sender_conversations WHERE sender_id = $1 AND opened_at > $2',
    [senderId, since],
  );
  return { people: int(rows[0]?.['n'] ?? 0), oldestAt: intOrNull(rows[0]?.['oldest'] ?? null) };
}

/** When this number's current conversation with the contact started, or null if never. */
export async function conversationOpenedAt(db: SqlRunner, senderId: number, contactId: number): Promise<number | null> {
  const rows = await db.query('SELECT opened_at FROM sender_conversations WHERE sender_id = $1 AND contact_id = $2', [senderId, contactId]);
  return intOrNull(rows[0]?.['opened_at'] ?? null);
}

/** Starts a conversation at `at` unless one started less than `windowMs` before is still counted. */
export async function recordConversation(db: SqlRunner, senderId: number, contactId: number, at: number, windowMs: number): Promise<void> {
  await db.execute(
    `INSERT INTO sender_conversations (sender_id, contact_id, opened_at) VALUES ($1, $2, $3)
ON CONFLICT (sender_id, contact_id) DO UPDATE SET opened_at = excluded.opened_at WHERE sender_conversations.opened_at <= $4`,
    [senderId, contactId, at, at - windowMs],
  );
}
