import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// Campaign counters group a campaign's rows by status and outcome. With both in the index the count
// reads the index alone, in order, instead of fetching every row of a large campaign and sorting it.

export const outboxCampaignCounters: Migration = {
  version: 9,
  name: 'outbox counters by campaign, status and outcome',
  sqlite: `CREATE INDEX outbox_campaign_counters ON outbox (campaign_id, status, outcome);`,
  postgres: `CREATE INDEX outbox_campaign_counters ON outbox (campaign_id, status, outcome);`,
};
