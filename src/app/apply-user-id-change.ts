import type { Millis } from '../core/time.js';
import type { ContactStore } from '../ports/store.js';
import type { UserIdChangeItem } from '../ports/webhook-items.js';
import { resolveContact } from './resolve-contact.js';

/**
 * `user_id_update`: the user changed number and Meta regenerated their business-scoped id. Their
 * contact keeps its history and takes the new id (and the new number, when Meta gives it); the old
 * id no longer reaches them. With no contact under the old id this is a first sighting.
 */
export async function applyUserIdChange(
  store: Pick<ContactStore, 'findContact' | 'upsertContacts' | 'setContactKeys'>,
  item: UserIdChangeItem,
  now: Millis,
): Promise<void> {
  const contact = await store.findContact({ bsuid: item.previousUserId });
  if (contact === null) {
    await resolveContact(store, { waId: item.waId, userId: item.currentUserId }, now);
    return;
  }
  const phone = item.waId === null ? {} : { waId: item.waId, phoneE164: `+${item.waId}` };
  await store.setContactKeys(contact.id, { bsuid: item.currentUserId, ...phone }, now);
}
