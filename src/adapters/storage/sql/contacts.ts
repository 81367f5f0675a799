import type { Contact, ContactKey, ContactWithState } from '../../../ports/store.js';
import type { Capabilities } from '../capabilities.js';
import type { SqlRow, SqlRunner } from '../sql-executor.js';
import { stateFromColumn } from './contact-state-json.js';
import { inList, int, json, textOrNull } from './values.js';

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
  const [column, value] = 'waId' in key ? ['wa_id', key.waId] : 'bsuid' in key ? ['bsuid', key.bsuid] : ['phone_e164', key.phoneE164];
  const [row] = await db.query(`SELECT * FROM contacts WHERE ${column} = $1`, [value]);
  return row ? toContact(db.caps, row) : null;
}

export async function listContacts(db: SqlRunner, afterId: number, limit: number): Promise<Contact[]> {
  const rows = await db.query('SELECT * FROM contacts WHERE id > $1 ORDER BY id LIMIT $2', [afterId, limit]);
  return rows.map((row) => toContact(db.caps, row));
}

/** The contacts with these ids that exist, each with its stored state, in id order; one read per 1,000 ids. */
export async function getContactsWithState(db: SqlRunner, ids: readonly number[]): Promise<ContactWithState[]> {
  const unique = [...new Set(ids)];
  const out: ContactWithState[] = [];
  for (let i = 0; i < unique.length; i += 1_000) {
    const chunk = unique.slice(i, i + 1_000);
    const rows = await db.query(`${WITH_STATE} WHERE c.id IN (${inList(chunk.length)}) ORDER BY c.id`, chunk);
    out.push(...rows.map((row) => toContactWithState(db.caps, row)));
  }
  return out.sort((a, b) => a.contact.id - b.contact.id);
}

const WITH_STATE = `SELECT c.*, s.state AS stored_state, s.version AS stored_version FROM contacts c
LEFT JOIN contact_states s ON s.contact_id = c.id`;

function toContactWithState(caps: Capabilities, row: SqlRow): ContactWithState {
  const stored = row['stored_state'];
  return {
    contact: toContact(caps, row),
    state: stored === null || stored === undefined ? null : { state: stateFromColumn(caps, stored), version: int(row['stored_version']) },
  };
}
