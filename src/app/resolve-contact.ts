import type { Millis } from '../core/time.js';
import type { ContactStore } from '../ports/store.js';
import type { ContactKey } from '../ports/webhook-items.js';

type Store = Pick<ContactStore, 'findContact' | 'upsertContacts' | 'setContactKeys'>;

const phoneOf = (waId: string) => ({ waId, phoneE164: `+${waId}` });

/**
 * Finds the contact a webhook speaks about, creating it if Pacer has never seen them. The
 * business-scoped id (BSUID) is the identity where Meta gives one and the phone number an alias:
 * a contact known by phone that turns up with a BSUID gains it, and a phone Meta now pairs with a
 * different BSUID has passed to someone else, so it moves to that person's contact.
 */
export async function resolveContact(store: Store, key: ContactKey, now: Millis): Promise<number | null> {
  const { waId, userId } = key;
  if (userId === null) {
    if (waId === null) return null;
    const found = await store.findContact({ waId });
    if (found !== null) return found.id;
    return (await store.upsertContacts([phoneOf(waId)], now)).ids[0] ?? null;
  }
  const byUser = await store.findContact({ bsuid: userId });
  const byPhone = waId === null ? null : await store.findContact({ waId });
  if (byUser !== null) {
    // A contact known only by phone is the same person on record twice: left as it is rather than emptied.
    if (waId !== null && byUser.waId !== waId && (byPhone === null || byPhone.bsuid !== null)) {
      await store.setContactKeys(byUser.id, phoneOf(waId), now);
    }
    return byUser.id;
  }
  if (byPhone !== null && byPhone.bsuid === null) {
    await store.setContactKeys(byPhone.id, { bsuid: userId }, now);
    return byPhone.id;
  }
  const id = (await store.upsertContacts([{ bsuid: userId }], now)).ids[0] ?? null;
  if (id !== null && waId !== null) await store.setContactKeys(id, phoneOf(waId), now);
  return id;
}
