import type { InboxInput, InboxRow } from '../../../ports/store.js';
import type { SqlParam, SqlRow, SqlRunner, SqlSession } from '../sql-executor.js';
import { bool, bytes, chunks, inList, int, intOrNull, textOrNull, valuesList } from './values.js';

export function toInbox(row: SqlRow): InboxRow {
  return {
    id: int(row['id']),
    raw: bytes(row['raw']),
    receivedAt: int(row['received_at']),
    signatureOk: bool(row['signature_ok']),
    processedAt: intOrNull(row['processed_at']),
    quarantineReason: textOrNull(row['quarantine_reason']),
  };
}

const APPEND = 'INSERT INTO webhook_inbox (raw, received_at, signature_ok) VALUES ($1, $2, $3) RETURNING id';

/** The hot path: one prepared insert, committed before the webhook is acknowledged. */
export async function appendInbox(db: SqlRunner, entry: InboxInput): Promise<number> {
  const rows = await db.query(APPEND, [entry.raw, entry.receivedAt, entry.signatureOk]);
  return int(rows[0]?.['id']);
}

/** One commit for many payloads. Ids grow in VALUES order within a statement, so sorting restores input order. */
export function appendInboxBatch(db: SqlSession, entries: readonly InboxInput[]): Promise<number[]> {
  if (entries.length === 0) return Promise.resolve([]);
  return db.transaction('appendInboxBatch', async (tx) => {
    const ids: number[] = [];
    for (const chunk of chunks(entries, 3, tx.caps)) {
      const params: SqlParam[] = chunk.flatMap((e) => [e.raw, e.receivedAt, e.signatureOk]);
      const sql = `INSERT INTO webhook_inbox (raw, received_at, signature_ok) VALUES ${valuesList(chunk.length, 3)} RETURNING id`;
      const rows = await tx.query(sql, params);
      ids.push(...rows.map((row) => int(row['id'])).sort((a, b) => a - b));
    }
    return ids;
  });
}

export async function listUnprocessedInbox(db: SqlRunner, afterId: number, limit: number): Promise<InboxRow[]> {
  const rows = await db.query('SELECT * FROM webhook_inbox WHERE processed_at IS NULL AND id > $1 ORDER BY id LIMIT $2', [afterId, limit]);
  return rows.map(toInbox);
}

export function markInboxProcessed(db: SqlSession, ids: readonly number[], now: number): Promise<void> {
  if (ids.length === 0) return Promise.resolve();
  return db.transaction('markInboxProcessed', async (tx) => {
    for (const chunk of chunks(ids, 1, tx.caps)) {
      await tx.execute(`UPDATE webhook_inbox SET processed_at = $1 WHERE id IN (${inList(chunk.length, 2)})`, [now, ...chunk]);
    }
  });
}

/** Kept, not deleted: a fixed parser can replay it. */
export async function quarantineInbox(db: SqlRunner, id: number, reason: string, now: number): Promise<void> {
  await db.execute('UPDATE webhook_inbox SET processed_at = $2, quarantine_reason = $3 WHERE id = $1', [id, now, reason]);
}
