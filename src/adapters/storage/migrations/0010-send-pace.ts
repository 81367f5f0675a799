import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// Send pacing shared by every process: one token bucket row per key (a sender number's throughput),
// refilled by whoever takes from it next, so several workers together keep to one number's limit.

export const sendPace: Migration = {
  version: 10,
  name: 'send pace buckets shared by all workers',
  sqlite: `CREATE TABLE send_pace (
  pace_key TEXT PRIMARY KEY,
  tokens REAL NOT NULL,
  refilled_at INTEGER NOT NULL,
  granted INTEGER NOT NULL DEFAULT 0
) STRICT;`,
  postgres: `CREATE TABLE send_pace (
  pace_key TEXT PRIMARY KEY,
  tokens DOUBLE PRECISION NOT NULL,
  refilled_at BIGINT NOT NULL,
  granted INTEGER NOT NULL DEFAULT 0
);`,
};
