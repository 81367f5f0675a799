import type { ClaimOutcome, ClaimTimes, IdempotencyClaim, StoredResponse } from '../../../ports/store.js';
import type { SqlRow, SqlSession } from '../sql-executor.js';
import { intOrNull, json, toJson } from './values.js';

/** Idempotency keys of the REST API: one row per token and key, with the first answer once there is one. */

const INSERT = `INSERT INTO idempotency_keys (principal, idempotency_key, fingerprint, created_at, expires_at)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (principal, idempotency_key) DO NOTHING RETURNING created_at`;

// An expired key, or a claim that never got its answer in time, belongs to the next request. The
// condition is re-read under the row lock (PostgreSQL) or the single writer (SQLite): one winner.
const TAKE_OVER = `UPDATE idempotency_keys
SET fingerprint = $3, created_at = $4, expires_at = $5, status = NULL, response_headers = NULL, response_body = NULL
WHERE principal = $1 AND idempotency_key = $2 AND (expires_at <= $4 OR (status IS NULL AND created_at <= $6))
RETURNING created_at`;

const READ = `SELECT fingerprint, status, response_headers, response_body FROM idempotency_keys
WHERE principal = $1 AND idempotency_key = $2`;

export async function claimIdempotencyKey(db: SqlSession, claim: IdempotencyClaim, now: number, times: ClaimTimes): Promise<ClaimOutcome> {
  const fresh = [claim.principal, claim.key, claim.fingerprint, now, now + times.keepMs];
  // A row swept between the statements sends us round again; three rounds settle any such race.
  for (let round = 0; round < 3; round++) {
    if ((await db.query(INSERT, fresh)).length > 0) return { kind: 'claimed', claimedAt: now };
    if ((await db.query(TAKE_OVER, [...fresh, now - times.staleAfterMs])).length > 0) return { kind: 'claimed', claimedAt: now };
    const [row] = await db.query(READ, [claim.principal, claim.key]);
    if (row === undefined) continue;
    const status = intOrNull(row['status']);
    if (status === null) return { kind: 'in_progress' };
    if (String(row['fingerprint']) !== claim.fingerprint) return { kind: 'mismatch' };
    return { kind: 'done', response: responseOf(db, row, status) };
  }
  return { kind: 'in_progress' };
}

function responseOf(db: SqlSession, row: SqlRow, status: number): StoredResponse {
  const headers = row['response_headers'] === null ? {} : json<Record<string, string>>(db.caps, row['response_headers']);
  return { status, headers, body: String(row['response_body'] ?? '') };
}

export async function completeIdempotencyKey(
  db: SqlSession,
  claim: IdempotencyClaim,
  claimedAt: number,
  response: StoredResponse,
): Promise<boolean> {
  const changed = await db.execute(
    `UPDATE idempotency_keys SET status = $4, response_headers = $5, response_body = $6
WHERE principal = $1 AND idempotency_key = $2 AND created_at = $3 AND status IS NULL`,
    [claim.principal, claim.key, claimedAt, response.status, toJson(response.headers), response.body],
  );
  return changed > 0;
}

export async function releaseIdempotencyKey(db: SqlSession, claim: IdempotencyClaim, claimedAt: number): Promise<void> {
  await db.execute('DELETE FROM idempotency_keys WHERE principal = $1 AND idempotency_key = $2 AND created_at = $3 AND status IS NULL', [
    claim.principal,
    claim.key,
    claimedAt,
  ]);
}

export async function sweepIdempotencyKeys(db: SqlSession, now: number): Promise<number> {
  return db.execute('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
}
