import type { SqlRunner } from '../sql-executor.js';

/** Ends every row of a cancelled or ended campaign that has not been sent; sent rows keep their outcome. */
export async function cancelCampaignRows(
  db: SqlRunner,
  campaignId: number,
  now: number,
  outcome: 'cancelled' | 'skipped' = 'cancelled',
): Promise<number> {
  return db.execute(
    `UPDATE outbox SET status = 'done', outcome = $3, lease_owner = NULL, lease_expires_at = NULL, updated_at = $2
WHERE campaign_id = $1 AND status IN ('queued', 'held')`,
    [campaignId, now, outcome],
  );
}
