import type { ContactState } from '../../../core/contact-state.js';
import type { ContactStateSave, SaveStateResult, StoredContactState } from '../../../ports/store.js';
import type { Capabilities } from '../capabilities.js';
import type { SqlRunner, SqlSession } from '../sql-executor.js';
import { stateColumn, stateFromColumn } from './contact-state-json.js';
import { copied } from './copy-rows.js';
import { chunks, inList, int, valuesList } from './values.js';

export async function loadContactState(db: SqlRunner, contactId: number): Promise<StoredContactState | null> {
  const [row] = await db.query('SELECT state, version FROM contact_states WHERE contact_id = $1', [contactId]);
  if (!row) return null;
  return { state: stateFromColumn(db.caps, row['state']), version: int(row['version']) };
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
  const body = stateColumn(state);
  const rows =
    expectedVersion === 0
      ? await db.query(CREATE, [contactId, body, now])
      : await db.query(REPLACE, [contactId, body, expectedVersion, now]);
  if (rows[0]) return { ok: true, version: int(rows[0]['version']) };
  const [current] = await db.query('SELECT version FROM contact_states WHERE contact_id = $1', [contactId]);
  return { ok: false, reason: 'version_conflict', currentVersion: current ? int(current['version']) : 0 };
}

/** Many contacts' states in a few statements (imports reduce a whole batch at once). */
export async function loadContactStates(db: SqlRunner, contactIds: readonly number[]): Promise<Map<number, StoredContactState>> {
  const out = new Map<number, StoredContactState>();
  for (const chunk of chunks([...new Set(contactIds)], 1, db.caps)) {
    const rows = await db.query(
      `SELECT contact_id, state, version FROM contact_states WHERE contact_id IN (${inList(chunk.length)})`,
      chunk,
    );
    for (const row of rows) {
      out.set(int(row['contact_id']), { state: stateFromColumn(db.caps, row['state']), version: int(row['version']) });
    }
  }
  return out;
}

const STATE_UPDATE_WIDTH = 4;

/** `(CAST($n AS BIGINT), CAST($n+1 AS <json>), CAST($n+2 AS BIGINT), CAST($n+3 AS BIGINT)), …`: PostgreSQL needs the types. */
function stateRows(caps: Capabilities, rows: number, from: number): string {
  const types = ['BIGINT', caps.jsonParsedOnRead ? 'JSONB' : 'TEXT', 'BIGINT', 'BIGINT'];
  const out: string[] = [];
  for (let r = 0; r < rows; r++) {
    out.push(`(${types.map((t, c) => `CAST($${r * STATE_UPDATE_WIDTH + c + from} AS ${t})`).join(', ')})`);
  }
  return out.join(', ');
}

/**
 * Many saves in a few statements, each as `saveContactState` would do it: a save lands only on the
 * version its caller loaded (0: the row must not exist yet) and stores `version`. Returns the
 * contacts whose save landed; the others lost a race and are for the caller to re-read.
 */
export async function saveContactStates(db: SqlSession, saves: readonly ContactStateSave[], now: number): Promise<Set<number>> {
  const landed = new Set<number>();
  if (saves.length === 0) return landed;
  return db.transaction('saveContactStates', async (tx) => {
    const created = saves
      .filter((s) => s.expectedVersion === 0)
      .map((s) => [s.contactId, stateColumn(s.state), s.version, now] as [number, string, number, number]);
    // Contacts with no state yet (a new contact's import) take the COPY, and every one of them lands.
    if (await copied(tx, 'contact_states', ['contact_id', 'state', 'version', 'updated_at'], created)) {
      for (const [contactId] of created) landed.add(contactId);
    } else {
      for (const chunk of chunks(created, 4, tx.caps)) {
        const rows = await tx.query(
          `INSERT INTO contact_states (contact_id, state, version, updated_at) VALUES ${valuesList(chunk.length, 4)}
ON CONFLICT (contact_id) DO NOTHING RETURNING contact_id`,
          chunk.flat(),
        );
        for (const row of rows) landed.add(int(row['contact_id']));
      }
    }
    const replaced = saves.filter((s) => s.expectedVersion !== 0);
    for (const chunk of chunks(replaced, STATE_UPDATE_WIDTH, tx.caps)) {
      const params = [now, ...chunk.flatMap((s) => [s.contactId, stateColumn(s.state), s.expectedVersion, s.version])];
      const rows = await tx.query(
        `UPDATE contact_states SET state = v.column2, version = v.column4, updated_at = $1
FROM (VALUES ${stateRows(tx.caps, chunk.length, 2)}) AS v
WHERE contact_states.contact_id = v.column1 AND contact_states.version = v.column3
RETURNING contact_states.contact_id`,
        params,
      );
      for (const row of rows) landed.add(int(row['contact_id']));
    }
    return landed;
  });
}
