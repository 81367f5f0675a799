import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// Times are epoch milliseconds (BIGINT) in both dialects; JSON is TEXT in SQLite and JSONB in PostgreSQL.

const CATEGORY = `('marketing', 'utility', 'authentication', 'service')`;
const CONSENT = `('granted', 'revoked', 'unknown')`;
const TEMPLATE_STATUS = `('approved', 'pending', 'paused', 'disabled', 'rejected', 'deleted', 'unknown')`;
const SENDER_STATE = `('ok', 'throttled', 'stopped')`;
const CAMPAIGN_STATUS = `('draft', 'scheduled', 'running', 'paused', 'completed', 'cancelled')`;
const OUTBOX_STATUS = `('queued', 'held', 'leased', 'sending', 'sent', 'done', 'unknown')`;
const OUTCOME = `('accepted', 'delivered', 'read', 'failed', 'skipped', 'capped_exhausted', 'cancelled')`;
const DELIVERY = `('sent', 'delivered', 'read', 'played', 'failed')`;
const DECISION = `('send', 'defer', 'hold', 'skip')`;

/** One body for both dialects; only the column types differ. */
function tables(t: { id: string; bigint: string; json: string; bool: string; bytes: string; strict: string }): string {
  return `
CREATE TABLE contacts (
  id ${t.id},
  wa_id TEXT UNIQUE,
  bsuid TEXT UNIQUE,
  phone_e164 TEXT UNIQUE,
  name TEXT,
  attributes ${t.json} NOT NULL,
  tags ${t.json} NOT NULL,
  created_at ${t.bigint} NOT NULL,
  updated_at ${t.bigint} NOT NULL,
  CHECK (wa_id IS NOT NULL OR bsuid IS NOT NULL OR phone_e164 IS NOT NULL)
)${t.strict};

CREATE TABLE consent_events (
  id ${t.id},
  contact_id ${t.bigint} NOT NULL REFERENCES contacts (id),
  category TEXT NOT NULL CHECK (category IN ${CATEGORY}),
  status TEXT NOT NULL CHECK (status IN ${CONSENT}),
  source TEXT NOT NULL,
  evidence TEXT,
  at ${t.bigint} NOT NULL,
  recorded_at ${t.bigint} NOT NULL
)${t.strict};
CREATE INDEX consent_events_contact ON consent_events (contact_id, at);

CREATE TABLE consent_current (
  contact_id ${t.bigint} NOT NULL REFERENCES contacts (id),
  category TEXT NOT NULL CHECK (category IN ${CATEGORY}),
  status TEXT NOT NULL CHECK (status IN ${CONSENT}),
  source TEXT NOT NULL,
  evidence TEXT,
  at ${t.bigint} NOT NULL,
  PRIMARY KEY (contact_id, category)
)${t.strict};

CREATE TABLE contact_states (
  contact_id ${t.bigint} PRIMARY KEY REFERENCES contacts (id),
  state ${t.json} NOT NULL,
  version ${t.bigint} NOT NULL CHECK (version > 0),
  updated_at ${t.bigint} NOT NULL
)${t.strict};

CREATE TABLE templates (
  id ${t.id},
  name TEXT NOT NULL,
  language TEXT NOT NULL,
  category TEXT NOT NULL CHECK (category IN ${CATEGORY}),
  status TEXT NOT NULL CHECK (status IN ${TEMPLATE_STATUS}),
  quality TEXT,
  paused_until ${t.bigint},
  updated_at ${t.bigint} NOT NULL,
  UNIQUE (name, language)
)${t.strict};

CREATE TABLE senders (
  id ${t.id},
  phone_number_id TEXT NOT NULL UNIQUE,
  display_number TEXT NOT NULL,
  quality_rating TEXT,
  throughput_mps ${t.bigint} NOT NULL,
  messaging_limit_tier TEXT,
  state TEXT NOT NULL CHECK (state IN ${SENDER_STATE}),
  state_reason TEXT,
  state_until ${t.bigint},
  updated_at ${t.bigint} NOT NULL
)${t.strict};

CREATE TABLE campaigns (
  id ${t.id},
  name TEXT NOT NULL,
  template_id ${t.bigint} NOT NULL REFERENCES templates (id),
  sender_id ${t.bigint} NOT NULL REFERENCES senders (id),
  segment ${t.json} NOT NULL,
  scheduled_at ${t.bigint},
  policy_preset TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ${CAMPAIGN_STATUS}),
  pause_reason TEXT,
  created_at ${t.bigint} NOT NULL,
  updated_at ${t.bigint} NOT NULL
)${t.strict};

CREATE TABLE outbox (
  id ${t.id},
  campaign_id ${t.bigint} REFERENCES campaigns (id),
  contact_id ${t.bigint} NOT NULL REFERENCES contacts (id),
  sender_id ${t.bigint} REFERENCES senders (id),
  category TEXT NOT NULL CHECK (category IN ${CATEGORY}),
  intent ${t.json} NOT NULL,
  idempotency_key TEXT UNIQUE,
  status TEXT NOT NULL CHECK (status IN ${OUTBOX_STATUS}),
  attempts ${t.bigint} NOT NULL DEFAULT 0,
  cap_attempts ${t.bigint} NOT NULL DEFAULT 0,
  next_attempt_at ${t.bigint},
  lease_owner TEXT,
  lease_expires_at ${t.bigint},
  wamid TEXT UNIQUE,
  last_error_code ${t.bigint},
  outcome TEXT CHECK (outcome IN ${OUTCOME}),
  created_at ${t.bigint} NOT NULL,
  updated_at ${t.bigint} NOT NULL,
  UNIQUE (campaign_id, contact_id)
)${t.strict};
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
CREATE INDEX outbox_contact ON outbox (contact_id, status);
CREATE INDEX outbox_lease ON outbox (lease_expires_at) WHERE lease_expires_at IS NOT NULL;

CREATE TABLE webhook_inbox (
  id ${t.id},
  raw ${t.bytes} NOT NULL,
  received_at ${t.bigint} NOT NULL,
  signature_ok ${t.bool} NOT NULL,
  processed_at ${t.bigint},
  quarantine_reason TEXT
)${t.strict};
CREATE INDEX webhook_inbox_unprocessed ON webhook_inbox (id) WHERE processed_at IS NULL;

CREATE TABLE message_events (
  id ${t.id},
  wamid TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ${DELIVERY}),
  at ${t.bigint} NOT NULL,
  error_code ${t.bigint},
  inbox_id ${t.bigint} REFERENCES webhook_inbox (id),
  recorded_at ${t.bigint} NOT NULL,
  UNIQUE (wamid, status)
)${t.strict};

CREATE TABLE decisions (
  id ${t.id},
  outbox_id ${t.bigint} REFERENCES outbox (id),
  contact_id ${t.bigint} NOT NULL REFERENCES contacts (id),
  kind TEXT NOT NULL CHECK (kind IN ${DECISION}),
  reason TEXT NOT NULL,
  explanation TEXT NOT NULL,
  until ${t.bigint},
  at ${t.bigint} NOT NULL
)${t.strict};
CREATE INDEX decisions_outbox ON decisions (outbox_id);
CREATE INDEX decisions_contact ON decisions (contact_id, at);
`;
}

export const initial: Migration = {
  version: 1,
  name: 'initial',
  sqlite: tables({ id: 'INTEGER PRIMARY KEY', bigint: 'INTEGER', json: 'TEXT', bool: 'INTEGER', bytes: 'BLOB', strict: ' STRICT' }),
  postgres: tables({
    id: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
    bigint: 'BIGINT',
    json: 'JSONB',
    bool: 'BOOLEAN',
    bytes: 'BYTEA',
    strict: '',
  }),
};
