import type { DeliveryFunnel } from '../../../ports/store.js';
import type { SqlParam, SqlRunner } from '../sql-executor.js';
import { int } from './values.js';

// One pass over the rows (the campaign index narrows it to one campaign); "replied" looks up each
// accepted row's contact in the inbound index, so it stays an index probe per row.
const FUNNEL = (where: string) => `SELECT COUNT(*) AS audience,
  SUM(CASE WHEN o.outcome IS NULL OR o.outcome <> 'skipped' THEN 1 ELSE 0 END) AS eligible,
  SUM(CASE WHEN o.attempts > 0 THEN 1 ELSE 0 END) AS attempted,
  SUM(CASE WHEN o.wamid IS NOT NULL THEN 1 ELSE 0 END) AS accepted,
  SUM(CASE WHEN o.status = 'held' THEN 1 ELSE 0 END) AS held,
  SUM(CASE WHEN o.outcome IN ('delivered', 'read') THEN 1 ELSE 0 END) AS delivered,
  SUM(CASE WHEN o.outcome = 'read' THEN 1 ELSE 0 END) AS "read",
  SUM(CASE WHEN o.wamid IS NOT NULL AND EXISTS (
    SELECT 1 FROM inbound_messages i WHERE i.contact_id = o.contact_id AND i.at >= o.created_at
  ) THEN 1 ELSE 0 END) AS replied
FROM outbox o WHERE ${where}`;

export async function deliveryFunnel(db: SqlRunner, campaignId: number | null): Promise<DeliveryFunnel> {
  const [sql, params]: [string, SqlParam[]] =
    campaignId === null ? [FUNNEL('o.campaign_id IS NOT NULL'), []] : [FUNNEL('o.campaign_id = $1'), [campaignId]];
  const [row = {}] = await db.query(sql, params);
  // SUM over no rows is NULL: int(null) is 0.
  return {
    audience: int(row['audience']),
    eligible: int(row['eligible']),
    attempted: int(row['attempted']),
    accepted: int(row['accepted']),
    held: int(row['held']),
    delivered: int(row['delivered']),
    read: int(row['read']),
    replied: int(row['replied']),
  };
}
