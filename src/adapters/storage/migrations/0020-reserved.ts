import type { Migration } from './migration.js';

// Stands in for migration 20, reserved by a branch that has not landed yet: the runner needs the
// versions contiguous. Replaced by that branch's own migration when it merges; never released.

export const reserved20: Migration = {
  version: 20,
  name: 'reserved',
  sqlite: 'SELECT 1;',
  postgres: 'SELECT 1;',
};
