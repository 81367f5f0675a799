import type { SegmentOutboxPage, SegmentOutboxPlan } from '../../../ports/store.js';
import type { SqlExecutor, SqlParam, SqlRunner } from '../sql-executor.js';
import { segmentSql } from './segment-where.js';
import { int, intOrNull, toJson } from './values.js';

/** The page: the next `$2` contacts after `$1`, by id. */
const PAGE_BOUNDS = 'SELECT max(id) AS last_id, count(*) AS scanned FROM (SELECT id FROM contacts WHERE id > $1 ORDER BY id LIMIT $2) page';
const ROWS_IN_PAGE = 'SELECT count(*) AS n FROM outbox WHERE campaign_id = $1 AND contact_id > $2 AND contact_id <= $3';
// The id range is repeated on the states: PostgreSQL does not carry it across the join by itself
// and would scan every state for each page. In ON, not WHERE, so contacts without a state stay in.
const CONTACTS = `FROM contacts c LEFT JOIN contact_states s ON s.contact_id = c.id AND s.contact_id > $1 AND s.contact_id <= $2
WHERE c.id > $1 AND c.id <= $2`;
const COLUMNS = 'campaign_id, contact_id, sender_id, category, intent, idempotency_key, status, next_attempt_at, created_at, updated_at';

/**
 * One INSERT … SELECT per page: the segment is evaluated where the contacts are, and only counts
 * come back. ON CONFLICT DO NOTHING keeps a second start from creating anything twice.
 */
export function insertSegmentOutbox(db: SqlExecutor, plan: SegmentOutboxPlan, afterId: number, limit: number, now: number): Promise<SegmentOutboxPage> {
  return db.transaction('insertSegmentOutbox', async (tx) => {
    const [bounds] = await tx.query(PAGE_BOUNDS, [afterId, limit]);
    const lastId = intOrNull(bounds?.['last_id']);
    if (lastId === null) return { lastContactId: null, scanned: 0, matched: 0, inserted: 0 };
    const [present] = await tx.query(ROWS_IN_PAGE, [plan.campaignId, afterId, lastId]);

    const params: SqlParam[] = [afterId, lastId, plan.campaignId, plan.senderId, plan.category, toJson(plan.intent), plan.nextAttemptAt, now];
    const match = segmentSql(tx.caps, params).match(plan.segment, now);
    const inserted = await tx.execute(`INSERT INTO outbox (${COLUMNS}) SELECT $3, c.id, $4, $5, $6, NULL, 'queued', $7, $8, $8 ${CONTACTS} AND ${match} ON CONFLICT DO NOTHING`, params);
    // A page without a row of this campaign before (a first start) inserted every match; otherwise
    // some matches were already there, and only counting them again tells how many.
    const matched = int(present?.['n']) === 0 ? inserted : await countMatches(tx, plan, afterId, lastId, now);
    return { lastContactId: lastId, scanned: int(bounds?.['scanned']), matched, inserted };
  });
}

async function countMatches(tx: SqlRunner, plan: SegmentOutboxPlan, afterId: number, lastId: number, now: number): Promise<number> {
  const params: SqlParam[] = [afterId, lastId];
  const match = segmentSql(tx.caps, params).match(plan.segment, now);
  const [row] = await tx.query(`SELECT count(*) AS n ${CONTACTS} AND ${match}`, params);
  return int(row?.['n']);
}
