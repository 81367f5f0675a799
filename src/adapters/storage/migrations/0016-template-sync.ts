import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// Templates synced from the WhatsApp Business Account keep Meta's id, sub-category, parameter
// format and components (as Meta gave them), and when a sync last saw them. All null for a
// template registered offline and never synced.

export const templateSync: Migration = {
  version: 16,
  name: 'templates keep what Meta lists about them',
  sqlite: `ALTER TABLE templates ADD COLUMN meta_id TEXT;
ALTER TABLE templates ADD COLUMN sub_category TEXT;
ALTER TABLE templates ADD COLUMN parameter_format TEXT CHECK (parameter_format IN ('positional', 'named'));
ALTER TABLE templates ADD COLUMN components TEXT;
ALTER TABLE templates ADD COLUMN synced_at INTEGER;`,
  postgres: `ALTER TABLE templates ADD COLUMN meta_id TEXT;
ALTER TABLE templates ADD COLUMN sub_category TEXT;
ALTER TABLE templates ADD COLUMN parameter_format TEXT CHECK (parameter_format IN ('positional', 'named'));
ALTER TABLE templates ADD COLUMN components JSONB;
ALTER TABLE templates ADD COLUMN synced_at BIGINT;`,
};
