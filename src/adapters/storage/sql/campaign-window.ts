import type { CampaignWindow } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { int } from './values.js';

/**
 * The campaign's latest `limit` final delivery events: how many messages they cover, how many hit
 * the per-user cap, how many hit account-level stops. Feeds the campaign breaker.
 * Only first attempts count: retries go to people who were capped a day ago, fail more often by
 * nature, and are already bounded by the retry policy; counting them would pause every campaign on
 * its retry day.
 * `+o.campaign_id` keeps SQLite from starting at the campaign index and sorting every event of a
 * large campaign: it walks the newest events backwards and stops after `limit`. The walk never goes
 * further back than the last RECENT_EVENTS events of all traffic (minutes at full rate), so other
 * campaigns' and one-off messages' events cannot make it long: the breaker is about now.
 */
/** How far back in all message events a campaign window may look. */
const RECENT_EVENTS = 5_000;

export async function campaignWindow(
  db: SqlRunner,
  campaignId: number,
  limit: number,
  capCodes: readonly number[],
  stopCodes: readonly number[],
): Promise<CampaignWindow> {
  const sql = `WITH recent AS (
  SELECT e.wamid, e.status, e.error_code FROM message_events e JOIN outbox o ON o.id = e.outbox_id
  WHERE +o.campaign_id = $1 AND o.attempts <= 1 AND e.status IN ('delivered', 'read', 'failed')
    AND e.id > (SELECT COALESCE(MAX(id), 0) FROM message_events) - ${RECENT_EVENTS}
  ORDER BY e.id DESC LIMIT $2
)
SELECT COUNT(DISTINCT wamid) AS outcomes,
  COUNT(DISTINCT CASE WHEN status = 'failed' AND error_code IN (${capCodes.map((_, i) => `$${i + 3}`).join(', ') || 'NULL'}) THEN wamid END) AS caps,
  COUNT(DISTINCT CASE WHEN status = 'failed' AND error_code IN (${stopCodes.map((_, i) => `$${i + 3 + capCodes.length}`).join(', ') || 'NULL'}) THEN wamid END) AS stops
FROM recent`;
  const [row] = await db.query(sql, [campaignId, limit, ...capCodes, ...stopCodes]);
  return { outcomes: int(row?.['outcomes'] ?? 0), caps: int(row?.['caps'] ?? 0), accountStops: int(row?.['stops'] ?? 0) };
}
