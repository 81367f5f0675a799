import type { OutboxOutcome, RescheduleInput } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';

/**
 * Puts a row that Meta failed asynchronously (a status webhook, after the send was accepted) back in
 * line: for the per-user cap after the cool-off, for the experiment group when a window opens. Only
 * rows nobody holds a lease on; the old wamid is cleared so the next send's statuses find the row.
 */
export async function requeue(db: SqlRunner, id: number, input: RescheduleInput, now: number): Promise<boolean> {
  const sql = `UPDATE outbox SET status = $2, next_attempt_at = $3, cap_attempts = cap_attempts + $4, last_error_code = $5,
  outcome = NULL, wamid = NULL, updated_at = $6
WHERE id = $1 AND status IN ('sent', 'done', 'unknown') AND lease_owner IS NULL`;
  return (await db.execute(sql, [id, input.status, input.until, input.capAttempt ? 1 : 0, input.errorCode, now])) === 1;
}

/** Ends a row outside a lease (e.g. capped_exhausted learnt from a webhook). */
export async function settle(db: SqlRunner, id: number, outcome: OutboxOutcome, errorCode: number | null, now: number): Promise<boolean> {
  const sql = `UPDATE outbox SET status = 'done', outcome = $2, last_error_code = COALESCE($3, last_error_code), updated_at = $4
WHERE id = $1 AND lease_owner IS NULL`;
  return (await db.execute(sql, [id, outcome, errorCode, now])) === 1;
}
