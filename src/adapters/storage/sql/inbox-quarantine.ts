import type { InboxRow } from '../../../ports/store.js';
import type { SqlRunner } from '../sql-executor.js';
import { toInbox } from './inbox.js';

/** Quarantined payloads, oldest first, for operators (`pacer webhooks quarantine`). */
export async function listQuarantinedInbox(db: SqlRunner, afterId: number, limit: number): Promise<InboxRow[]> {
  const rows = await db.query('SELECT * FROM webhook_inbox WHERE quarantine_reason IS NOT NULL AND id > $1 ORDER BY id LIMIT $2', [
    afterId,
    limit,
  ]);
  return rows.map(toInbox);
}

/** Puts quarantined payloads back in line for the processor (after a fix); null releases them all. */
export async function releaseQuarantine(db: SqlRunner, ids: readonly number[] | null): Promise<number> {
  if (ids === null)
    return db.execute('UPDATE webhook_inbox SET processed_at = NULL, quarantine_reason = NULL WHERE quarantine_reason IS NOT NULL', []);
  let released = 0;
  for (const id of ids)
    released += await db.execute(
      'UPDATE webhook_inbox SET processed_at = NULL, quarantine_reason = NULL WHERE id = $1 AND quarantine_reason IS NOT NULL',
      [id],
    );
  return released;
}
