import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// A campaign may say when its messages go in each recipient's local time (a send window on chosen
// weekdays, the zone for recipients whose zone is not known) and how late they may still go (a
// maximum delay after it queued them). Null: the installation's quiet hours, no limit.

export const campaignTiming: Migration = {
  version: 19,
  name: 'campaigns keep their send window and maximum delay',
  sqlite: `ALTER TABLE campaigns ADD COLUMN timing TEXT;`,
  postgres: `ALTER TABLE campaigns ADD COLUMN timing JSONB;`,
};
