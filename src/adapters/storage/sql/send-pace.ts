import type { PaceGrant, PaceRequest } from '../../../ports/store.js';
import type { SqlSession } from '../sql-executor.js';

// One statement, so it is atomic on both backends: every SET expression reads the row as it was
// (PostgreSQL re-reads it after waiting for a concurrent update), and `granted` records what this
// update handed out. $1 key, $2 want, $3 tokens per millisecond, $4 burst, $5 now.
// A clock behind the last taker's refills nothing (processes on different hosts), so skew never mints tokens.
const ELAPSED = '(CASE WHEN $5 > refilled_at THEN $5 - refilled_at ELSE 0 END)';
const FILLED = `(tokens + ${ELAPSED} * CAST($3 AS DOUBLE PRECISION))`;
const AVAILABLE = `(CASE WHEN ${FILLED} > $4 THEN $4 ELSE ${FILLED} END)`;
const GRANT = `(CASE WHEN $2 < FLOOR(${AVAILABLE}) THEN $2 ELSE FLOOR(${AVAILABLE}) END)`;
const TAKE = `UPDATE send_pace SET tokens = ${AVAILABLE} - ${GRANT}, granted = ${GRANT},
  refilled_at = CASE WHEN $5 > refilled_at THEN $5 ELSE refilled_at END
  WHERE pace_key = $1 RETURNING tokens, granted, refilled_at`;
// A bucket starts full.
const CREATE = 'INSERT INTO send_pace (pace_key, tokens, refilled_at) VALUES ($1, $2, $3) ON CONFLICT (pace_key) DO NOTHING';
const GIVE_BACK = 'UPDATE send_pace SET tokens = CASE WHEN tokens + $2 > $3 THEN $3 ELSE tokens + $2 END WHERE pace_key = $1';

/**
 * A token bucket shared by every process: `perSecond` tokens a second, at most `burst` saved up.
 * Takes up to `want` whole tokens and says when the bucket will next hold as many as were wanted
 * (at most a burst; at least one).
 */
export async function takePace(db: SqlSession, r: PaceRequest): Promise<PaceGrant> {
  if (!(r.perSecond > 0) || !(r.burst >= 1) || !Number.isInteger(r.want) || r.want < 0) {
    throw new Error(`takePace: needs perSecond > 0, burst >= 1 and a whole want >= 0, got ${r.perSecond}, ${r.burst}, ${r.want}`);
  }
  const params = [r.key, r.want, r.perSecond / 1000, r.burst, r.now];
  let [row] = await db.query(TAKE, params);
  if (row === undefined) {
    await db.execute(CREATE, [r.key, r.burst, r.now]);
    [row] = await db.query(TAKE, params);
  }
  if (row === undefined) throw new Error(`takePace: the bucket ${r.key} vanished`);
  const left = Number(row['tokens']);
  const refilledAt = Number(row['refilled_at']);
  // Worth coming back when the bucket can fill a whole request (at most a burst), not for one token.
  const needed = Math.max(1, Math.min(r.want, r.burst));
  const nextAt = left >= needed ? refilledAt : refilledAt + Math.ceil(((needed - left) * 1000) / r.perSecond);
  return { granted: Number(row['granted']), nextAt };
}

/** Gives back tokens taken but not used (rows deferred or held instead of sent); never above `burst`. */
export async function returnPace(db: SqlSession, key: string, count: number, burst: number): Promise<void> {
  if (count <= 0) return;
  await db.execute(GIVE_BACK, [key, count, burst]);
}
