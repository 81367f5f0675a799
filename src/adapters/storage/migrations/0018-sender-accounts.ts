import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// Many numbers in one installation: each number's WhatsApp Business Account and business portfolio
// (whose numbers share one messaging limit), and what Meta last said about it when Pacer read the
// number (display name, Meta's own status, name review, throughput level). Null until first read.
// A campaign may send from a pool of numbers (spread, or by the recipient's country): `sender_pool`.
// A reply is kept with the number it was written to: a service answer goes back from that number.
// Each number's worker claims its own due rows through an index led by the number (every intent
// names it): a number with a few rows due is not slowed by another's million.

const columns = `ALTER TABLE senders ADD COLUMN business_account_id TEXT;
ALTER TABLE senders ADD COLUMN portfolio_id TEXT;
ALTER TABLE senders ADD COLUMN verified_name TEXT;
ALTER TABLE senders ADD COLUMN meta_status TEXT;
ALTER TABLE senders ADD COLUMN name_status TEXT;
ALTER TABLE senders ADD COLUMN throughput_level TEXT;
ALTER TABLE inbound_messages ADD COLUMN phone_number_id TEXT;`;

export const senderAccounts: Migration = {
  version: 18,
  name: 'senders know their account, portfolio and what Meta says of them',
  sqlite: `${columns}
ALTER TABLE senders ADD COLUMN synced_at INTEGER;
ALTER TABLE campaigns ADD COLUMN sender_pool TEXT;
CREATE INDEX senders_portfolio ON senders (portfolio_id);
CREATE INDEX outbox_due_number ON outbox (status, json_extract(intent, '$.phoneNumberId'), next_attempt_at)
  WHERE status = 'queued' OR status = 'held';`,
  postgres: `${columns}
ALTER TABLE senders ADD COLUMN synced_at BIGINT;
ALTER TABLE campaigns ADD COLUMN sender_pool JSONB;
CREATE INDEX senders_portfolio ON senders (portfolio_id);
CREATE INDEX outbox_due_number ON outbox (status, (intent #>> '{phoneNumberId}'), next_attempt_at)
  WHERE status = 'queued' OR status = 'held';`,
};
