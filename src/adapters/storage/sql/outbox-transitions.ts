import type { OutboxOutcome, RescheduleInput } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';

// Every transition of a claimed row names its lease owner: a worker whose lease was swept changes nothing.
export const RELEASE = 'lease_owner = NULL, lease_expires_at = NULL';

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
