import type { Millis } from '../core/time.js';
import type { Contact, ContactChange, ContactStore, JsonValue } from '../ports/store.js';
import { hasNul, normaliseTags, NUL_REASON } from './contact-fields.js';
import type { FieldError } from './contact-row.js';

export type ContactUpdate = { ok: true; contact: Contact; changed: boolean } | { ok: false; errors: FieldError[] } | null;

/**
 * Changes one contact's name, attributes (merged; null removes a key) and tags (added, removed),
 * with the checks an import makes on the same fields. Null when the contact does not exist.
 */
export async function updateContact(
  store: Pick<ContactStore, 'updateContact'>,
  id: number,
  change: ContactChange,
  now: Millis,
): Promise<ContactUpdate> {
  const errors: FieldError[] = [];
  const nul = (field: string, value: JsonValue | undefined): void => {
    if (value !== undefined && hasNul(value)) errors.push({ field, reason: NUL_REASON });
  };
  nul('name', change.name);
  for (const [key, value] of Object.entries(change.attributes ?? {})) {
    nul(`attributes.${key}`, key);
    nul(`attributes.${key}`, value);
  }
  (change.tagsAdd ?? []).forEach((t, i) => nul(`tags.add.${i}`, t));
  (change.tagsRemove ?? []).forEach((t, i) => nul(`tags.remove.${i}`, t));
  if (errors.length > 0) return { ok: false, errors };
  const result = await store.updateContact(
    id,
    {
      ...(change.name === undefined ? {} : { name: change.name?.trim() || null }),
      ...(change.attributes === undefined ? {} : { attributes: change.attributes }),
      ...(change.tagsAdd === undefined ? {} : { tagsAdd: normaliseTags(change.tagsAdd) }),
      ...(change.tagsRemove === undefined ? {} : { tagsRemove: normaliseTags(change.tagsRemove) }),
    },
    now,
  );
  return result === null ? null : { ok: true, ...result };
}
