import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// Message events remember the outbox row they belong to (from our callback data), so a campaign's
// recent outcomes can be read even after a retry gave the row a new wamid.

export const eventOutbox: Migration = {
  version: 2,
  name: 'message events carry their outbox row',
  sqlite: `ALTER TABLE message_events ADD COLUMN outbox_id INTEGER;
CREATE INDEX message_events_outbox ON message_events (outbox_id, id);`,
  postgres: `ALTER TABLE message_events ADD COLUMN outbox_id BIGINT;
CREATE INDEX message_events_outbox ON message_events (outbox_id, id);`,
};
