import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// A campaign keeps where each of its template's values comes from (attribute, constant, media),
// checked against the template when it was created. Null: the template takes no values.

export const campaignParameters: Migration = {
  version: 17,
  name: 'campaigns keep their template parameter mapping',
  sqlite: `ALTER TABLE campaigns ADD COLUMN parameters TEXT;`,
  postgres: `ALTER TABLE campaigns ADD COLUMN parameters JSONB;`,
};
