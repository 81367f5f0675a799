import { deliveryLane, matchesFilter, type EventFilter, type SubscribedType } from '../../../core/event-subscription.js';
import type { NewOutboundEvent } from '../../../core/outbound-event.js';
import type { OutboundEvent } from '../../../ports/store.js';
import type { SqlParam, SqlRow, SqlRunner, SqlSession } from '../sql-executor.js';
import { chunks, int, intOrNull, json, textOrNull, toJson, valuesList } from './values.js';

/**
 * Recording runs inside the hottest transactions (status webhooks), so it reads the enabled
 * subscriptions' filters (a handful of rows) and writes nothing when none takes an event. Matching
 * is the core's `matchesFilter`, the same on both backends; events and deliveries go in batches.
 */

const FILTERS = 'SELECT id, event_types, campaign_id, phone_number_id FROM event_subscriptions WHERE enabled = $1';
const EVENT_WIDTH = 7;
const EVENT_COLUMNS = 'type, occurred_at, recorded_at, contact_id, campaign_id, phone_number_id, data';
const DELIVERY_WIDTH = 8;
const DELIVERY_COLUMNS = 'event_id, subscription_id, lane, status, attempts, next_attempt_at, created_at, updated_at';

interface ActiveFilter extends EventFilter {
  id: number;
}

async function activeFilters(db: SqlRunner): Promise<ActiveFilter[]> {
  const rows = await db.query(FILTERS, [true]);
  return rows.map((row) => ({
    id: int(row['id']),
    eventTypes: json<SubscribedType[]>(db.caps, row['event_types']),
    campaignId: intOrNull(row['campaign_id']),
    phoneNumberId: textOrNull(row['phone_number_id']),
  }));
}

export async function recordOutboundEvents(db: SqlSession, events: readonly NewOutboundEvent[], now: number): Promise<void> {
  if (events.length === 0) return;
  const filters = await activeFilters(db);
  if (filters.length === 0) return;
  const taken = events
    .map((event) => ({ event, subscriptions: filters.filter((f) => matchesFilter(f, event)).map((f) => f.id) }))
    .filter((t) => t.subscriptions.length > 0);
  if (taken.length === 0) return;
  await db.transaction('recordOutboundEvents', async (tx) => {
    for (const chunk of chunks(taken, EVENT_WIDTH, tx.caps)) {
      const params: SqlParam[] = chunk.flatMap(({ event: e }) => [
        e.type,
        e.occurredAt,
        now,
        e.contactId,
        e.campaignId,
        e.phoneNumberId,
        toJson(e.data),
      ]);
      const sql = `INSERT INTO outbound_events (${EVENT_COLUMNS}) VALUES ${valuesList(chunk.length, EVENT_WIDTH)} RETURNING id`;
      // Ids grow in VALUES order within a statement: sorted, they line up with the chunk.
      const ids = (await tx.query(sql, params)).map((row) => int(row['id'])).sort((a, b) => a - b);
      const deliveries = chunk.flatMap(({ event, subscriptions }, i) =>
        subscriptions.map((subscriptionId): SqlParam[] => [
          ids[i] ?? null,
          subscriptionId,
          deliveryLane(event),
          'pending',
          0,
          now,
          now,
          now,
        ]),
      );
      for (const part of chunks(deliveries, DELIVERY_WIDTH, tx.caps)) {
        await tx.execute(
          `INSERT INTO event_deliveries (${DELIVERY_COLUMNS}) VALUES ${valuesList(part.length, DELIVERY_WIDTH)}`,
          part.flat(),
        );
      }
    }
  });
}

export function toOutboundEvent(db: SqlRunner, row: SqlRow, prefix = ''): OutboundEvent {
  return {
    id: int(row[`${prefix}id`]),
    type: String(row[`${prefix}type`]) as OutboundEvent['type'],
    occurredAt: int(row[`${prefix}occurred_at`]),
    recordedAt: int(row[`${prefix}recorded_at`]),
    contactId: intOrNull(row[`${prefix}contact_id`]),
    campaignId: intOrNull(row[`${prefix}campaign_id`]),
    phoneNumberId: textOrNull(row[`${prefix}phone_number_id`]),
    data: json(db.caps, row[`${prefix}data`]),
  };
}

export async function getOutboundEvent(db: SqlRunner, id: number): Promise<OutboundEvent | null> {
  const [row] = await db.query('SELECT * FROM outbound_events WHERE id = $1', [id]);
  return row ? toOutboundEvent(db, row) : null;
}
