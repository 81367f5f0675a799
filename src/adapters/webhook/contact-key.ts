import type { MetaContact } from './webhook-schema.js';
import type { ContactKey } from '../../ports/webhook-items.js';

export function isEmptyKey(key: ContactKey): boolean {
  return key.waId === null && key.userId === null;
}

/**
 * Completes a key from the change's `contacts[]`: a contact that shares the `wa_id` or BSUID adds
 * the identifier the item lacks. With no identifier at all, a lone contact is the only candidate.
 */
export function completeKey(key: ContactKey, contacts: readonly MetaContact[]): ContactKey {
  const match = contacts.find((c) => (key.waId !== null && c.wa_id === key.waId) || (key.userId !== null && c.user_id === key.userId));
  const only = contacts.length === 1 ? contacts[0] : undefined;
  const found = match ?? (isEmptyKey(key) ? only : undefined);
  if (found === undefined) return key;
  return { waId: key.waId ?? found.wa_id ?? null, userId: key.userId ?? found.user_id ?? null };
}
