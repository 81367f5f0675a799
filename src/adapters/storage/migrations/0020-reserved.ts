import type { Migration } from './migration.js';

// Holds number 20, reserved for a change being written beside this one, so that 21 can be applied
// in order. It changes nothing; the change that owns 20 replaces this file before a release.

export const reserved20: Migration = {
  version: 20,
  name: 'reserved',
  sqlite: `SELECT 1;`,
  postgres: `SELECT 1;`,
};
