import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// Events out: every change a subscriber (a CRM) is told of, the subscriptions that receive them,
// and one delivery per event and matching subscription, with each HTTP attempt kept.
// - A subscription's secret signs its deliveries (Standard Webhooks), so it is kept as given; the
//   API and CLI show it once, when the subscription is created.
// - `lane` orders a delivery behind the earlier pending ones of the same subscription and lane: the
//   contact's id, or 0 for events of no contact (campaign, sender), ordered among themselves.
// - A pending delivery is due at `next_attempt_at`; a worker claims it by moving that time past its
//   lease, so a crashed worker's claim falls due again by itself.
// - Deleting a subscription deletes its deliveries and attempts; events stay.

const DELIVERY_STATUS = `('pending', 'delivered', 'failed')`;

function tables(t: { id: string; bigint: string; json: string; bool: string; strict: string }): string {
  return `
CREATE TABLE outbound_events (
  id ${t.id},
  type TEXT NOT NULL,
  occurred_at ${t.bigint} NOT NULL,
  recorded_at ${t.bigint} NOT NULL,
  contact_id ${t.bigint},
  campaign_id ${t.bigint},
  phone_number_id TEXT,
  data ${t.json} NOT NULL
)${t.strict};
CREATE INDEX outbound_events_occurred ON outbound_events (occurred_at, id);

CREATE TABLE event_subscriptions (
  id ${t.id},
  url TEXT NOT NULL,
  secret TEXT NOT NULL,
  event_types ${t.json} NOT NULL,
  campaign_id ${t.bigint},
  phone_number_id TEXT,
  description TEXT,
  enabled ${t.bool} NOT NULL,
  created_at ${t.bigint} NOT NULL,
  updated_at ${t.bigint} NOT NULL
)${t.strict};

CREATE TABLE event_deliveries (
  id ${t.id},
  event_id ${t.bigint} NOT NULL REFERENCES outbound_events (id),
  subscription_id ${t.bigint} NOT NULL REFERENCES event_subscriptions (id) ON DELETE CASCADE,
  lane ${t.bigint} NOT NULL,
  status TEXT NOT NULL CHECK (status IN ${DELIVERY_STATUS}),
  attempts ${t.bigint} NOT NULL,
  next_attempt_at ${t.bigint} NOT NULL,
  lease_owner TEXT,
  last_attempt_at ${t.bigint},
  last_status_code ${t.bigint},
  last_error TEXT,
  delivered_at ${t.bigint},
  created_at ${t.bigint} NOT NULL,
  updated_at ${t.bigint} NOT NULL,
  UNIQUE (event_id, subscription_id)
)${t.strict};
CREATE INDEX event_deliveries_due ON event_deliveries (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX event_deliveries_lane ON event_deliveries (subscription_id, lane, event_id) WHERE status = 'pending';
CREATE INDEX event_deliveries_subscription ON event_deliveries (subscription_id, status, id);

CREATE TABLE event_delivery_attempts (
  id ${t.id},
  delivery_id ${t.bigint} NOT NULL REFERENCES event_deliveries (id) ON DELETE CASCADE,
  at ${t.bigint} NOT NULL,
  duration_ms ${t.bigint} NOT NULL,
  status_code ${t.bigint},
  error TEXT
)${t.strict};
CREATE INDEX event_delivery_attempts_delivery ON event_delivery_attempts (delivery_id, id);
`;
}

export const outboundEvents: Migration = {
  version: 21,
  name: 'outbound events, subscriptions and their deliveries',
  sqlite: tables({ id: 'INTEGER PRIMARY KEY', bigint: 'INTEGER', json: 'TEXT', bool: 'INTEGER', strict: ' STRICT' }),
  postgres: tables({ id: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY', bigint: 'BIGINT', json: 'JSONB', bool: 'BOOLEAN', strict: '' }),
};
