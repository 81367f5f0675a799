import type { CampaignRowsPlan, JsonObject, SegmentOutboxPage, SegmentOutboxPlan } from '../../../ports/store.js';
import type { SqlParam, SqlRunner, SqlSession } from '../sql-executor.js';
import { contactPage, PAGE_CONTACTS, segmentSql } from './segment-where.js';
import { int, toJson } from './values.js';

const ROWS_IN_PAGE = 'SELECT count(*) AS n FROM outbox WHERE campaign_id = $1 AND contact_id > $2 AND contact_id <= $3';
const COLUMNS = 'campaign_id, contact_id, sender_id, category, intent, idempotency_key, status, next_attempt_at, created_at, updated_at';

/**
 * One INSERT … SELECT per page: the segment is evaluated where the contacts are, and only counts
 * come back. ON CONFLICT DO NOTHING keeps a second start from creating anything twice.
 */
export function insertSegmentOutbox(
  db: SqlSession,
  plan: SegmentOutboxPlan,
  afterId: number,
  limit: number,
  now: number,
): Promise<SegmentOutboxPage> {
  return db.transaction('insertSegmentOutbox', async (tx) => {
    const { lastId, scanned } = await contactPage(tx, afterId, limit);
    if (lastId === null) return { lastContactId: null, scanned: 0, matched: 0, inserted: 0 };
    const [present] = await tx.query(ROWS_IN_PAGE, [plan.campaignId, afterId, lastId]);

    const params: SqlParam[] = [
      afterId,
      lastId,
      plan.campaignId,
      plan.senderId,
      plan.category,
      toJson(plan.intent),
      plan.nextAttemptAt,
      now,
    ];
    const match = segmentSql(tx.caps, params).match(plan.segment, now);
    const inserted = await tx.execute(
      `INSERT INTO outbox (${COLUMNS}) SELECT $3, c.id, $4, $5, $6, NULL, 'queued', $7, $8, $8 ${PAGE_CONTACTS} AND ${match} ON CONFLICT DO NOTHING`,
      params,
    );
    // A page without a row of this campaign before (a first start) inserted every match; otherwise
    // some matches were already there, and only counting them again tells how many.
    // A campaign not yet running has no due rows; its start notifies again (setCampaignStatus).
    if (inserted > 0) await tx.notifyQueued(plan.nextAttemptAt);
    const matched = int(present?.['n']) === 0 ? inserted : await countMatches(tx, plan, afterId, lastId, now);
    return { lastContactId: lastId, scanned, matched, inserted };
  });
}

async function countMatches(tx: SqlRunner, plan: SegmentOutboxPlan, afterId: number, lastId: number, now: number): Promise<number> {
  const params: SqlParam[] = [afterId, lastId];
  const match = segmentSql(tx.caps, params).match(plan.segment, now);
  const [row] = await tx.query(`SELECT count(*) AS n ${PAGE_CONTACTS} AND ${match}`, params);
  return int(row?.['n']);
}

/**
 * A page of rows, each with its own intent, as one JSON parameter the database expands itself
 * (json_each / jsonb_array_elements): one bound value instead of ten per row, which is what made
 * personalised starts slow.
 */
export function insertCampaignRows(
  db: SqlSession,
  plan: CampaignRowsPlan,
  rows: ReadonlyArray<{ contactId: number; intent: JsonObject }>,
  now: number,
): Promise<{ inserted: number }> {
  if (rows.length === 0) return Promise.resolve({ inserted: 0 });
  return db.transaction('insertCampaignRows', async (tx) => {
    const each =
      tx.caps.dialect === 'sqlite'
        ? `SELECT $1, json_extract(e.value, '$[0]'), $2, $3, json_extract(e.value, '$[1]'), NULL, 'queued', $4, $5, $5 FROM json_each($6) e WHERE true`
        : `SELECT $1, (e ->> 0)::bigint, $2, $3, e -> 1, NULL, 'queued', $4, $5, $5 FROM jsonb_array_elements($6::jsonb) e`;
    const payload = toJson(rows.map((r) => [r.contactId, r.intent]));
    const inserted = await tx.execute(`INSERT INTO outbox (${COLUMNS}) ${each} ON CONFLICT DO NOTHING`, [
      plan.campaignId,
      plan.senderId,
      plan.category,
      plan.nextAttemptAt,
      now,
      payload,
    ]);
    if (inserted > 0) await tx.notifyQueued(plan.nextAttemptAt);
    return { inserted };
  });
}
