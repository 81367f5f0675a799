import type { Contact, ContactChange, JsonObject } from '../../../ports/store.js';
import type { SqlSession } from '../sql-executor.js';
import { toContact } from './contacts.js';
import { toJson } from './values.js';

/** The contact with `change` applied: attributes merged (null removes a key), tags added then removed. */
function applied(contact: Contact, change: ContactChange): Contact {
  const attributes: JsonObject = { ...contact.attributes };
  for (const [key, value] of Object.entries(change.attributes ?? {})) {
    if (value === null) delete attributes[key];
    else attributes[key] = value;
  }
  const remove = new Set(change.tagsRemove ?? []);
  const tags = [...new Set([...contact.tags, ...(change.tagsAdd ?? [])])].filter((t) => !remove.has(t));
  return { ...contact, name: change.name === undefined ? contact.name : change.name, attributes, tags };
}

const UPDATE = 'UPDATE contacts SET name = $2, attributes = $3, tags = $4, updated_at = $5 WHERE id = $1';

/**
 * Reads the contact (locked on PostgreSQL, so two changes at once both land), applies the change in
 * memory and writes the row only when a field differs.
 */
export function updateContact(
  db: SqlSession,
  id: number,
  change: ContactChange,
  now: number,
): Promise<{ contact: Contact; changed: boolean } | null> {
  return db.transaction('updateContact', async (tx) => {
    const lock = tx.caps.rowLock;
    const [row] = await tx.query(`SELECT * FROM contacts WHERE id = $1${lock}`, [id]);
    if (row === undefined) return null;
    const before = toContact(tx.caps, row);
    const after = applied(before, change);
    const same =
      after.name === before.name &&
      JSON.stringify(after.attributes) === JSON.stringify(before.attributes) &&
      JSON.stringify(after.tags) === JSON.stringify(before.tags);
    if (same) return { contact: before, changed: false };
    await tx.execute(UPDATE, [id, after.name, toJson(after.attributes), toJson(after.tags), now]);
    return { contact: { ...after, updatedAt: now }, changed: true };
  });
}
