import type { DeliveryListFilter, EventDelivery, EventDeliveryStatus } from '../../../ports/store.js';
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
