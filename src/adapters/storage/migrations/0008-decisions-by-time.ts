import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// A diagnosis counts the sends of a time window, and of the weeks before it for the volume baseline;
// the decision log only grows, so those counts need an index on the time of each send.

export const decisionsByTime: Migration = {
  version: 8,
  name: 'send decisions by time',
  sqlite: `CREATE INDEX decisions_send_at ON decisions (at) WHERE kind = 'send';`,
  postgres: `CREATE INDEX decisions_send_at ON decisions (at) WHERE kind = 'send';`,
};
