import type { DeliveryStatus } from '../../../core/contact-event.js';
import type { OutboxOutcome, OutboxRow, RescheduleInput, SweepResult } from '../../../ports/store.js';
import { toOutbox } from './outbox-insert.js';
import type { SqlExecutor, SqlRunner } from '../sql-executor.js';

// Every transition of a claimed row names its lease owner: a worker whose lease was swept changes nothing.
const RELEASE = 'lease_owner = NULL, lease_expires_at = NULL';

/** Still holding an unexpired lease: only then may the send start. */
export async function recordIntent(db: SqlRunner, id: number, owner: string, now: number): Promise<boolean> {
  const sql = `UPDATE outbox SET status = 'sending', attempts = attempts + 1, updated_at = $3
WHERE id = $1 AND status = 'leased' AND lease_owner = $2 AND lease_expires_at > $3`;
  return (await db.execute(sql, [id, owner, now])) === 1;
}

/** Also lands on a row the sweeper marked unknown meanwhile: the answer settles its fate. */
export async function recordAccepted(db: SqlRunner, id: number, owner: string, wamid: string, now: number): Promise<boolean> {
  const sql = `UPDATE outbox SET status = 'sent', outcome = 'accepted', wamid = $3, last_error_code = NULL, ${RELEASE}, updated_at = $4
WHERE id = $1 AND status IN ('sending', 'unknown') AND lease_owner = $2`;
  return (await db.execute(sql, [id, owner, wamid, now])) === 1;
}

export async function reschedule(db: SqlRunner, id: number, owner: string, input: RescheduleInput, now: number): Promise<boolean> {
  const sql = `UPDATE outbox SET status = $3, next_attempt_at = $4, cap_attempts = cap_attempts + $5, last_error_code = $6,
  ${RELEASE}, updated_at = $7
WHERE id = $1 AND status IN ('leased', 'sending') AND lease_owner = $2`;
  const params = [id, owner, input.status, input.until, input.capAttempt ? 1 : 0, input.errorCode, now];
  return (await db.execute(sql, params)) === 1;
}

const FINISH = `UPDATE outbox SET status = 'done', outcome = $3, last_error_code = $4, ${RELEASE}, updated_at = $5
WHERE id = $1 AND status IN ('leased', 'sending', 'unknown') AND lease_owner = $2`;

export async function complete(db: SqlRunner, id: number, owner: string, outcome: OutboxOutcome, now: number): Promise<boolean> {
  return (await db.execute(FINISH, [id, owner, outcome, null, now])) === 1;
}

export async function fail(db: SqlRunner, id: number, owner: string, errorCode: number | null, now: number): Promise<boolean> {
  return (await db.execute(FINISH, [id, owner, 'failed', errorCode, now])) === 1;
}

const OUTCOME_OF: Record<DeliveryStatus, OutboxOutcome> = {
  sent: 'accepted',
  delivered: 'delivered',
  read: 'read',
  played: 'read',
  failed: 'failed',
};
const RANK: Partial<Record<OutboxOutcome, number>> = { accepted: 1, delivered: 2, read: 3, failed: 4 };

// Outcomes only move forward (accepted < delivered < read < failed, which is terminal); outcomes
// set by our own decisions (skipped, capped_exhausted, cancelled) are never touched by a webhook.
// Our callback data settles a row only while its answer is missing (sending, unknown): a late status
// of an earlier attempt must not bring back a row already requeued for its next one.
const CURRENT_RANK = `CASE WHEN outcome IS NULL THEN 0 WHEN outcome = 'accepted' THEN 1 WHEN outcome = 'delivered' THEN 2
  WHEN outcome = 'read' THEN 3 WHEN outcome = 'failed' THEN 4 ELSE 99 END`;

// $1 the row's wamid or id, $2 outcome, $3 error code, $4 now, $5 the outcome's rank.
const SETTLE = `outcome = $2, last_error_code = COALESCE($3, last_error_code),
  status = CASE WHEN $2 = 'failed' THEN 'done' ELSE 'sent' END, ${RELEASE}, updated_at = $4`;
// The usual case leaves the wamid column alone: assigning it, even to the same value, rewrites the
// row's entry in the wamid index, a random page of it for every status.
const DELIVERY_BY_WAMID = `UPDATE outbox SET ${SETTLE} WHERE wamid = $1 AND ${CURRENT_RANK} < $5 RETURNING *`;
// By our id only while the answer is missing. `wamid = $6` matters on PostgreSQL: when this waits on
// the answer's open transaction, it re-checks the committed row, which by then carries the wamid.
const DELIVERY_BY_ID = `UPDATE outbox SET ${SETTLE}, wamid = $6
WHERE id = $1 AND (wamid = $6 OR (wamid IS NULL AND status IN ('sending', 'unknown'))) AND ${CURRENT_RANK} < $5 RETURNING *`;

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
): Promise<OutboxRow | null> {
  const outcome = OUTCOME_OF[status];
  const rank = RANK[outcome] ?? 0;
  const [byWamid] = await db.query(DELIVERY_BY_WAMID, [ref.wamid, outcome, errorCode, now, rank]);
  if (byWamid) return toOutbox(db.caps, byWamid);
  if (ref.outboxId === null) return null;
  const [byId] = await db.query(DELIVERY_BY_ID, [ref.outboxId, outcome, errorCode, now, rank, ref.wamid]);
  return byId ? toOutbox(db.caps, byId) : null;
}

export async function wakeHeld(db: SqlRunner, contactId: number, now: number): Promise<number> {
  const sql = `UPDATE outbox SET status = 'queued', next_attempt_at = $2, updated_at = $2 WHERE contact_id = $1 AND status = 'held'`;
  return db.execute(sql, [contactId, now]);
}

/**
 * Crashed workers' rows: a lease that never reached the send goes back to the queue; one whose
 * intent was recorded becomes unknown (the message may have gone out) and waits for reconciliation.
 */
export function sweepExpiredLeases(db: SqlExecutor, now: number): Promise<SweepResult> {
  return db.transaction('sweepExpiredLeases', async (tx) => {
    const requeued = await tx.execute(
      `UPDATE outbox SET status = 'queued', ${RELEASE}, updated_at = $1 WHERE status = 'leased' AND lease_expires_at <= $1`,
      [now],
    );
    const unknown = await tx.execute(
      `UPDATE outbox SET status = 'unknown', lease_expires_at = NULL, updated_at = $1 WHERE status = 'sending' AND lease_expires_at <= $1`,
      [now],
    );
    return { requeued, unknown };
  });
}
