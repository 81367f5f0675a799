import type { ContactState } from '../../../core/contact-state.js';
import type { ContactStateSave, SaveStateResult, StoredContactState } from '../../../ports/store.js';
import type { SqlRunner, SqlSession } from '../sql-executor.js';
import { castValuesList, chunks, inList, int, json, toJson, valuesList } from './values.js';

export async function loadContactState(db: SqlRunner, contactId: number): Promise<StoredContactState | null> {
  const [row] = await db.query('SELECT state, version FROM contact_states WHERE contact_id = $1', [contactId]);
  if (!row) return null;
  // Written only by saveContactState from a typed ContactState, so it is read back as one.
  return { state: json(db.caps, row['state']) as unknown as ContactState, version: int(row['version']) };
}

const CREATE = `INSERT INTO contact_states (contact_id, state, version, updated_at) VALUES ($1, $2, 1, $3)
ON CONFLICT (contact_id) DO NOTHING RETURNING version`;

const REPLACE = `UPDATE contact_states SET state = $2, version = version + 1, updated_at = $4
WHERE contact_id = $1 AND version = $3 RETURNING version`;

/** Optimistic concurrency: the save lands only on the version the caller loaded. */
export async function saveContactState(
  db: SqlRunner,
  contactId: number,
  state: ContactState,
  expectedVersion: number,
  now: number,
): Promise<SaveStateResult> {
  const body = toJson(state);
  const rows =
    expectedVersion === 0
      ? await db.query(CREATE, [contactId, body, now])
      : await db.query(REPLACE, [contactId, body, expectedVersion, now]);
  if (rows[0]) return { ok: true, version: int(rows[0]['version']) };
  const [current] = await db.query('SELECT version FROM contact_states WHERE contact_id = $1', [contactId]);
  return { ok: false, reason: 'version_conflict', currentVersion: current ? int(current['version']) : 0 };
}

export async function loadContactStates(db: SqlRunner, contactIds: readonly number[]): Promise<Map<number, StoredContactState>> {
  const found = new Map<number, StoredContactState>();
  for (const group of chunks([...new Set(contactIds)], 1, db.caps)) {
    const rows = await db.query(
      `SELECT contact_id, state, version FROM contact_states WHERE contact_id IN (${inList(group.length)})`,
      group,
    );
    for (const row of rows) {
      found.set(int(row['contact_id']), { state: json(db.caps, row['state']) as unknown as ContactState, version: int(row['version']) });
    }
  }
  return found;
}

// column1 contact, column2 state, column3 expected version, column4 version after, column5 now.
const CREATE_MANY = (rows: string) => `INSERT INTO contact_states (contact_id, state, version, updated_at) VALUES ${rows}
ON CONFLICT (contact_id) DO NOTHING RETURNING contact_id`;
const REPLACE_MANY = (rows: string) => `UPDATE contact_states SET state = v.column2, version = v.column4, updated_at = v.column5
FROM (VALUES ${rows}) AS v WHERE contact_states.contact_id = v.column1 AND contact_states.version = v.column3
RETURNING contact_states.contact_id`;

/** Creations in one statement and replacements in another (per chunk), each on its expected version. */
export function saveContactStates(db: SqlSession, saves: readonly ContactStateSave[], now: number): Promise<number[]> {
  if (saves.length === 0) return Promise.resolve([]);
  return db.transaction('saveContactStates', async (tx) => {
    const landed: number[] = [];
    const creates = saves.filter((s) => s.expectedVersion === 0);
    for (const group of chunks(creates, 4, tx.caps)) {
      const params = group.flatMap((s) => [s.contactId, toJson(s.state), s.version, now]);
      for (const row of await tx.query(CREATE_MANY(valuesList(group.length, 4)), params)) landed.push(int(row['contact_id']));
    }
    const types = ['BIGINT', tx.caps.jsonCast, 'BIGINT', 'BIGINT', 'BIGINT'] as const;
    for (const group of chunks(
      saves.filter((s) => s.expectedVersion !== 0),
      types.length,
      tx.caps,
    )) {
      const params = group.flatMap((s) => [s.contactId, toJson(s.state), s.expectedVersion, s.version, now]);
      for (const row of await tx.query(REPLACE_MANY(castValuesList(types, group.length)), params)) landed.push(int(row['contact_id']));
    }
    return landed;
  });
}
