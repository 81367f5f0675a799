import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// Who each sender number started a conversation with (a template outside an open window), and
// when the current rolling 24 h began: Meta's messaging limit counts these people.

export const senderConversations: Migration = {
  version: 7,
  name: 'people each sender number started conversations with',
  sqlite: `CREATE TABLE sender_conversations (
  sender_id INTEGER NOT NULL REFERENCES senders (id),
  contact_id INTEGER NOT NULL REFERENCES contacts (id),
  opened_at INTEGER NOT NULL,
  PRIMARY KEY (sender_id, contact_id)
) STRICT;
CREATE INDEX sender_conversations_window ON sender_conversations (sender_id, opened_at);`,
  postgres: `CREATE TABLE sender_conversations (
  sender_id BIGINT NOT NULL REFERENCES senders (id),
  contact_id BIGINT NOT NULL REFERENCES contacts (id),
  opened_at BIGINT NOT NULL,
  PRIMARY KEY (sender_id, contact_id)
);
CREATE INDEX sender_conversations_window ON sender_conversations (sender_id, opened_at);`,
};
