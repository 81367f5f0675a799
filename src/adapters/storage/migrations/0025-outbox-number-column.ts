import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// The number a row goes from becomes a column of its own, written with the row. The index of
// migration 18 read it out of the intent's JSON, which cost a JSON parse per row written: a
// campaign start writing a million rows spent a tenth of its time there. Rows already written get
// it from their intent here.

const index = `CREATE INDEX outbox_due_number ON outbox (status, phone_number_id, next_attempt_at)
  WHERE status = 'queued' OR status = 'held';`;

export const outboxNumberColumn: Migration = {
  version: 25,
  name: 'outbox rows name the number they go from in a column',
  sqlite: `ALTER TABLE outbox ADD COLUMN phone_number_id TEXT;
UPDATE outbox SET phone_number_id = json_extract(intent, '$.phoneNumberId');
DROP INDEX outbox_due_number;
${index}`,
  postgres: `ALTER TABLE outbox ADD COLUMN phone_number_id TEXT;
UPDATE outbox SET phone_number_id = intent #>> '{phoneNumberId}';
DROP INDEX outbox_due_number;
${index}`,
};
