import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// A message may carry the caller's own reference (an order id, a ticket number): kept with its row
// so status reads and the events told to subscribers can name it. Null for campaign rows.

export const outboxClientReference: Migration = {
  version: 22,
  name: "outbox rows keep the caller's own reference",
  sqlite: `ALTER TABLE outbox ADD COLUMN client_reference TEXT;`,
  postgres: `ALTER TABLE outbox ADD COLUMN client_reference TEXT;`,
};
