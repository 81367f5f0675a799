import type { Migration } from './migration.js';

// Stands in for migration 21, reserved by a branch that has not landed yet: the runner needs the
// versions contiguous. Replaced by that branch's own migration when it merges; never released.

export const reserved21: Migration = {
  version: 21,
  name: 'reserved',
  sqlite: 'SELECT 1;',
  postgres: 'SELECT 1;',
};
