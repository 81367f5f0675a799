import type { ConversationWindow } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { int, intOrNull } from './values.js';

// The numbers sharing the sender's messaging limit: its business portfolio's, or itself alone.
const PORTFOLIO_OF = `SELECT p.id FROM senders p JOIN senders s ON s.id = $1
  WHERE COALESCE(p.portfolio_id, 'number:' || p.phone_number_id) = COALESCE(s.portfolio_id, 'number:' || s.phone_number_id)`;

/**
 * People the sender's portfolio (every number sharing its messaging limit) started a conversation
 * with since `since`, each counted once, and the oldest such start.
 */
export async function conversationWindow(db: SqlRunner, senderId: number, since: number): Promise<ConversationWindow> {
  const rows = await db.query(
    `SELECT COUNT(DISTINCT contact_id) AS n, MIN(opened_at) AS oldest FROM sender_conversations
WHERE sender_id IN (${PORTFOLIO_OF}) AND opened_at > $2`,
    [senderId, since],
  );
  return { people: int(rows[0]?.['n'] ?? 0), oldestAt: intOrNull(rows[0]?.['oldest'] ?? null) };
}

/** When the portfolio's latest conversation with the contact started (from any of its numbers), or null if never. */
export async function conversationOpenedAt(db: SqlRunner, senderId: number, contactId: number): Promise<number | null> {
  const rows = await db.query(
    `SELECT MAX(opened_at) AS opened_at FROM sender_conversations WHERE sender_id IN (${PORTFOLIO_OF}) AND contact_id = $2`,
    [senderId, contactId],
  );
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
