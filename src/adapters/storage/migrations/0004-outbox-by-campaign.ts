import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// Campaign checks ask "does this campaign still have rows in this state?" every few minutes; the
// index answers that without reading every row of a large campaign.

export const outboxByCampaign: Migration = {
  version: 4,
  name: 'outbox rows by campaign and status',
  sqlite: `CREATE INDEX outbox_campaign_status ON outbox (campaign_id, status, updated_at);`,
  postgres: `CREATE INDEX outbox_campaign_status ON outbox (campaign_id, status, updated_at);`,
};
