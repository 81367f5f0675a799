import type { Migration } from './migration.js';

// Stands in for migration 22, reserved by a branch that has not landed yet: the runner needs the
// versions contiguous. Replaced by that branch's own migration when it merges; never released.

export const reserved22: Migration = {
  version: 22,
  name: 'reserved',
  sqlite: 'SELECT 1;',
  postgres: 'SELECT 1;',
};
