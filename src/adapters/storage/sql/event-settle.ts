import type { DeliverySettlement } from '../../../ports/store.js';
import type { SqlParam, SqlRunner, SqlSession } from '../sql-executor.js';
import { RELAXED_COMMIT } from './event-claim.js';
import { chunks, int } from './values.js';

/**
 * A group of answers settled in one transaction of three statements whatever its size: the
 * attempts kept, the deliveries updated where their claim still holds, and each finished one's
 * contact's next delivery woken. Rows travel as a VALUES list (columns `column1`… in both dialects,
 * each value cast so PostgreSQL knows its type).
 */

const ERROR_CHARS = 500;
const TYPES = ['BIGINT', 'TEXT', 'TEXT', 'BIGINT', 'BIGINT', 'BIGINT', 'BIGINT', 'TEXT', 'BIGINT'] as const;
// column1 id, column2 owner, column3 status, column4 next attempt, column5 attempt time,
// column6 duration, column7 status code, column8 error, column9 delivered at
const WIDTH = TYPES.length;

/** `(CAST($from AS BIGINT), CAST($from+1 AS TEXT), …), (…)` for `rows` rows of the settlement columns. */
function typedRows(rows: number, from: number): string {
  const out: string[] = [];
  for (let r = 0; r < rows; r++) out.push(`(${TYPES.map((t, c) => `CAST($${r * WIDTH + c + from} AS ${t})`).join(', ')})`);
  return out.join(', ');
}

// Kept even when the claim was lost (the request went out all the same), unless the delivery is
// gone with its subscription.
const attempts = (rows: string) => `INSERT INTO event_delivery_attempts (delivery_id, at, duration_ms, status_code, error)
SELECT d.id, v.column5, v.column6, v.column7, v.column8 FROM (VALUES ${rows}) AS v JOIN event_deliveries d ON d.id = v.column1`;

const settle = (rows: string) => `UPDATE event_deliveries SET status = v.column3, attempts = attempts + 1, next_attempt_at = v.column4,
  lease_owner = NULL, last_attempt_at = v.column5, last_status_code = v.column7, last_error = v.column8,
  delivered_at = COALESCE(v.column9, event_deliveries.delivered_at), updated_at = $1
FROM (VALUES ${rows}) AS v
WHERE event_deliveries.id = v.column1 AND event_deliveries.lease_owner = v.column2 AND event_deliveries.status = 'pending'
RETURNING event_deliveries.id, event_deliveries.status, event_deliveries.subscription_id, event_deliveries.lane`;

/** Each finished delivery's lane: its next pending delivery, if parked and not claimed, is due now. */
const wake = (lanes: string) => `UPDATE event_deliveries SET next_attempt_at = $1
WHERE lease_owner IS NULL AND next_attempt_at > $1 AND id IN (
  SELECT (SELECT n.id FROM event_deliveries n WHERE n.status = 'pending' AND n.subscription_id = l.column1 AND n.lane = l.column2
    ORDER BY n.event_id LIMIT 1)
  FROM (VALUES ${lanes}) AS l)`;

function laneRows(count: number): string {
  return Array.from({ length: count }, (_, i) => `(CAST($${2 * i + 2} AS BIGINT), CAST($${2 * i + 3} AS BIGINT))`).join(', ');
}

export async function settleEventDelivery(db: SqlSession, s: DeliverySettlement, now: number): Promise<boolean> {
  const [kept] = await settleEventDeliveries(db, [s], now);
  return kept === true;
}

/** Several in one transaction (one commit for a burst of answers); each as `settleEventDelivery`. */
export function settleEventDeliveries(db: SqlSession, settlements: readonly DeliverySettlement[], now: number): Promise<boolean[]> {
  if (settlements.length === 0) return Promise.resolve([]);
  return db.transaction('settleEventDeliveries', async (tx) => {
    // Lost in a crash, a settlement only makes the delivery go again (at least once, same webhook-id).
    if (tx.caps.relaxedCommit) await tx.execute(RELAXED_COMMIT);
    const kept = new Set<number>();
    for (const group of chunks(settlements, WIDTH, tx.caps)) {
      for (const id of await settleGroup(tx, group, now)) kept.add(id);
    }
    return settlements.map((s) => kept.has(s.deliveryId));
  });
}

async function settleGroup(tx: SqlRunner, group: readonly DeliverySettlement[], now: number): Promise<number[]> {
  const values: SqlParam[] = [];
  for (const s of group) {
    const { outcome, attempt } = s;
    values.push(
      s.deliveryId,
      s.owner,
      outcome.kind === 'retry' ? 'pending' : outcome.kind,
      outcome.kind === 'retry' ? outcome.at : now,
      attempt.at,
      Math.round(attempt.durationMs),
      attempt.statusCode,
      attempt.error === null ? null : attempt.error.slice(0, ERROR_CHARS),
      outcome.kind === 'delivered' ? attempt.at : null,
    );
  }
  await tx.execute(attempts(typedRows(group.length, 1)), values);
  const settled = await tx.query(settle(typedRows(group.length, 2)), [now, ...values]);
  const finished = settled.filter((r) => String(r['status']) !== 'pending');
  if (finished.length > 0) {
    const laneParams: SqlParam[] = [now, ...finished.flatMap((r) => [int(r['subscription_id']), int(r['lane'])])];
    await tx.execute(wake(laneRows(finished.length)), laneParams);
  }
  return settled.map((r) => int(r['id']));
}
