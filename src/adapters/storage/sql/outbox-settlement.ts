import type { DeliveryStatus } from '../../../core/contact-event.js';
import { POSTGRES, SQLITE, type Capabilities } from '../capabilities.js';
import type { OutboxOutcome, RescheduleInput, SettledOutboxRow } from '../../../ports/store.js';
import type { SqlParam, SqlRow, SqlRunner, SqlSession } from '../sql-executor.js';
import { castValuesList, chunks, jsonValue, textOrNull } from './values.js';
import { outboxFields } from './outbox-insert.js';
import { RELEASE } from './outbox-transitions.js';

// What webhooks do to rows nobody holds a lease on: statuses, asynchronous failures, windows opening.

/**
 * Puts a row that Meta failed asynchronously (a status webhook, after the send was accepted) back in
 * line: for the per-user cap after the cool-off, for the experiment group when a window opens. Only
 * rows nobody holds a lease on; the old wamid is cleared so the next send's statuses find the row.
 */
export async function requeue(db: SqlRunner, id: number, input: RescheduleInput, now: number): Promise<boolean> {
  const sql = `UPDATE outbox SET status = $2, next_attempt_at = $3, cap_attempts = cap_attempts + $4, last_error_code = $5,
  outcome = NULL, wamid = NULL, updated_at = $6
WHERE id = $1 AND status IN ('sent', 'done', 'unknown') AND lease_owner IS NULL`;
  const moved = (await db.execute(sql, [id, input.status, input.until, input.capAttempt ? 1 : 0, input.errorCode, now])) === 1;
  if (moved && input.until !== null) await db.notifyQueued(input.until);
  return moved;
}

/** Ends a row outside a lease (e.g. capped_exhausted learnt from a webhook). */
export async function settle(db: SqlRunner, id: number, outcome: OutboxOutcome, errorCode: number | null, now: number): Promise<boolean> {
  const sql = `UPDATE outbox SET status = 'done', outcome = $2, last_error_code = COALESCE($3, last_error_code), updated_at = $4
WHERE id = $1 AND lease_owner IS NULL`;
  return (await db.execute(sql, [id, outcome, errorCode, now])) === 1;
}

const OUTCOME_OF: Record<DeliveryStatus, OutboxOutcome> = {
  sent: 'accepted',
  delivered: 'delivered',
  read: 'read',
  played: 'read',
  failed: 'failed',
};
const RANK: Partial<Record<OutboxOutcome, number>> = { accepted: 1, delivered: 2, read: 3, failed: 4 };
const RANK_ACCEPTED = 1;

/**
 * A row carries a wamid only with an outcome (accepted or later: the answer and the by-id path set
 * both, a requeue clears both), so by wamid `sent` can never move one: only our callback data can,
 * while the answer is missing. Skipping the lookup saves a statement on every `sent`.
 */
const goesByWamid = (status: DeliveryStatus): boolean => (RANK[OUTCOME_OF[status]] ?? 0) > RANK_ACCEPTED;

// Outcomes only move forward (accepted < delivered < read < failed, which is terminal); outcomes
// set by our own decisions (skipped, capped_exhausted, cancelled) are never touched by a webhook.
// Our callback data settles a row only while its answer is missing (sending, unknown): a late status
// of an earlier attempt must not bring back a row already requeued for its next one.
const CURRENT_RANK = `CASE WHEN outcome IS NULL THEN 0 WHEN outcome = 'accepted' THEN 1 WHEN outcome = 'delivered' THEN 2
  WHEN outcome = 'read' THEN 3 WHEN outcome = 'failed' THEN 4 ELSE 99 END`;

