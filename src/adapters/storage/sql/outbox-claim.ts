import type { ClaimOptions, OutboxRow, SweepResult, WorkFilter } from '../../../ports/store.js';
import type { SqlParam, SqlRunner, SqlSession } from '../sql-executor.js';
import { toOutbox } from './outbox-insert.js';
import { RELEASE } from './outbox-transitions.js';
import { intOrNull } from './values.js';

// Due: queued rows whose time has come, and held rows whose fallback wake-up time has come,
// of one-off messages or running campaigns. $1 now, $2 limit, $3 owner, $4 lease expiry, and $5
// the number the rows must go from when the claim names one.
// On SQLite each status is read in index order (status, next_attempt_at) and cut at the limit, so a
// claim costs the same with fifty due rows or a million: no sort of everything that is due.
const RUNNING = `(o.campaign_id IS NULL OR EXISTS (SELECT 1 FROM campaigns c WHERE c.id = o.campaign_id AND c.status = 'running'))`;
const dueOf = (status: string, only: string) => `SELECT o.id, o.next_attempt_at FROM outbox o
  WHERE o.status = '${status}' AND o.next_attempt_at <= $1 AND ${RUNNING}${only}
  ORDER BY o.next_attempt_at LIMIT $2`;
const dueIds = (only: string) =>
  `SELECT id FROM (SELECT * FROM (${dueOf('queued', only)}) UNION ALL SELECT * FROM (${dueOf('held', only)})) ORDER BY next_attempt_at LIMIT $2`;

/**
 * The condition keeping a worker to its own number's rows (each row names the number it goes
 * from), bound as `$n`; empty when the worker takes any number's rows.
 */
function fromNumber(filter: WorkFilter, n: number, params: SqlParam[]): string {
  if (filter.phoneNumberId === undefined) return '';
  params.push(filter.phoneNumberId);
  return ` AND o.phone_number_id = $${n}`;
}

const LEASE = `status = 'leased', lease_owner = $3, lease_expires_at = $4, updated_at = $1`;

/**
 * Other workers skip the rows this one has locked instead of waiting for them; the lock is taken
 * while scanning, so concurrent workers fill their batches from different rows.
 */
const claimSkipLocked = (only: string) => `WITH due AS (
  SELECT o.id FROM outbox o WHERE o.status IN ('queued', 'held') AND o.next_attempt_at <= $1 AND ${RUNNING}${only}
  ORDER BY o.next_attempt_at, o.id LIMIT $2
  FOR UPDATE OF o SKIP LOCKED
)
UPDATE outbox SET ${LEASE} FROM due WHERE outbox.id = due.id RETURNING outbox.*`;

/** One writer at a time: select and lease in one statement, inside BEGIN IMMEDIATE. */
const claimSingleWriter = (only: string) => `UPDATE outbox SET ${LEASE} WHERE id IN (${dueIds(only)}) RETURNING *`;

// The earliest due time per status, read in index order (status, next_attempt_at) and stopped at
// the first row claimDue could take, and the earliest lease to run out (partial index on
// lease_expires_at): each costs the same however many rows wait.
// Any worker may sweep any number's expired leases (it sends nothing), so those count for all.
const firstDue = (status: string, only: string) => `(SELECT o.next_attempt_at FROM outbox o
  WHERE o.status = '${status}' AND o.next_attempt_at IS NOT NULL AND ${RUNNING}${only} ORDER BY o.next_attempt_at LIMIT 1)`;
const FIRST_LEASE_END = '(SELECT MIN(o.lease_expires_at) FROM outbox o WHERE o.lease_expires_at IS NOT NULL)';
const nextWork = (only: string) => `SELECT MIN(at) AS at FROM (SELECT ${firstDue('queued', only)} AS at
  UNION ALL SELECT ${firstDue('held', only)} AS at UNION ALL SELECT ${FIRST_LEASE_END} AS at) AS work`;

/**
 * The earliest time a worker has something to do, so an idle one can sleep until then: a row
 * claimDue could take falls due (paused campaigns' rows excluded), or a lease runs out and the
 * sweep must requeue its row or mark it unknown. At or before now means work is there already.
 */
export async function nextWorkAt(db: SqlRunner, filter: WorkFilter = {}): Promise<number | null> {
  const params: SqlParam[] = [];
  const [row] = await db.query(nextWork(fromNumber(filter, 1, params)), params);
  return row ? intOrNull(row['at']) : null;
}

export async function claimDue(db: SqlSession, options: ClaimOptions): Promise<OutboxRow[]> {
  const params: SqlParam[] = [options.now, options.limit, options.owner, options.now + options.leaseMs];
  const only = fromNumber(options, 5, params);
  const rows = db.caps.skipLocked
    ? await db.query(claimSkipLocked(only), params)
    : await db.transaction('claimDue', (tx) => tx.query(claimSingleWriter(only), params));
  // RETURNING promises no order; callers get the due order.
  return rows.map((row) => toOutbox(db.caps, row)).sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.id - b.id);
}

/**
 * Crashed workers' rows: a lease that never reached the send goes back to the queue; one whose
 * intent was recorded becomes unknown (the message may have gone out) and waits for reconciliation.
 */
export function sweepExpiredLeases(db: SqlSession, now: number): Promise<SweepResult> {
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
