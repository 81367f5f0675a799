import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// A template keeps its time-to-live as Meta lists it (`message_send_ttl_seconds`): how long Meta
// retries a message that cannot be delivered. Null: Meta's default for its category.

export const templateSendTtl: Migration = {
  version: 24,
  name: 'templates keep their time-to-live',
  sqlite: `ALTER TABLE templates ADD COLUMN send_ttl_seconds INTEGER;`,
  postgres: `ALTER TABLE templates ADD COLUMN send_ttl_seconds INTEGER;`,
};
