import type { ContactKeys } from '../../../ports/store.js';
import type { SqlSession } from '../sql-executor.js';

const COLUMNS = [
  ['waId', 'wa_id'],
  ['bsuid', 'bsuid'],
  ['phoneE164', 'phone_e164'],
] as const;

/**
 * Gives identifiers to a contact. Each is first taken off any other contact that holds it (an alias
 * goes to whoever Meta now says it belongs to), unless that would leave the other contact with no
 * identifier at all: then it stays where it is, and this contact does not get it.
 */
export function setContactKeys(db: SqlSession, id: number, keys: ContactKeys, now: number): Promise<void> {
  return db.transaction('setContactKeys', async (tx) => {
    for (const [field, column] of COLUMNS) {
      const value = keys[field];
      if (value === undefined || value === null) continue;
      const others = COLUMNS.filter(([, c]) => c !== column)
        .map(([, c]) => `${c} IS NOT NULL`)
        .join(' OR ');
      // The column names come from the list above, the values only ever from parameters.
      await tx.execute(`UPDATE contacts SET ${column} = NULL, updated_at = $3 WHERE ${column} = $1 AND id <> $2 AND (${others})`, [
        value,
        id,
        now,
      ]);
      await tx.execute(
        `UPDATE contacts SET ${column} = $1, updated_at = $3 WHERE id = $2 AND (${column} IS NULL OR ${column} <> $1)
AND NOT EXISTS (SELECT 1 FROM contacts o WHERE o.${column} = $1 AND o.id <> $2)`,
        [value, id, now],
      );
    }
  });
}
