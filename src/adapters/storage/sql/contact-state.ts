import type { ContactState } from '../../../core/contact-state.js';
import type { SaveStateResult, StoredContactState } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { int, json, toJson } from './values.js';

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
