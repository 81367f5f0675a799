import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// Version 23 was set aside for contact lookups that turned out to need no schema change (wa_id,
// bsuid and phone are unique, hence indexed already); the runner needs versions contiguous, so it
// is kept as a migration that changes nothing.

export const reserved23: Migration = {
  version: 23,
  name: 'nothing (the number was set aside for contact lookups, which needed no change)',
  sqlite: 'SELECT 1;',
  postgres: 'SELECT 1;',
};
