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

/** A resumed campaign's rows that waited for an operator's fix go back in line. */
export async function releaseHeldRows(db: SqlRunner, campaignId: number, codes: readonly number[], now: number): Promise<number> {
  if (codes.length === 0) return 0;
  const list = codes.map((_, i) => `$${i + 3}`).join(', ');
  const released = await db.execute(
    `UPDATE outbox SET status = 'queued', next_attempt_at = $2, updated_at = $2
WHERE campaign_id = $1 AND status = 'held' AND last_error_code IN (${list})`,
    [campaignId, now, ...codes],
  );
  if (released > 0) await db.notifyQueued(now);
  return released;
}
