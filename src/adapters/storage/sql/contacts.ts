import type { Contact, ContactKey } from '../../../ports/store.js';
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
