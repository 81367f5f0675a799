import type { SubscribedType } from '../../../core/event-subscription.js';
import type { EventSubscription, EventSubscriptionInput } from '../../../ports/store.js';
import type { SqlRow, SqlRunner, SqlSession } from '../sql-executor.js';
import { bool, int, intOrNull, json, textOrNull, toJson } from './values.js';

/** Who receives outbound events. */

export function toEventSubscription(db: SqlRunner, row: SqlRow): EventSubscription {
  return {
    id: int(row['id']),
    url: String(row['url']),
    secret: String(row['secret']),
    eventTypes: json<SubscribedType[]>(db.caps, row['event_types']),
    campaignId: intOrNull(row['campaign_id']),
    phoneNumberId: textOrNull(row['phone_number_id']),
    description: textOrNull(row['description']),
    enabled: bool(row['enabled']),
    createdAt: int(row['created_at']),
    updatedAt: int(row['updated_at']),
  };
}

const INSERT = `INSERT INTO event_subscriptions
  (url, secret, event_types, campaign_id, phone_number_id, description, enabled, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING *`;

export async function createEventSubscription(db: SqlRunner, input: EventSubscriptionInput, now: number): Promise<EventSubscription> {
  const [row] = await db.query(INSERT, [
    input.url,
    input.secret,
    toJson([...input.eventTypes]),
    input.campaignId,
    input.phoneNumberId,
    input.description,
    true,
    now,
  ]);
  if (row === undefined) throw new Error('insert returned no row');
  return toEventSubscription(db, row);
}

export async function getEventSubscription(db: SqlRunner, id: number): Promise<EventSubscription | null> {
  const [row] = await db.query('SELECT * FROM event_subscriptions WHERE id = $1', [id]);
  return row ? toEventSubscription(db, row) : null;
}

export async function listEventSubscriptions(db: SqlRunner): Promise<EventSubscription[]> {
  return (await db.query('SELECT * FROM event_subscriptions ORDER BY id')).map((row) => toEventSubscription(db, row));
}

/** Enabling also makes its pending deliveries due now: the claim parked them while it was disabled. */
const WAKE = `UPDATE event_deliveries SET next_attempt_at = $2
WHERE subscription_id = $1 AND status = 'pending' AND lease_owner IS NULL AND next_attempt_at > $2`;

export function setEventSubscriptionEnabled(db: SqlSession, id: number, enabled: boolean, now: number): Promise<boolean> {
  return db.transaction('setEventSubscriptionEnabled', async (tx) => {
    const changed = await tx.execute('UPDATE event_subscriptions SET enabled = $2, updated_at = $3 WHERE id = $1', [id, enabled, now]);
    if (changed > 0 && enabled) await tx.execute(WAKE, [id, now]);
    return changed > 0;
  });
}

export async function deleteEventSubscription(db: SqlRunner, id: number): Promise<boolean> {
  return (await db.execute('DELETE FROM event_subscriptions WHERE id = $1', [id])) > 0;
}
