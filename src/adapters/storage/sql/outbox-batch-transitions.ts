import type { AcceptedMove, CompleteMove, IntentMove, RescheduleMove } from '../../../ports/store.js';
import type { SqlParam, SqlSession } from '../sql-executor.js';
import { RELEASE } from './outbox-transitions.js';
import { castValuesList, chunks, int } from './values.js';

// The transitions of outbox-transitions.ts for many rows of one lease owner in one statement each
// (per chunk): the rows travel as a VALUES list, every row keeps its own time and the same
// conditions as the one-row statement, and each returns the ids it moved.

const INTENT = ['BIGINT', 'BIGINT'] as const; // id, now
const intents = (rows: string) => `UPDATE outbox SET status = 'sending', attempts = attempts + 1, updated_at = v.column2
FROM (VALUES ${rows}) AS v
WHERE outbox.id = v.column1 AND outbox.status = 'leased' AND outbox.lease_owner = $1 AND outbox.lease_expires_at > v.column2
RETURNING outbox.id`;

const ACCEPTED = ['BIGINT', 'TEXT', 'BIGINT'] as const; // id, wamid, now
const accepted = (rows: string) => `UPDATE outbox SET status = 'sent', outcome = 'accepted', wamid = v.column2, last_error_code = NULL,
  ${RELEASE}, updated_at = v.column3
FROM (VALUES ${rows}) AS v
WHERE outbox.id = v.column1 AND outbox.status IN ('sending', 'unknown') AND outbox.lease_owner = $1
RETURNING outbox.id`;

// id, status, until, cap attempt (0/1), error code, now
const RESCHEDULE = ['BIGINT', 'TEXT', 'BIGINT', 'BIGINT', 'BIGINT', 'BIGINT'] as const;
const reschedules = (rows: string) => `UPDATE outbox SET status = v.column2, next_attempt_at = v.column3,
  cap_attempts = outbox.cap_attempts + v.column4, last_error_code = v.column5, ${RELEASE}, updated_at = v.column6
FROM (VALUES ${rows}) AS v
WHERE outbox.id = v.column1 AND outbox.status IN ('leased', 'sending') AND outbox.lease_owner = $1
RETURNING outbox.id`;

const COMPLETE = ['BIGINT', 'TEXT', 'BIGINT', 'BIGINT'] as const; // id, outcome, error code, now
const completes = (rows: string) => `UPDATE outbox SET status = 'done', outcome = v.column2, last_error_code = v.column3,
  ${RELEASE}, updated_at = v.column4
FROM (VALUES ${rows}) AS v
WHERE outbox.id = v.column1 AND outbox.status IN ('leased', 'sending', 'unknown') AND outbox.lease_owner = $1
RETURNING outbox.id`;

/** Runs `build` over chunks of `rows` under the parameter limit, in one transaction; the ids moved. */
function moveMany<T>(
  db: SqlSession,
  operation: string,
  owner: string,
  items: readonly T[],
  types: readonly ('BIGINT' | 'TEXT')[],
  build: (rows: string) => string,
  values: (item: T) => SqlParam[],
): Promise<number[]> {
  if (items.length === 0) return Promise.resolve([]);
  return db.transaction(operation, async (tx) => {
    const moved: number[] = [];
    for (const group of chunks(items, types.length, tx.caps)) {
      const rows = await tx.query(build(castValuesList(types, group.length, 2)), [owner, ...group.flatMap(values)]);
      for (const row of rows) moved.push(int(row['id']));
    }
    return moved;
  });
}

export function recordIntents(db: SqlSession, owner: string, moves: readonly IntentMove[]): Promise<number[]> {
  return moveMany(db, 'recordIntents', owner, moves, INTENT, intents, (m) => [m.id, m.now]);
}

export function recordAcceptedMany(db: SqlSession, owner: string, moves: readonly AcceptedMove[]): Promise<number[]> {
  return moveMany(db, 'recordAcceptedMany', owner, moves, ACCEPTED, accepted, (m) => [m.id, m.wamid, m.now]);
}

export function rescheduleMany(db: SqlSession, owner: string, moves: readonly RescheduleMove[]): Promise<number[]> {
  return moveMany(db, 'rescheduleMany', owner, moves, RESCHEDULE, reschedules, (m) => [
    m.id,
    m.input.status,
    m.input.until,
    m.input.capAttempt ? 1 : 0,
    m.input.errorCode,
    m.now,
  ]);
}

export function completeMany(db: SqlSession, owner: string, moves: readonly CompleteMove[]): Promise<number[]> {
  return moveMany(db, 'completeMany', owner, moves, COMPLETE, completes, (m) => [m.id, m.outcome, m.errorCode, m.now]);
}