// A status reads back every column but the intent (its text is most of the row), and of the intent
// only what a status needs: the number and the template.
const SETTLED_COLUMNS = [
  'id',
  'campaign_id',
  'contact_id',
  'sender_id',
  'category',
  'idempotency_key',
  'client_reference',
  'next_attempt_at',
  'status',
  'attempts',
  'cap_attempts',
  'lease_owner',
  'lease_expires_at',
  'wamid',
  'last_error_code',
  'outcome',
  'created_at',
  'updated_at',
  'phone_number_id',
];
const returningSettled = (caps: Capabilities): string => {
  const template = (key: string) => jsonValue(caps, 'outbox.intent', ['template', key], 'text');
  return `RETURNING ${SETTLED_COLUMNS.map((c) => `outbox.${c}`).join(', ')}, ${template('name')} AS template_name, ${template('language')} AS template_language`;
};
type PerReader = Record<Capabilities['jsonRead'], string>;
const RETURNING_SETTLED: PerReader = { json_extract: returningSettled(SQLITE), jsonb_path: returningSettled(POSTGRES) };
/** A statement's text for each JSON reader, built once: the single-row ones run for every status. */
const perReader = (sql: (returning: string) => string): PerReader => ({
  json_extract: sql(RETURNING_SETTLED.json_extract),
  jsonb_path: sql(RETURNING_SETTLED.jsonb_path),
});

function toSettled(row: SqlRow): SettledOutboxRow {
  const name = textOrNull(row['template_name']);
  const language = textOrNull(row['template_language']);
  return {
    ...outboxFields(row),
    sentAs: { phoneNumberId: textOrNull(row['phone_number_id']), template: name === null || language === null ? null : { name, language } },
  };
}

// $1 the row's wamid or id, $2 outcome, $3 error code, $4 now, $5 the outcome's rank.
const SETTLE = `outcome = $2, last_error_code = COALESCE($3, last_error_code),
  status = CASE WHEN $2 = 'failed' THEN 'done' ELSE 'sent' END, ${RELEASE}, updated_at = $4`;
// The usual case leaves the wamid column alone: assigning it, even to the same value, rewrites the
// row's entry in the wamid index, a random page of it for every status.
const DELIVERY_BY_WAMID = perReader((returning) => `UPDATE outbox SET ${SETTLE} WHERE wamid = $1 AND ${CURRENT_RANK} < $5 ${returning}`);
// By our id only while the answer is missing. `wamid = $6` matters on PostgreSQL: when this waits on
// the answer's open transaction, it re-checks the committed row, which by then carries the wamid.
const DELIVERY_BY_ID = perReader(
  (returning) => `UPDATE outbox SET ${SETTLE}, wamid = $6
WHERE id = $1 AND (wamid = $6 OR (wamid IS NULL AND status IN ('sending', 'unknown'))) AND ${CURRENT_RANK} < $5 ${returning}`,
);

/**
 * Applies a status webhook to the row that sent `wamid`, or — when our callback data named the row
 * and the send's answer was lost — to that row. Returns the row as updated (no second read for the
 * caller), or null when nothing moved.
 */
export async function recordDelivery(
  db: SqlRunner,
  ref: { wamid: string; outboxId: number | null },
  status: DeliveryStatus,
  errorCode: number | null,
  now: number,
): Promise<SettledOutboxRow | null> {
  const outcome = OUTCOME_OF[status];
  const rank = RANK[outcome] ?? 0;
  if (goesByWamid(status)) {
    const [byWamid] = await db.query(DELIVERY_BY_WAMID[db.caps.jsonRead], [ref.wamid, outcome, errorCode, now, rank]);
    if (byWamid) return toSettled(byWamid);
  }
  if (ref.outboxId === null) return null;
  const [byId] = await db.query(DELIVERY_BY_ID[db.caps.jsonRead], [ref.outboxId, outcome, errorCode, now, rank, ref.wamid]);
  return byId ? toSettled(byId) : null;
}

export async function wakeHeld(db: SqlRunner, contactId: number, now: number): Promise<number> {
  const sql = `UPDATE outbox SET status = 'queued', next_attempt_at = $2, updated_at = $2 WHERE contact_id = $1 AND status = 'held'`;
  const woken = await db.execute(sql, [contactId, now]);
  if (woken > 0) await db.notifyQueued(now);
  return woken;
}

