import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// Why a row waits is its latest decision: with the id in the index, that is one index descent per
// row. By outbox_id alone, PostgreSQL may instead walk the primary key backwards from the newest
// decision of all until it meets the row's, once per row.

const SQL = `DROP INDEX decisions_outbox;
CREATE INDEX decisions_outbox ON decisions (outbox_id, id);`;

export const latestDecisionPerRow: Migration = {
  version: 13,
  name: 'decisions by row, newest found first',
  sqlite: SQL,
  postgres: SQL,
};
