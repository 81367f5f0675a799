import { StoreError, type Contact, type ContactInput, type ContactKey, type UpsertContactsResult } from '../../../ports/store.js';
import type { Capabilities } from '../capabilities.js';
import type { SqlExecutor, SqlRow, SqlRunner } from '../sql-executor.js';
import { int, json, textOrNull, toJson } from './values.js';

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

// Matching prefers wa_id, then the business-scoped id, then the phone number.
const FIND_MATCH = `SELECT * FROM contacts
WHERE wa_id = $1 OR bsuid = $2 OR phone_e164 = $3
ORDER BY CASE WHEN wa_id = $1 THEN 0 WHEN bsuid = $2 THEN 1 ELSE 2 END
LIMIT 1`;

const INSERT = `INSERT INTO contacts (wa_id, bsuid, phone_e164, name, attributes, tags, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id`;

const UPDATE = `UPDATE contacts SET wa_id = $2, bsuid = $3, phone_e164 = $4, name = $5, attributes = $6, tags = $7, updated_at = $8
WHERE id = $1`;

async function upsertOne(tx: SqlRunner, input: ContactInput, index: number, now: number): Promise<{ id: number; created: boolean }> {
  const waId = input.waId ?? null;
  const bsuid = input.bsuid ?? null;
  const phone = input.phoneE164 ?? null;
  if (waId === null && bsuid === null && phone === null) {
    throw new StoreError('constraint', 'upsertContacts', `contacts[${index}] needs waId, bsuid or phoneE164`);
  }
  const [row] = await tx.query(FIND_MATCH, [waId, bsuid, phone]);
  if (!row) {
    const inserted = await tx.query(INSERT, [waId, bsuid, phone, input.name ?? null, toJson(input.attributes ?? {}), toJson([...new Set(input.tags ?? [])]), now]);
    return { id: int(inserted[0]?.['id']), created: true };
  }
  const existing = toContact(tx.caps, row);
  const tags = [...new Set([...existing.tags, ...(input.tags ?? [])])];
  await tx.execute(UPDATE, [
    existing.id,
    waId ?? existing.waId,
    bsuid ?? existing.bsuid,
    phone ?? existing.phoneE164,
    input.name ?? existing.name,
    toJson({ ...existing.attributes, ...input.attributes }),
    toJson(tags),
    now,
  ]);
  return { id: existing.id, created: false };
}

/** One transaction; a contact seen twice in the batch is merged, not duplicated. */
export function upsertContacts(db: SqlExecutor, inputs: readonly ContactInput[], now: number): Promise<UpsertContactsResult> {
  return db.transaction('upsertContacts', async (tx) => {
    const result: UpsertContactsResult = { ids: [], created: 0, updated: 0 };
    for (const [index, input] of inputs.entries()) {
      const { id, created } = await upsertOne(tx, input, index, now);
      result.ids.push(id);
      if (created) result.created += 1;
      else result.updated += 1;
    }
    return result;
  });
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
