import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// The operator dashboard needs history the current rows do not keep: every change of a sender's
// quality rating, messaging limit or restriction (the senders row only holds the latest), and the
// contacts' inbound messages (replies), which so far only moved the contact state. Its aggregate
// pages also group settled outbox rows by outcome and error code over time, which the index answers
// without reading every row.

function body(t: { id: string; bigint: string; strict: string }): string {
  return `
CREATE TABLE sender_changes (
  id ${t.id},
  sender_id ${t.bigint} NOT NULL REFERENCES senders (id),
  at ${t.bigint} NOT NULL,
  quality_rating TEXT,
  messaging_limit_tier TEXT,
  state TEXT NOT NULL,
  state_reason TEXT,
  source TEXT NOT NULL
)${t.strict};
CREATE INDEX sender_changes_sender ON sender_changes (sender_id, at);

CREATE TABLE inbound_messages (
  id ${t.id},
  contact_id ${t.bigint} NOT NULL REFERENCES contacts (id),
  wamid TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  text TEXT,
  at ${t.bigint} NOT NULL,
  recorded_at ${t.bigint} NOT NULL
)${t.strict};
CREATE INDEX inbound_messages_contact ON inbound_messages (contact_id, at);

CREATE INDEX outbox_outcome ON outbox (outcome, updated_at, last_error_code);
`;
}

export const dashboardHistory: Migration = {
  version: 6,
  name: 'sender changes, inbound messages, outbox by outcome',
  sqlite: body({ id: 'INTEGER PRIMARY KEY', bigint: 'INTEGER', strict: ' STRICT' }),
  postgres: body({ id: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY', bigint: 'BIGINT', strict: '' }),
};
