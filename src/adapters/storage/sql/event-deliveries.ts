import type {
  DeliveryAttempt,
  DeliveryListFilter,
  EventDelivery,
  EventDeliveryStatus,
  SubscriptionDeliveryTotals,
} from '../../../ports/store.js';
import type { SqlParam, SqlRow, SqlRunner } from '../sql-executor.js';
import { binder, int, intOrNull, textOrNull } from './values.js';

export function toEventDelivery(row: SqlRow): EventDelivery {
  return {
    id: int(row['id']),
    eventId: int(row['event_id']),
    subscriptionId: int(row['subscription_id']),
    status: String(row['status']) as EventDeliveryStatus,
    attempts: int(row['attempts']),
    nextAttemptAt: int(row['next_attempt_at']),
    lastAttemptAt: intOrNull(row['last_attempt_at']),
    lastStatusCode: intOrNull(row['last_status_code']),
    lastError: textOrNull(row['last_error']),
    deliveredAt: intOrNull(row['delivered_at']),
    createdAt: int(row['created_at']),
  };
}

export async function listEventDeliveries(db: SqlRunner, filter: DeliveryListFilter): Promise<EventDelivery[]> {
  const params: SqlParam[] = [];
  const bind = binder(params);
  const where: string[] = [];
  if (filter.subscriptionId !== undefined) where.push(`subscription_id = ${bind(filter.subscriptionId)}`);
  if (filter.eventId !== undefined) where.push(`event_id = ${bind(filter.eventId)}`);
  if (filter.status !== undefined) where.push(`status = ${bind(filter.status)}`);
  if (filter.afterId !== undefined) where.push(`id > ${bind(filter.afterId)}`);
  const conditions = where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`;
  const rows = await db.query(`SELECT * FROM event_deliveries${conditions} ORDER BY id LIMIT ${bind(filter.limit)}`, params);
  return rows.map(toEventDelivery);
}

export async function getEventDelivery(db: SqlRunner, id: number): Promise<EventDelivery | null> {
  const [row] = await db.query('SELECT * FROM event_deliveries WHERE id = $1', [id]);
  return row ? toEventDelivery(row) : null;
}

export async function listDeliveryAttempts(db: SqlRunner, deliveryId: number): Promise<DeliveryAttempt[]> {
  const rows = await db.query('SELECT * FROM event_delivery_attempts WHERE delivery_id = $1 ORDER BY id', [deliveryId]);
  return rows.map((row) => ({
    id: int(row['id']),
    deliveryId: int(row['delivery_id']),
    at: int(row['at']),
    durationMs: int(row['duration_ms']),
    statusCode: intOrNull(row['status_code']),
    error: textOrNull(row['error']),
  }));
}

export async function nextEventDeliveryAt(db: SqlRunner): Promise<number | null> {
  const [row] = await db.query("SELECT MIN(next_attempt_at) AS at FROM event_deliveries WHERE status = 'pending'");
  return intOrNull(row?.['at']);
}

// Counted per subscription and status; the oldest pending one and the recent give-ups as well.
const TOTALS = `SELECT subscription_id, status, COUNT(*) AS n,
  MIN(CASE WHEN status = 'pending' THEN created_at END) AS oldest,
  SUM(CASE WHEN status = 'failed' AND updated_at >= $1 THEN 1 ELSE 0 END) AS recent
FROM event_deliveries GROUP BY subscription_id, status ORDER BY subscription_id`;

export async function eventDeliveryTotals(db: SqlRunner, failedSince: number): Promise<SubscriptionDeliveryTotals[]> {
  const bySubscription = new Map<number, SubscriptionDeliveryTotals>();
  for (const row of await db.query(TOTALS, [failedSince])) {
    const subscriptionId = int(row['subscription_id']);
    let t = bySubscription.get(subscriptionId);
    if (t === undefined) {
      t = { subscriptionId, pending: 0, delivered: 0, failed: 0, failedRecently: 0, oldestPendingAt: null };
      bySubscription.set(subscriptionId, t);
    }
    const status = String(row['status']) as EventDeliveryStatus;
    t[status] = int(row['n']);
    if (status === 'pending') t.oldestPendingAt = intOrNull(row['oldest']);
    if (status === 'failed') t.failedRecently = int(row['recent'] ?? 0);
  }
  return [...bySubscription.values()];
}

export async function eventDeliveryBacklog(
  db: SqlRunner,
  subscriptionId: number,
  failedSince: number,
): Promise<{ failedRecently: number; oldestPendingAt: number | null }> {
  const [failed] = await db.query(
    "SELECT COUNT(*) AS n FROM event_deliveries WHERE subscription_id = $1 AND status = 'failed' AND updated_at >= $2",
    [subscriptionId, failedSince],
  );
  const [oldest] = await db.query(
    "SELECT created_at FROM event_deliveries WHERE subscription_id = $1 AND status = 'pending' ORDER BY id LIMIT 1",
    [subscriptionId],
  );
  return { failedRecently: int(failed?.['n'] ?? 0), oldestPendingAt: intOrNull(oldest?.['created_at']) };
}
