import type { SqlRunner } from '../sql-executor.js';
import { int } from './values.js';

/**
 * Rows of a campaign whose fate is still open: waiting to be sent, being sent, or accepted by Meta
 * less than `settleMs` ago (a failure webhook such as 131049 or 130472 may still put them back in line).
 */
export async function campaignOpenRows(db: SqlRunner, campaignId: number, now: number, settleMs: number): Promise<number> {
  const [row] = await db.query(`SELECT COUNT(*) AS n FROM outbox WHERE campaign_id = $1
  AND (status IN ('queued', 'held', 'leased', 'sending', 'unknown') OR (status = 'sent' AND outcome = 'accepted' AND updated_at > $2))`, [campaignId, now - settleMs]);
  return int(row?.['n'] ?? 0);
}
