import type { ReplaySelection } from '../../../ports/store.js';
import type { SqlParam, SqlSession } from '../sql-executor.js';
import { binder, chunks, inList } from './values.js';

/**
 * Queued again, due now, with a fresh retry schedule: done, failed, and pending ones waiting for
 * their next try; never one a worker holds (its claim would be lost mid-request). Their place in
 * their contact's order is their event's, so a replayed event goes before the contact's later ones
 * still pending.
 */
const REQUEUE = `UPDATE event_deliveries SET status = 'pending', attempts = 0, next_attempt_at = $1, lease_owner = NULL,
  created_at = $1, updated_at = $1
WHERE lease_owner IS NULL`;
const IN_RANGE = 'event_id IN (SELECT id FROM outbound_events WHERE occurred_at >= $2 AND occurred_at < $3)';

export function replayEventDeliveries(db: SqlSession, selection: ReplaySelection, now: number): Promise<number> {
  return db.transaction('replayEventDeliveries', async (tx) => {
    const only = (params: SqlParam[]): string => {
      if (selection.subscriptionId === undefined) return '';
      return ` AND subscription_id = ${binder(params)(selection.subscriptionId)}`;
    };
    if ('eventIds' in selection) {
      let total = 0;
      for (const ids of chunks(selection.eventIds, 1, tx.caps)) {
        const params: SqlParam[] = [now, ...ids];
        const sql = `${REQUEUE} AND event_id IN (${inList(ids.length, 2)})${only(params)}`;
        total += await tx.execute(sql, params);
      }
      return total;
    }
    const params: SqlParam[] = [now, selection.from, selection.to];
    return tx.execute(`${REQUEUE} AND ${IN_RANGE}${only(params)}`, params);
  });
}
