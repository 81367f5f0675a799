import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// Every index on a column that a send's lifecycle changes (status, outcome, updated_at) is rewritten
// by each of a message's five or six transitions. Keep only what a query needs:
// - the campaign's counters index also answers "accepted lately" (it replaces outbox_campaign_status);
// - due rows are only queued or held rows, so the due index holds only those;
// - rows by contact need the contact alone (a contact has a handful of rows);
// - the failures-per-day series needs failed rows only.

const SQL = `DROP INDEX outbox_campaign_status;
DROP INDEX outbox_campaign_counters;
CREATE INDEX outbox_campaign_counters ON outbox (campaign_id, status, outcome, updated_at);
DROP INDEX outbox_due;
CREATE INDEX outbox_due ON outbox (status, next_attempt_at) WHERE status = 'queued' OR status = 'held';
DROP INDEX outbox_contact;
CREATE INDEX outbox_contact ON outbox (contact_id);
DROP INDEX outbox_outcome;
CREATE INDEX outbox_failures ON outbox (updated_at, last_error_code) WHERE outcome IN ('failed', 'capped_exhausted');`;

export const outboxLeanIndexes: Migration = {
  version: 11,
  name: 'outbox indexes that a send transition does not rewrite',
  sqlite: SQL,
  postgres: SQL,
};
