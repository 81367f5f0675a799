import type { Category } from '../../../core/category.js';
import type { ConsentStatus } from '../../../core/contact-event.js';
import type { ConsentEntry, ConsentInput, ConsentRecord } from '../../../ports/store.js';
import type { SqlRow, SqlRunner, SqlSession } from '../sql-executor.js';
import { copied } from './copy-rows.js';
import { chunks, inList, int, textOrNull, valuesList } from './values.js';

function toConsent(row: SqlRow): ConsentRecord {
  return {
    contactId: int(row['contact_id']),
    category: String(row['category']) as Category,
    status: String(row['status']) as ConsentStatus,
    source: String(row['source']),
    evidence: textOrNull(row['evidence']),
    at: int(row['at']),
  };
}

const APPEND = `INSERT INTO consent_events (contact_id, category, status, source, evidence, at, recorded_at)
VALUES ($1, $2, $3, $4, $5, $6, $7)`;

// A record older than the current value stays in the history but does not become current.
const MOVE_CURRENT = `INSERT INTO consent_current (contact_id, category, status, source, evidence, at)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (contact_id, category) DO UPDATE
SET status = excluded.status, source = excluded.source, evidence = excluded.evidence, at = excluded.at
WHERE consent_current.at <= excluded.at`;

const CURRENT = 'SELECT * FROM consent_current WHERE contact_id = $1';

export function setConsent(db: SqlSession, contactId: number, input: ConsentInput, now: number): Promise<ConsentRecord> {
  return db.transaction('setConsent', async (tx) => {
    const params = [contactId, input.category, input.status, input.source, input.evidence, input.at];
    await tx.execute(APPEND, [...params, now]);
    await tx.execute(MOVE_CURRENT, params);
    const [row] = await tx.query(`${CURRENT} AND category = $2`, [contactId, input.category]);
    if (!row) throw new Error(`consent_current has no ${input.category} row for contact ${contactId} after upsert`);
    return toConsent(row);
  });
}

const HISTORY_COLUMNS = 'contact_id, category, status, source, evidence, at, recorded_at';
const CURRENT_COLUMNS = 'contact_id, category, status, source, evidence, at';
const HISTORY_COPY = HISTORY_COLUMNS.split(', ');
const CURRENT_COPY = CURRENT_COLUMNS.split(', ');

/**
 * Many consent records at once, as setConsent one after the other would leave them (history in
 * input order; the current value per contact and category is the newest, the later one on a tie),
 * in two multi-row statements per chunk (PostgreSQL, many rows: COPY) instead of three statements
 * per record. `newContacts` were created in this transaction: they have no current consent yet.
 */
export function setConsents(
  db: SqlSession,
  entries: readonly ConsentEntry[],
  now: number,
  newContacts: ReadonlySet<number> = new Set(),
): Promise<void> {
  if (entries.length === 0) return Promise.resolve();
  return db.transaction('setConsents', async (tx) => {
    const history = entries.map(({ contactId, consent: c }) => [contactId, c.category, c.status, c.source, c.evidence, c.at, now]);
    if (!(await copied(tx, 'consent_events', HISTORY_COPY, history))) {
      for (const chunk of chunks(history, 7, tx.caps)) {
        await tx.execute(`INSERT INTO consent_events (${HISTORY_COLUMNS}) VALUES ${valuesList(chunk.length, 7)}`, chunk.flat());
      }
    }
    // One row per key in a statement: an upsert may not touch the same row twice.
    const newest = new Map<string, ConsentEntry>();
    for (const e of entries) {
      const key = `${e.contactId}:${e.consent.category}`;
      const kept = newest.get(key);
      if (kept === undefined || kept.consent.at <= e.consent.at) newest.set(key, e);
    }
    const rowOf = ({ contactId, consent: c }: ConsentEntry) => [contactId, c.category, c.status, c.source, c.evidence, c.at];
    const kept = [...newest.values()];
    // New contacts have no current consent to replace: theirs go by COPY where it pays, the others' by the upsert.
    const first = kept.filter((e) => newContacts.has(e.contactId)).map(rowOf);
    const copiedFirst = await copied(tx, 'consent_current', CURRENT_COPY, first);
    const upserted = (copiedFirst ? kept.filter((e) => !newContacts.has(e.contactId)) : kept).map(rowOf);
    for (const chunk of chunks(upserted, 6, tx.caps)) {
      await tx.execute(
        `INSERT INTO consent_current (${CURRENT_COLUMNS}) VALUES ${valuesList(chunk.length, 6)}
ON CONFLICT (contact_id, category) DO UPDATE
SET status = excluded.status, source = excluded.source, evidence = excluded.evidence, at = excluded.at
WHERE consent_current.at <= excluded.at`,
        chunk.flat(),
      );
    }
  });
}

export async function getConsent(db: SqlRunner, contactId: number): Promise<Partial<Record<Category, ConsentRecord>>> {
  const rows = await db.query(CURRENT, [contactId]);
  return Object.fromEntries(rows.map((row) => [String(row['category']), toConsent(row)]));
}

export async function consentHistory(db: SqlRunner, contactId: number): Promise<ConsentRecord[]> {
  const rows = await db.query('SELECT * FROM consent_events WHERE contact_id = $1 ORDER BY at, id', [contactId]);
  return rows.map(toConsent);
}

/** The current consent statuses of many contacts, in a few statements (imports compare before they record). */
export async function currentConsents(
  db: SqlRunner,
  contactIds: readonly number[],
): Promise<Map<number, Partial<Record<Category, ConsentStatus>>>> {
  const out = new Map<number, Partial<Record<Category, ConsentStatus>>>();
  for (const chunk of chunks([...new Set(contactIds)], 1, db.caps)) {
    const rows = await db.query(
      `SELECT contact_id, category, status FROM consent_current WHERE contact_id IN (${inList(chunk.length)})`,
      chunk,
    );
    for (const row of rows) {
      const id = int(row['contact_id']);
      const statuses = out.get(id) ?? {};
      statuses[String(row['category']) as Category] = String(row['status']) as ConsentStatus;
      out.set(id, statuses);
    }
  }
  return out;
}
