import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// A campaign may have an end time: rows still waiting then (held for a window, or retries not yet
// due) end with the campaign instead of keeping it open for ever.

export const campaignEnd: Migration = {
  version: 5,
  name: 'campaigns may end at a set time',
  sqlite: `ALTER TABLE campaigns ADD COLUMN ends_at INTEGER;`,
  postgres: `ALTER TABLE campaigns ADD COLUMN ends_at BIGINT;`,
};
