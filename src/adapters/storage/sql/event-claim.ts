import type { ClaimedDelivery, DeliveryClaimOptions } from '../../../ports/store.js';
import type { SqlParam, SqlRow, SqlRunner, SqlSession } from '../sql-executor.js';
import { toEventDelivery } from './event-deliveries.js';
import { toOutboundEvent } from './outbound-events.js';
import { inList, int, intOrNull, bool } from './values.js';

/**
 * Due deliveries are read in due order with, for each, the earliest pending delivery of its lane
 * (subscription and contact) before it. A delivery with one before it is blocked: it is parked
 * until that one's next try (its settlement wakes it sooner), so a receiver that is down for hours
 * does not make every claim read the same blocked rows again. A disabled subscription's deliveries
 * are parked for a day (enabling wakes them). The rest, one per lane, are claimed: their due time
 * moves to the end of the lease, so a worker that dies gives them back by itself.
 */
const LANE_HEAD = `(SELECT p.next_attempt_at FROM event_deliveries p
    WHERE p.status = 'pending' AND p.subscription_id = d.subscription_id AND p.lane = d.lane AND p.event_id < d.event_id
    ORDER BY p.event_id LIMIT 1)`;
// Every due row comes with what sending it needs, so a claim is one read and one write.
const SCAN = `SELECT d.*, s.enabled, ${LANE_HEAD} AS head_at,
  e.id AS e_id, e.type AS e_type, e.occurred_at AS e_occurred_at, e.recorded_at AS e_recorded_at,
  e.contact_id AS e_contact_id, e.campaign_id AS e_campaign_id, e.phone_number_id AS e_phone_number_id, e.data AS e_data,
  s.url AS s_url, s.secret AS s_secret
FROM event_deliveries d JOIN event_subscriptions s ON s.id = d.subscription_id JOIN outbound_events e ON e.id = d.event_id
WHERE d.status = 'pending' AND d.next_attempt_at <= $1
ORDER BY d.next_attempt_at, d.id LIMIT $2`;
/** Other workers skip the rows this one has locked instead of waiting for them. */
const SCAN_SKIP_LOCKED = `${SCAN} FOR UPDATE OF d SKIP LOCKED`;

export const RELAXED_COMMIT = 'SET LOCAL synchronous_commit = off';

const DISABLED_PARK_MS = 24 * 60 * 60 * 1000;
const ROUNDS = 4;

export async function claimEventDeliveries(db: SqlSession, o: DeliveryClaimOptions): Promise<ClaimedDelivery[]> {
  const claimed: ClaimedDelivery[] = [];
  for (let round = 0; round < ROUNDS && claimed.length < o.limit; round++) {
    const want = o.limit - claimed.length;
    const scan = want * 2 + 16;
    const { taken, scanned } = await db.transaction('claimEventDeliveries', (tx) => claimRound(tx, o, want, scan));
    claimed.push(...taken);
    if (scanned < scan) break; // nothing more is due
  }
  return claimed;
}

async function claimRound(
  tx: SqlRunner,
  o: DeliveryClaimOptions,
  want: number,
  scan: number,
): Promise<{ taken: ClaimedDelivery[]; scanned: number }> {
  // Lost in a crash, a claim only lets another worker send the delivery again (receivers de-duplicate).
  if (tx.caps.relaxedCommit) await tx.execute(RELAXED_COMMIT);
  const rows = await tx.query(tx.caps.skipLocked ? SCAN_SKIP_LOCKED : SCAN, [o.now, scan]);
  const leaseEnd = o.now + o.leaseMs;
  const parked = new Map<number, number[]>();
  const park = (id: number, until: number): void => {
    const ids = parked.get(until);
    if (ids === undefined) parked.set(until, [id]);
    else ids.push(id);
  };
  const heads: SqlRow[] = [];
  for (const row of rows) {
    const id = int(row['id']);
    const headAt = intOrNull(row['head_at']);
    if (!bool(row['enabled'])) park(id, o.now + DISABLED_PARK_MS);
    else if (headAt !== null) park(id, Math.max(headAt, leaseEnd));
    else if (heads.length < want) heads.push(row);
  }
  for (const [until, ids] of parked) await setDue(tx, ids, until);
  if (heads.length === 0) return { taken: [], scanned: rows.length };
  const ids = heads.map((row) => int(row['id']));
  await tx.execute(
    `UPDATE event_deliveries SET next_attempt_at = $1, lease_owner = $2, updated_at = $3 WHERE id IN (${inList(ids.length, 4)})`,
    [leaseEnd, o.owner, o.now, ...ids],
  );
  const taken = heads.map((row): ClaimedDelivery => ({
    delivery: { ...toEventDelivery(row), nextAttemptAt: leaseEnd },
    event: toOutboundEvent(tx, row, 'e_'),
    subscription: { id: int(row['subscription_id']), url: String(row['s_url']), secret: String(row['s_secret']) },
  }));
  return { taken, scanned: rows.length };
}

async function setDue(tx: SqlRunner, ids: readonly number[], at: number): Promise<void> {
  const params: SqlParam[] = [at, ...ids];
  await tx.execute(`UPDATE event_deliveries SET next_attempt_at = $1 WHERE id IN (${inList(ids.length, 2)})`, params);
}
