import type { DeliverySettlement } from '../../../ports/store.js';
import type { SqlRunner, SqlSession } from '../sql-executor.js';
import { int } from './values.js';

const ERROR_CHARS = 500;

const SETTLE = `UPDATE event_deliveries SET status = $3, attempts = attempts + 1, next_attempt_at = $4, lease_owner = NULL,
  last_attempt_at = $5, last_status_code = $6, last_error = $7, delivered_at = COALESCE($8, delivered_at), updated_at = $9
WHERE id = $1 AND lease_owner = $2 AND status = 'pending' RETURNING subscription_id, lane`;

// Kept even when the claim was lost (the request went out all the same), unless the delivery is
// gone with its subscription.
const ATTEMPT = `INSERT INTO event_delivery_attempts (delivery_id, at, duration_ms, status_code, error)
SELECT id, CAST($2 AS BIGINT), CAST($3 AS BIGINT), CAST($4 AS BIGINT), CAST($5 AS TEXT) FROM event_deliveries WHERE id = $1`;

/** The lane's next pending delivery, if parked and not claimed, is due now. */
const WAKE_NEXT = `UPDATE event_deliveries SET next_attempt_at = $1
WHERE id = (SELECT n.id FROM event_deliveries n WHERE n.status = 'pending' AND n.subscription_id = $2 AND n.lane = $3
  ORDER BY n.event_id LIMIT 1)
  AND lease_owner IS NULL AND next_attempt_at > $1`;

export async function settleEventDelivery(db: SqlSession, s: DeliverySettlement, now: number): Promise<boolean> {
  const [kept] = await settleEventDeliveries(db, [s], now);
  return kept === true;
}

/** Several in one transaction (one commit for a burst of answers); each as `settleEventDelivery`. */
export function settleEventDeliveries(db: SqlSession, settlements: readonly DeliverySettlement[], now: number): Promise<boolean[]> {
  if (settlements.length === 0) return Promise.resolve([]);
  return db.transaction('settleEventDeliveries', async (tx) => {
    const kept: boolean[] = [];
    for (const s of settlements) kept.push(await settleOne(tx, s, now));
    return kept;
  });
}

async function settleOne(tx: SqlRunner, s: DeliverySettlement, now: number): Promise<boolean> {
  const error = s.attempt.error === null ? null : s.attempt.error.slice(0, ERROR_CHARS);
  const { outcome } = s;
  const status = outcome.kind === 'retry' ? 'pending' : outcome.kind;
  const nextAt = outcome.kind === 'retry' ? outcome.at : now;
  const deliveredAt = outcome.kind === 'delivered' ? s.attempt.at : null;
  await tx.execute(ATTEMPT, [s.deliveryId, s.attempt.at, Math.round(s.attempt.durationMs), s.attempt.statusCode, error]);
  const [row] = await tx.query(SETTLE, [
    s.deliveryId,
    s.owner,
    status,
    nextAt,
    s.attempt.at,
    s.attempt.statusCode,
    error,
    deliveredAt,
    now,
  ]);
  if (row === undefined) return false;
  if (outcome.kind !== 'retry') await tx.execute(WAKE_NEXT, [now, int(row['subscription_id']), int(row['lane'])]);
  return true;
}
