import type { Category } from '../../../core/category.js';
import type { CampaignSends, DiagnosisScope, TemplateSends, UsageCounts } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { scopeSql } from './diagnosis-scope.js';
import { inList, int, intOrNull, jsonValue } from './values.js';

/**
 * Per template (or per campaign, i.e. per segment) of the scope: messages, delivery, reads, failures,
 * caps, marketing stops (each stop counts for the last marketing message the recipient was sent before
 * it), and the block proxy (accepted long ago, never delivered, while the same recipient was delivered
 * another of our messages: Meta never reports a block itself).
 */
export async function diagnosisTemplates(db: SqlRunner, scope: DiagnosisScope): Promise<TemplateSends[]> {
  return (await usageBy(db, scope, 'template_id')).map(({ groupId, ...counts }) => ({ templateId: groupId, ...counts }));
}

/** The same counts per campaign; one-off messages (no campaign) are left out. */
export async function diagnosisCampaigns(db: SqlRunner, scope: DiagnosisScope): Promise<CampaignSends[]> {
  const rows = await usageBy(db, scope, 'campaign_id');
  return rows.flatMap(({ groupId, ...counts }) => (groupId === null ? [] : [{ campaignId: groupId, ...counts }]));
}

async function usageBy(
  db: SqlRunner,
  scope: DiagnosisScope,
  column: 'template_id' | 'campaign_id',
): Promise<Array<UsageCounts & { groupId: number | null }>> {
  const { cte, params, next } = scopeSql(scope);
  // Cap codes follow `silentBefore`; every bound parameter must appear in the text (PostgreSQL).
  const capList = scope.capCodes.length === 0 ? 'NULL' : inList(scope.capCodes.length, next + 1);
  const stoppedAt = jsonValue(db.caps, 'cs.state', ['marketing', 'stopped', 'at'], 'number');
  // Joins with per-row aggregates, not correlated EXISTS: SQLite would re-run the CTEs for every row.
  const rows = await db.query(
    `${cte},
fail_rows AS (SELECT id, MAX(CASE WHEN code IN (${capList}) THEN 1 ELSE 0 END) AS capped FROM fails GROUP BY id),
stop_cause AS (
  SELECT s.id, ROW_NUMBER() OVER (PARTITION BY s.contact_id ORDER BY s.sent_at DESC, s.id DESC) AS nth
  FROM scoped s JOIN contact_states cs ON cs.contact_id = s.contact_id
  WHERE s.category = 'marketing' AND ${stoppedAt} >= $1 AND ${stoppedAt} < $2 AND s.sent_at <= ${stoppedAt}
),
delivered_contacts AS (SELECT DISTINCT o2.contact_id, o2.id FROM outbox o2 JOIN scoped s ON s.contact_id = o2.contact_id WHERE o2.outcome IN ('delivered', 'read')),
silent_rows AS (
  SELECT s.id FROM scoped s WHERE s.outcome = 'accepted' AND s.updated_at < $${next}
    AND EXISTS (SELECT 1 FROM delivered_contacts dc WHERE dc.contact_id = s.contact_id AND dc.id <> s.id)
)
SELECT s.${column} AS group_id, s.category, COUNT(*) AS messages, COUNT(DISTINCT s.contact_id) AS recipients,
  SUM(CASE WHEN s.outcome IN ('delivered', 'read') THEN 1 ELSE 0 END) AS delivered,
  SUM(CASE WHEN s.outcome = 'read' THEN 1 ELSE 0 END) AS read_count,
  SUM(CASE WHEN fr.id IS NULL THEN 0 ELSE 1 END) AS failed,
  SUM(COALESCE(fr.capped, 0)) AS capped,
  SUM(CASE WHEN sc.id IS NULL THEN 0 ELSE 1 END) AS stopped,
  SUM(CASE WHEN sr.id IS NULL THEN 0 ELSE 1 END) AS silent
FROM scoped s
  LEFT JOIN fail_rows fr ON fr.id = s.id
  LEFT JOIN stop_cause sc ON sc.id = s.id AND sc.nth = 1
  LEFT JOIN silent_rows sr ON sr.id = s.id
GROUP BY s.${column}, s.category ORDER BY COUNT(*) DESC, s.${column}`,
    [...params, scope.silentBefore, ...scope.capCodes],
  );
  return rows.map((r) => ({
    groupId: intOrNull(r['group_id']),
    category: String(r['category']) as Category,
    messages: int(r['messages']),
    recipients: int(r['recipients']),
    delivered: int(r['delivered'] ?? 0),
    read: int(r['read_count'] ?? 0),
    failed: int(r['failed'] ?? 0),
    capped: int(r['capped'] ?? 0),
    stopped: int(r['stopped'] ?? 0),
    silent: int(r['silent'] ?? 0),
  }));
}
