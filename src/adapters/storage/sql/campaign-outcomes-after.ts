import { RECENT_EVENTS, type CampaignOutcome } from '../../../core/campaign-outcome-window.js';
import type { SqlRunner } from '../sql-executor.js';
import { int, intOrNull } from './values.js';

/**
 * Only first attempts count: retries go to people who were capped a day ago, fail more often by
 * nature, and are already bounded by the retry policy; counting them would pause every campaign on
 * its retry day. The walk starts at the newest events and never goes further back than
 * RECENT_EVENTS of all traffic, so a first read after a restart costs the same as a busy minute.
 */
const SQL = `SELECT e.id, o.campaign_id, e.wamid, e.status, e.error_code
FROM message_events e JOIN outbox o ON o.id = e.outbox_id
WHERE e.id > $1 AND e.id > (SELECT COALESCE(MAX(id), 0) FROM message_events) - $2
  AND e.status IN ('delivered', 'read', 'failed') AND o.campaign_id IS NOT NULL AND o.attempts <= 1
ORDER BY e.id`;

/** Where ids can appear out of order, how far below the caller's id to look again for late ones. */
const LATE_IDS = 1_000;

export async function campaignOutcomesAfter(db: SqlRunner, afterEventId: number): Promise<CampaignOutcome[]> {
  const from = db.caps.idsVisibleInOrder || afterEventId < 0 ? afterEventId : afterEventId - LATE_IDS;
  const rows = await db.query(SQL, [from, RECENT_EVENTS]);
  return rows.map((r) => ({
    eventId: int(r['id']),
    campaignId: int(r['campaign_id']),
    wamid: String(r['wamid']),
    status: r['status'] as CampaignOutcome['status'],
    errorCode: intOrNull(r['error_code']),
  }));
}
