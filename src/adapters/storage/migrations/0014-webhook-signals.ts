import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// The account-level webhook signals applied (template status and quality, number quality, account
// restrictions), per subject: only those of the newest event time are kept. An older signal is
// refused by its time, a redelivered one by its fingerprint (a digest of what it says).

export const webhookSignals: Migration = {
  version: 14,
  name: 'account-level webhook signals applied, newest per subject',
  sqlite: `CREATE TABLE webhook_signals (
  subject TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  at INTEGER NOT NULL,
  recorded_at INTEGER NOT NULL,
  PRIMARY KEY (subject, fingerprint)
) STRICT;`,
  postgres: `CREATE TABLE webhook_signals (
  subject TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  at BIGINT NOT NULL,
  recorded_at BIGINT NOT NULL,
  PRIMARY KEY (subject, fingerprint)
);`,
};
