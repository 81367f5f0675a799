import { StoreError, type Contact, type ContactInput, type UpsertContactsResult } from '../../../ports/store.js';
import type { SqlParam, SqlRunner, SqlSession } from '../sql-executor.js';
import { toContact } from './contacts.js';
import { copied, copies } from './copy-rows.js';
import { chunks, inList, int, textOrNull, toJson, valuesList } from './values.js';

/** A contact as this batch sees it: a loaded row, or a new one not yet inserted (id null). */
interface Working {
  id: number | null;
  waId: string | null;
  bsuid: string | null;
  phoneE164: string | null;
  name: string | null;
  attributes: Contact['attributes'];
  tags: string[];
  dirty: boolean;
}

type Keys = Pick<Working, 'waId' | 'bsuid' | 'phoneE164'>;

class Index {
  private readonly maps = { waId: new Map<string, Working>(), bsuid: new Map<string, Working>(), phoneE164: new Map<string, Working>() };

  add(contact: Working): void {
    for (const key of ['waId', 'bsuid', 'phoneE164'] as const) {
      const value = contact[key];
      if (value !== null) this.maps[key].set(value, contact);
    }
  }

  /** Matching prefers wa_id, then the business-scoped id, then the phone number. */
  find(keys: Keys): Working | undefined {
    return (
      (keys.waId !== null ? this.maps.waId.get(keys.waId) : undefined) ??
      (keys.bsuid !== null ? this.maps.bsuid.get(keys.bsuid) : undefined) ??
      (keys.phoneE164 !== null ? this.maps.phoneE164.get(keys.phoneE164) : undefined)
    );
  }
}

function keysOf(input: ContactInput, index: number): Keys {
  const keys = { waId: input.waId ?? null, bsuid: input.bsuid ?? null, phoneE164: input.phoneE164 ?? null };
  if (keys.waId === null && keys.bsuid === null && keys.phoneE164 === null) {
    throw new StoreError('constraint', 'upsertContacts', `contacts[${index}] needs waId, bsuid or phoneE164`);
  }
  return keys;
}

/** Loads every stored contact any input of the chunk could match, in one query. */
async function loadMatches(tx: SqlRunner, keys: readonly Keys[], index: Index): Promise<void> {
  const params: SqlParam[] = [];
  const terms: string[] = [];
  for (const [column, field] of [
    ['wa_id', 'waId'],
    ['bsuid', 'bsuid'],
    ['phone_e164', 'phoneE164'],
  ] as const) {
    const values = [...new Set(keys.map((k) => k[field]).filter((v): v is string => v !== null))];
    if (values.length === 0) continue;
    terms.push(`${column} IN (${inList(values.length, params.length + 1)})`);
    params.push(...values);
  }
  const rows = await tx.query(`SELECT * FROM contacts WHERE ${terms.join(' OR ')}`, params);
  for (const row of rows) index.add({ ...toContact(tx.caps, row), dirty: false });
}

/** Merges one input into a contact; true when it changed a field. */
function merge(target: Working, keys: Keys, input: ContactInput): boolean {
  const { dirty: _dirty, ...fields } = target;
  const before = JSON.stringify(fields);
  target.waId = keys.waId ?? target.waId;
  target.bsuid = keys.bsuid ?? target.bsuid;
  target.phoneE164 = keys.phoneE164 ?? target.phoneE164;
  target.name = input.name ?? target.name;
  target.attributes = { ...target.attributes, ...input.attributes };
  target.tags = [...new Set([...target.tags, ...(input.tags ?? [])])];
  const { dirty: _after, ...merged } = target;
  const changed = JSON.stringify(merged) !== before;
  if (changed) target.dirty = true;
  return changed;
}

const INSERT_COLUMNS = 'wa_id, bsuid, phone_e164, name, attributes, tags, created_at, updated_at';
const COPY_COLUMNS = ['id', ...INSERT_COLUMNS.split(', ')];

/** Ids for new contacts, taken from the identity column's own sequence, as an INSERT would. */
const RESERVE_IDS = "SELECT nextval(pg_get_serial_sequence('contacts', 'id')) AS id FROM generate_series(1, $1)";

/** Many new contacts by COPY, with ids reserved first (COPY returns none); false when it was not used. */
async function copyNew(tx: SqlRunner, fresh: Working[], now: number): Promise<boolean> {
  if (!copies(tx, fresh.length)) return false;
  const ids = (await tx.query(RESERVE_IDS, [fresh.length])).map((row) => int(row['id'])).sort((a, b) => a - b);
  const rows = fresh.map((c, i) => [ids[i]!, c.waId, c.bsuid, c.phoneE164, c.name, toJson(c.attributes), toJson(c.tags), now, now]);
  if (!(await copied(tx, 'contacts', COPY_COLUMNS, rows))) return false;
  for (const [i, contact] of fresh.entries()) contact.id = ids[i]!;
  return true;
}