// The statements of recordDelivery for many statuses: column1 wamid, column2 outcome, column3 error
// code, column4 the outcome's rank (and column5 our row id, by id).
const DELIVERIES = ['TEXT', 'TEXT', 'BIGINT', 'BIGINT'] as const;
const MANY_SETTLE = `outcome = v.column2, last_error_code = COALESCE(v.column3, outbox.last_error_code),
  status = CASE WHEN v.column2 = 'failed' THEN 'done' ELSE 'sent' END, ${RELEASE}, updated_at = $1`;
const RANK_OF_ROW = CURRENT_RANK.replaceAll('outcome', 'outbox.outcome');
const DELIVERIES_BY_WAMID = (caps: Capabilities, rows: string) => `UPDATE outbox SET ${MANY_SETTLE}
FROM (VALUES ${rows}) AS v WHERE outbox.wamid = v.column1 AND ${RANK_OF_ROW} < v.column4 ${RETURNING_SETTLED[caps.jsonRead]}`;
const DELIVERIES_BY_ID = (caps: Capabilities, rows: string) => `UPDATE outbox SET ${MANY_SETTLE}, wamid = v.column1
FROM (VALUES ${rows}) AS v
WHERE outbox.id = v.column5 AND (outbox.wamid = v.column1 OR (outbox.wamid IS NULL AND outbox.status IN ('sending', 'unknown')))
  AND ${RANK_OF_ROW} < v.column4 ${RETURNING_SETTLED[caps.jsonRead]}`;

type DeliveryRef = { wamid: string; outboxId: number | null; status: DeliveryStatus; errorCode: number | null };

/** By wamid for all but `sent`, then by id for those that moved nothing and name our row; one statement each per chunk. */
export function recordDeliveries(db: SqlSession, refs: readonly DeliveryRef[], now: number): Promise<(SettledOutboxRow | null)[]> {
  if (refs.length === 0) return Promise.resolve([]);
  const wamids = new Set(refs.map((r) => r.wamid));
  const ids = refs.flatMap((r) => (r.outboxId === null ? [] : [r.outboxId]));
  if (wamids.size !== refs.length || new Set(ids).size !== ids.length) {
    throw new Error('recordDeliveries: each status must name a different message and row');
  }
  const cells = (r: DeliveryRef): SqlParam[] => {
    const outcome = OUTCOME_OF[r.status];
    return [r.wamid, outcome, r.errorCode, RANK[outcome] ?? 0];
  };
  return db.transaction('recordDeliveries', async (tx) => {
    const byWamid = new Map<string, SettledOutboxRow>();
    for (const group of chunks(
      refs.filter((r) => goesByWamid(r.status)),
      DELIVERIES.length,
      tx.caps,
    )) {
      const rows = await tx.query(DELIVERIES_BY_WAMID(tx.caps, castValuesList(DELIVERIES, group.length, 2)), [
        now,
        ...group.flatMap(cells),
      ]);
      // The first row per wamid, as recordDelivery returns.
      for (const row of rows) if (!byWamid.has(String(row['wamid']))) byWamid.set(String(row['wamid']), toSettled(row));
    }
    const byId = new Map<number, SettledOutboxRow>();
    const rest = refs.filter((r) => r.outboxId !== null && !byWamid.has(r.wamid));
    const types = [...DELIVERIES, 'BIGINT'] as const;
    for (const group of chunks(rest, types.length, tx.caps)) {
      const params = [now, ...group.flatMap((r) => [...cells(r), r.outboxId])];
      for (const row of await tx.query(DELIVERIES_BY_ID(tx.caps, castValuesList(types, group.length, 2)), params)) {
        const moved = toSettled(row);
        byId.set(moved.id, moved);
      }
    }
    return refs.map((r) => byWamid.get(r.wamid) ?? (r.outboxId === null ? null : (byId.get(r.outboxId) ?? null)));
  });
}
