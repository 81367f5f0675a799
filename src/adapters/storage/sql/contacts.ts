import type { ContactState } from '../../../core/contact-state.js';
import type { Contact, ContactKey, ContactWithState } from '../../../ports/store.js';
import type { Capabilities } from '../capabilities.js';
import type { SqlRow, SqlRunner } from '../sql-executor.js';
import { int, json, textOrNull } from './values.js';

export function toContact(caps: Capabilities, row: SqlRow): Contact {
  return {
    id: int(row['id']),
    waId: textOrNull(row['wa_id']),
    bsuid: textOrNull(row['bsuid']),
    phoneE164: textOrNull(row['phone_e164']),
    name: textOrNull(row['name']),
    attributes: json(caps, row['attributes']),
    tags: json<string[]>(caps, row['tags']),
    createdAt: int(row['created_at']),
    updatedAt: int(row['updated_at']),
  };
}

export async function getContact(db: SqlRunner, id: number): Promise<Contact | null> {
  const [row] = await db.query('SELECT * FROM contacts WHERE id = $1', [id]);
  return row ? toContact(db.caps, row) : null;
}

export async function findContact(db: SqlRunner, key: ContactKey): Promise<Contact | null> {
  // The column comes from the key's shape, the value only ever from a parameter.
  const [column, value] =
    'waId' in key ? ['wa_id', key.waId] : 'bsuid' in key ? ['bsuid', key.bsuid] : ['phone_e164', key.phoneE164];
  const [row] = await db.query(`SELECT * FROM contacts WHERE ${column} = $1`, [value]);
  return row ? toContact(db.caps, row) : null;
}

export async function listContacts(db: SqlRunner, afterId: number, limit: number): Promise<Contact[]> {
  const rows = await db.query('SELECT * FROM contacts WHERE id > $1 ORDER BY id LIMIT $2', [afterId, limit]);
  return rows.map((row) => toContact(db.caps, row));
}

/**
 * A page of contacts, each with its stored state (null before its first event), in one query: a
 * planner walking every contact would otherwise read each state on its own.
 */
export async function listContactsWithState(db: SqlRunner, afterId: number, limit: number): Promise<ContactWithState[]> {
  const rows = await db.query(
    `SELECT c.*, s.state AS stored_state, s.version AS stored_version FROM contacts c
LEFT JOIN contact_states s ON s.contact_id = c.id WHERE c.id > $1 ORDER BY c.id LIMIT $2`,
    [afterId, limit],
  );
  return rows.map((row) => ({
    contact: toContact(db.caps, row),
    // Written only by saveContactState from a typed ContactState, so it is read back as one.
    state: row['stored_state'] === null || row['stored_state'] === undefined ? null : { state: json(db.caps, row['stored_state']) as unknown as ContactState, version: int(row['stored_version']) },
  }));
}
