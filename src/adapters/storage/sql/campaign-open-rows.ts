import type { SqlRunner } from '../sql-executor.js';

/**
 * Whether a campaign has rows whose fate is still open (1) or not (0): waiting to be sent, being sent, or accepted by Meta
 * less than `settleMs` ago (a failure webhook such as 131049 or 130472 may still put them back in line).
 */
export async function campaignOpenRows(db: SqlRunner, campaignId: number, now: number, settleMs: number): Promise<number> {
  // Each branch walks the (campaign_id, status, updated_at) index and stops at the first row found.
  const open = await db.query(
    `SELECT 1 AS x FROM outbox WHERE campaign_id = $1 AND status IN ('queued', 'held', 'leased', 'sending', 'unknown') LIMIT 1`,
    [campaignId],
  );
  if (open.length > 0) return 1;
  const recent = await db.query(
    `SELECT 1 AS x FROM outbox WHERE campaign_id = $1 AND status = 'sent' AND updated_at > $2 AND outcome = 'accepted' LIMIT 1`,
    [campaignId, now - settleMs],
  );
  return recent.length;
}
