import type { SenderChange, SenderChangeInput, SenderState } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { int, textOrNull } from './values.js';

const INSERT = `INSERT INTO sender_changes (sender_id, at, quality_rating, messaging_limit_tier, state, state_reason, source)
VALUES ($1, $2, $3, $4, $5, $6, $7)`;

export async function recordSenderChange(db: SqlRunner, c: SenderChangeInput): Promise<void> {
  await db.execute(INSERT, [c.senderId, c.at, c.qualityRating, c.messagingLimitTier, c.state, c.stateReason, c.source]);
}

/** The latest `limit` changes since `since`, returned oldest first (what a chart draws). */
export async function senderChanges(db: SqlRunner, senderId: number, since: number, limit: number): Promise<SenderChange[]> {
  const rows = await db.query('SELECT * FROM sender_changes WHERE sender_id = $1 AND at >= $2 ORDER BY at DESC, id DESC LIMIT $3', [
    senderId,
    since,
    limit,
  ]);
  return rows.reverse().map((r) => ({
    id: int(r['id']),
    senderId: int(r['sender_id']),
    at: int(r['at']),
    qualityRating: textOrNull(r['quality_rating']),
    messagingLimitTier: textOrNull(r['messaging_limit_tier']),
    state: String(r['state']) as SenderState,
    stateReason: textOrNull(r['state_reason']),
    source: String(r['source']),
  }));
}
