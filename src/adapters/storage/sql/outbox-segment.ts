import type { JsonObject, SegmentOutboxPage, SegmentOutboxPlan } from '../../../ports/store.js';
import type { SqlParam, SqlRunner, SqlSession } from '../sql-executor.js';
import { shareSql } from './pool-share.js';
import { plainIntentSql } from './plain-intent.js';
import { contactPage, PAGE_CONTACTS, segmentSql } from './segment-where.js';
import { storableJson } from '../storable-text.js';
import { numberOf } from './outbox-insert.js';
import { int, json, textOrNull, toJson } from './values.js';

const ROWS_IN_PAGE = 'SELECT count(*) AS n FROM outbox WHERE campaign_id = $1 AND contact_id > $2 AND contact_id <= $3';
const COLUMNS =
  'campaign_id, contact_id, sender_id, category, intent, phone_number_id, idempotency_key, status, next_attempt_at, created_at, updated_at';

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
      numberOf(plan.intent),
    ];
    const match = `${segmentSql(tx.caps, params).match(plan.segment, now)} AND ${shareSql(plan.share, params)}`;
    const inserted = await insertPage(tx, plan, params, match, afterId, lastId, now);
    // A page without a row of this campaign before (a first start) inserted every match; otherwise
    // some matches were already there, and only counting them again tells how many.
    // A campaign not yet running has no due rows; its start notifies again (setCampaignStatus).
    if (inserted > 0) await tx.notifyQueued(plan.nextAttemptAt);
    const matched = int(present?.['n']) === 0 ? inserted : await countMatches(tx, plan, afterId, lastId, now);
    return { lastContactId: lastId, scanned, matched, inserted };
  });
}

const SEGMENT_INSERT = (intent: string, match: string): string =>
  `INSERT INTO outbox (${COLUMNS}) SELECT $3, c.id, $4, $5, ${intent}, $9, NULL, 'queued', $7, $8, $8 ${PAGE_CONTACTS} AND ${match} ON CONFLICT DO NOTHING`;

/**
 * The contacts (of campaign $3) the plain pass has not just written, nor an earlier start: one probe
 * of the (campaign, contact) key, cheaper than evaluating the plain test again on every contact.
 */
const UNWRITTEN = 'NOT EXISTS (SELECT 1 FROM outbox w WHERE w.campaign_id = $3 AND w.contact_id = c.id)';

/**
 * The page's rows: one intent for all; or each contact's own, computed by `intentTextFor` inside
 * SQLite as the rows are written (pacer_row_intent), or on PostgreSQL from the page's contacts read here.
 */
async function insertPage(
  tx: SqlRunner,
  plan: SegmentOutboxPlan,
  params: SqlParam[],
  match: string,
  afterId: number,
  lastId: number,
  now: number,
): Promise<number> {
  const intentFor = plan.intentTextFor;
  if (intentFor === undefined) return tx.execute(SEGMENT_INSERT('$6', match), params);
  // Contacts whose values are plain get their rows from the database alone; the others from intentFor.
  const plain = plainIntentSql(tx.caps, plan);
  let written = 0;
  let rest = match;
  if (plain !== null) {
    // Parameters of its own: PostgreSQL refuses one a statement does not use (the shared intent, $6).
    const own: SqlParam[] = [
      afterId,
      lastId,
      plan.campaignId,
      plan.senderId,
      plan.category,
      plan.nextAttemptAt,
      now,
      numberOf(plan.intent),
    ];
    const ownMatch = `${segmentSql(tx.caps, own).match(plan.segment, now)} AND ${shareSql(plan.share, own)}`;
    const page = `SELECT c.id${plain.columns(own)} ${PAGE_CONTACTS} AND ${ownMatch}${plain.fence}`;
    const intent = plain.intent(own);
    written = await tx.execute(
      `INSERT INTO outbox (${COLUMNS}) SELECT $3, x.id, $4, $5, ${intent}, $8, NULL, 'queued', $6, $7, $7 FROM (${page}) x WHERE ${plain.plain(own)} ON CONFLICT DO NOTHING`,
      own,
    );
    rest = `${UNWRITTEN} AND ${match}`;
  }
  if (tx.withRowIntent !== undefined) {
    const render = (name: string | null, attributes: string): string =>
      storableJson(intentFor({ name, attributes: JSON.parse(attributes) as JsonObject }));
    return (
      written + (await tx.withRowIntent(render, () => tx.execute(SEGMENT_INSERT('pacer_row_intent(c.name, c.attributes)', rest), params)))
    );
  }
  const pageParams: SqlParam[] = [afterId, lastId, plan.campaignId];
  const pageMatch = `${plain === null ? '' : `${UNWRITTEN} AND `}${segmentSql(tx.caps, pageParams).match(plan.segment, now)} AND ${shareSql(plan.share, pageParams)}`;
  const contacts = await tx.query(`SELECT c.id, c.name, c.attributes ${PAGE_CONTACTS} AND ${pageMatch} ORDER BY c.id`, pageParams);
  // One JSON array of [id, intent] pairs, put together as text: the intents already are JSON.
  const rows = contacts.map(
    (c) =>
      `[${int(c['id'])},${storableJson(intentFor({ name: textOrNull(c['name']), attributes: json<JsonObject>(tx.caps, c['attributes']) }))}]`,
  );
  return written + (await insertEach(tx, plan, rows, now));
}

async function countMatches(tx: SqlRunner, plan: SegmentOutboxPlan, afterId: number, lastId: number, now: number): Promise<number> {
  const params: SqlParam[] = [afterId, lastId];
  const match = `${segmentSql(tx.caps, params).match(plan.segment, now)} AND ${shareSql(plan.share, params)}`;
  const [row] = await tx.query(`SELECT count(*) AS n ${PAGE_CONTACTS} AND ${match}`, params);
  return int(row?.['n']);
}

/** PostgreSQL: the rows as one JSON parameter the database expands, not ten bound values per row. */
async function insertEach(tx: SqlRunner, plan: SegmentOutboxPlan, rows: readonly string[], now: number): Promise<number> {
  if (rows.length === 0) return 0;
  return tx.execute(
    `INSERT INTO outbox (${COLUMNS}) SELECT $1, (e ->> 0)::bigint, $2, $3, e -> 1, $7, NULL, 'queued', $4, $5, $5 FROM jsonb_array_elements($6::jsonb) e ON CONFLICT DO NOTHING`,
    [plan.campaignId, plan.senderId, plan.category, plan.nextAttemptAt, now, `[${rows.join(',')}]`, numberOf(plan.intent)],
  );
}