async function insertNew(tx: SqlRunner, fresh: Working[], now: number): Promise<void> {
  if (fresh.length === 0 || (await copyNew(tx, fresh, now))) return;
  const params = fresh.flatMap((c) => [c.waId, c.bsuid, c.phoneE164, c.name, toJson(c.attributes), toJson(c.tags), now, now]);
  const rows = await tx.query(
    `INSERT INTO contacts (${INSERT_COLUMNS}) VALUES ${valuesList(fresh.length, 8)} RETURNING id, wa_id, bsuid, phone_e164`,
    params,
  );
  // Map ids back by key rather than trusting RETURNING order.
  const byKey = { waId: new Map<string, number>(), bsuid: new Map<string, number>(), phoneE164: new Map<string, number>() };
  for (const row of rows) {
    const id = int(row['id']);
    for (const [key, column] of KEY_COLUMNS) {
      const value = textOrNull(row[column]);
      if (value !== null) byKey[key].set(value, id);
    }
  }
  for (const contact of fresh) {
    contact.id =
      (contact.waId !== null ? byKey.waId.get(contact.waId) : undefined) ??
      (contact.bsuid !== null ? byKey.bsuid.get(contact.bsuid) : undefined) ??
      (contact.phoneE164 !== null ? byKey.phoneE164.get(contact.phoneE164) : undefined) ??
      null;
  }
}

const KEY_COLUMNS = [
  ['waId', 'wa_id'],
  ['bsuid', 'bsuid'],
  ['phoneE164', 'phone_e164'],
] as const;

const UPDATE_TYPES = ['BIGINT', 'TEXT', 'TEXT', 'TEXT', 'TEXT'] as const;

/** The changed contacts of a chunk in one statement (re-imports with changes), each row as UPDATE would set it. */
async function updateChanged(tx: SqlRunner, changed: Working[], now: number): Promise<void> {
  const json = tx.caps.jsonParsedOnRead ? 'JSONB' : 'TEXT';
  const types = [...UPDATE_TYPES, json, json];
  for (const chunk of chunks(changed, types.length, tx.caps)) {
    const params: SqlParam[] = [now];
    const rows = chunk.map((c) => {
      params.push(c.id, c.waId, c.bsuid, c.phoneE164, c.name, toJson(c.attributes), toJson(c.tags));
      const from = params.length - types.length + 1;
      return `(${types.map((t, i) => `CAST($${from + i} AS ${t})`).join(', ')})`;
    });
    await tx.execute(
      `UPDATE contacts SET wa_id = v.column2, bsuid = v.column3, phone_e164 = v.column4, name = v.column5, attributes = v.column6,
  tags = v.column7, updated_at = $1
FROM (VALUES ${rows.join(', ')}) AS v WHERE contacts.id = v.column1`,
      params,
    );
  }
}

/**
 * Per chunk: one query loads every possible match, the chunk is merged in memory (so a contact
 * listed twice is merged, not duplicated), new contacts go in one INSERT, and only contacts whose
 * fields actually changed are updated — re-importing the same file writes nothing.
 */
export function upsertContacts(db: SqlSession, inputs: readonly ContactInput[], now: number): Promise<UpsertContactsResult> {
  const keyed = inputs.map((input, i) => ({ input, keys: keysOf(input, i) }));
  return db.transaction('upsertContacts', async (tx) => {
    const result: UpsertContactsResult = { ids: [], created: 0, updated: 0, outcomes: [] };
    for (const chunk of chunks(keyed, 9, tx.caps)) {
      const index = new Index();
      await loadMatches(
        tx,
        chunk.map((k) => k.keys),
        index,
      );
      const touched: Working[] = [];
      const fresh: Working[] = [];
      for (const { input, keys } of chunk) {
        let contact = index.find(keys);
        if (contact) {
          result.outcomes.push(merge(contact, keys, input) ? 'updated' : 'unchanged');
          result.updated += 1;
        } else {
          contact = {
            id: null,
            ...keys,
            name: input.name ?? null,
            attributes: { ...input.attributes },
            tags: [...new Set(input.tags ?? [])],
            dirty: false,
          };
          fresh.push(contact);
          result.created += 1;
          result.outcomes.push('created');
        }
        index.add(contact);
        touched.push(contact);
      }
      await insertNew(tx, fresh, now);
      const inserted = new Set(fresh);
      await updateChanged(
        tx,
        [...new Set(touched)].filter((c) => c.dirty && !inserted.has(c)),
        now,
      );
      result.ids.push(...touched.map((c) => int(c.id)));
    }
    return result;
  });
}
