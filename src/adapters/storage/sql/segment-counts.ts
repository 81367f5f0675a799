import type { Reachability, SegmentDefinition } from '../../../core/segment.js';
import type { SegmentCountsPage } from '../../../ports/store.js';
import type { SqlParam, SqlRunner } from '../sql-executor.js';
import { contactPage, PAGE_CONTACTS, segmentSql } from './segment-where.js';
import { int } from './values.js';

const STATES = ['cooling_off', 'held', 'stopped', 'unreachable'] as const satisfies readonly Reachability[];

function flag(condition: string): string {
  return `CASE WHEN ${condition} THEN 1 ELSE 0 END`;
}

/** One aggregate per page: the segment and the reachability states are evaluated where the contacts are. */
export async function countSegment(
  db: SqlRunner,
  segment: SegmentDefinition,
  now: number,
  afterId: number,
  limit: number,
): Promise<SegmentCountsPage> {
  const { lastId } = await contactPage(db, afterId, limit);
  const none = { cooling_off: 0, held: 0, stopped: 0, unreachable: 0 };
  if (lastId === null) return { lastContactId: null, scanned: 0, matched: 0, matchedNow: none };
  const params: SqlParam[] = [afterId, lastId];
  const sql = segmentSql(db.caps, params);
  // 1 or 0 per contact: whether the segment selects it, and whether it is in each state now.
  const flags = [`${flag(sql.match(segment, now))} AS hit`, ...STATES.map((r) => `${flag(sql.inState(r, now))} AS ${r}`)].join(', ');
  // MATERIALIZED: a subquery would be merged into the sums, evaluating the segment once per sum.
  const [row] = await db.query(
    `WITH page AS MATERIALIZED (SELECT ${flags} ${PAGE_CONTACTS})
SELECT count(*) AS scanned, sum(hit) AS matched, ${STATES.map((r) => `sum(hit * ${r}) AS ${r}`).join(', ')} FROM page`,
    params,
  );
  const count = (name: 'scanned' | 'matched' | Reachability): number => int(row?.[name] ?? 0);
  return {
    lastContactId: lastId,
    scanned: count('scanned'),
    matched: count('matched'),
    matchedNow: { cooling_off: count('cooling_off'), held: count('held'), stopped: count('stopped'), unreachable: count('unreachable') },
  };
}
