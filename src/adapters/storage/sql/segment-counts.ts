import type { Reachability, SegmentDefinition } from '../../../core/segment.js';
import type { SegmentCountsPage } from '../../../ports/store.js';
import type { SqlParam, SqlRunner } from '../sql-executor.js';
import { segmentSql } from './segment-where.js';
import { int, intOrNull } from './values.js';

const STATES = ['cooling_off', 'held', 'stopped', 'unreachable'] as const satisfies readonly Reachability[];

function flag(condition: string): string {
  return `CASE WHEN ${condition} THEN 1 ELSE 0 END`;
}

/** One aggregate per page: the segment and the reachability states are evaluated where the contacts are. */
export async function countSegment(db: SqlRunner, segment: SegmentDefinition, now: number, afterId: number, limit: number): Promise<SegmentCountsPage> {
  const params: SqlParam[] = [afterId, limit];
  const sql = segmentSql(db.caps, params);
  // 1 or 0 per contact: whether the segment selects it, and whether it is in each state now.
  const flags = [`${flag(sql.match(segment, now))} AS hit`, ...STATES.map((r) => `${flag(sql.inState(r, now))} AS ${r}`)].join(', ');
  const [row] = await db.query(`SELECT max(id) AS last_id, count(*) AS scanned, sum(hit) AS matched,
  ${STATES.map((r) => `sum(hit * ${r}) AS ${r}`).join(', ')}
FROM (
  SELECT c.id, ${flags} FROM contacts c LEFT JOIN contact_states s ON s.contact_id = c.id
  WHERE c.id > $1 ORDER BY c.id LIMIT $2
) page`, params);
  const lastId = intOrNull(row?.['last_id']);
  const count = (name: 'matched' | Reachability): number => (lastId === null ? 0 : int(row?.[name]));
  return {
    lastContactId: lastId,
    scanned: lastId === null ? 0 : int(row?.['scanned']),
    matched: count('matched'),
    matchedNow: { cooling_off: count('cooling_off'), held: count('held'), stopped: count('stopped'), unreachable: count('unreachable') },
  };
}
