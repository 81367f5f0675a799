import type { WaitingCell } from '../../../core/recipient-outcomes.js';
import type { SqlRunner } from '../sql-executor.js';
import { int, intOrNull } from './values.js';

/**
 * A campaign's waiting rows (queued or held) by status, last error code and their latest decision
 * (the audit's newest entry for the row, found through `decisions_outbox`), with when they are next
 * due. Rows never decided yet have no decision.
 */
export async function waitingReasons(db: SqlRunner, campaignId: number): Promise<WaitingCell[]> {
  const rows = await db.query(
    `SELECT o.status, o.last_error_code AS code, d.kind, d.reason, COUNT(*) AS n, MIN(o.next_attempt_at) AS first_at, MAX(o.next_attempt_at) AS last_at
FROM outbox o LEFT JOIN decisions d ON d.id = (SELECT MAX(l.id) FROM decisions l WHERE l.outbox_id = o.id)
WHERE o.campaign_id = $1 AND o.status IN ('queued', 'held')
GROUP BY o.status, o.last_error_code, d.kind, d.reason
ORDER BY n DESC, o.status, COALESCE(d.kind, ''), COALESCE(d.reason, ''), COALESCE(o.last_error_code, 0)`,
    [campaignId],
  );
  return rows.map((r) => ({
    status: String(r['status']) === 'held' ? 'held' : 'queued',
    code: intOrNull(r['code']),
    decision: r['kind'] === null || r['kind'] === undefined ? null : { kind: String(r['kind']), reason: String(r['reason']) },
    count: int(r['n']),
    firstAt: intOrNull(r['first_at']),
    lastAt: intOrNull(r['last_at']),
  }));
}
