import type { WaitingCell } from '../../../core/recipient-outcomes.js';
import type { SqlRunner } from '../sql-executor.js';
import { int, intOrNull, textOrNull } from './values.js';

/**
 * A campaign's waiting rows (queued or held) by status, last error code and their latest decision
 * (the audit's newest entry for the row), with when they are next
 * due; most rows first. Rows never decided yet have no decision.
 */
export async function waitingReasons(db: SqlRunner, campaignId: number): Promise<WaitingCell[]> {
  // One descent of decisions_outbox (outbox_id, id) per waiting row for its latest decision, whatever
  // the planner knows of the tables (joined to the decisions instead, a fresh PostgreSQL table can get
  // a plan that pairs every row with every decision). Ordered here rather than in SQL, where NULLs sort
  // differently on the two backends (and sorting by the subquery would run it again).
  const rows = await db.query(
    `SELECT w.status, w.code, w.latest, COUNT(*) AS n, MIN(w.next_at) AS first_at, MAX(w.next_at) AS last_at
FROM (
  SELECT o.status, o.last_error_code AS code, o.next_attempt_at AS next_at,
    (SELECT l.kind || ':' || l.reason FROM decisions l WHERE l.outbox_id = o.id ORDER BY l.id DESC LIMIT 1) AS latest
  FROM outbox o WHERE o.campaign_id = $1 AND o.status IN ('queued', 'held')
) w GROUP BY w.status, w.code, w.latest`,
    [campaignId],
  );
  const cells: WaitingCell[] = rows.map((r) => {
    const latest = textOrNull(r['latest']);
    const split = latest === null ? -1 : latest.indexOf(':');
    return {
      status: String(r['status']) === 'held' ? 'held' : 'queued',
      code: intOrNull(r['code']),
      decision: latest === null ? null : { kind: latest.slice(0, split), reason: latest.slice(split + 1) },
      count: int(r['n']),
      firstAt: intOrNull(r['first_at']),
      lastAt: intOrNull(r['last_at']),
    };
  });
  const key = (c: WaitingCell) =>
    `${c.status}\u0000${c.decision?.kind ?? ''}\u0000${c.decision?.reason ?? ''}\u0000${String(c.code ?? 0).padStart(10, '0')}`;
  return cells.sort((a, b) => b.count - a.count || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
