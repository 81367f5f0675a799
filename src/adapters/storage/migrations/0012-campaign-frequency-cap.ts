import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// A campaign may set its own frequency cap (at most `max` marketing messages per contact per
// `window_ms`; max 0 turns the cap off for it). Both null: the installation's cap applies.

export const campaignFrequencyCap: Migration = {
  version: 12,
  name: 'campaigns may set their own frequency cap',
  sqlite: `ALTER TABLE campaigns ADD COLUMN frequency_cap_max INTEGER;
ALTER TABLE campaigns ADD COLUMN frequency_cap_window_ms INTEGER;`,
  postgres: `ALTER TABLE campaigns ADD COLUMN frequency_cap_max INTEGER;
ALTER TABLE campaigns ADD COLUMN frequency_cap_window_ms BIGINT;`,
};
