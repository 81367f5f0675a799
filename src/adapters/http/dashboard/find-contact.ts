import { findContactByText } from '../../../app/find-contact-by-text.js';
import type { Contact, ContactStore } from '../../../ports/store.js';

/** A contact by its id (`#12` or a short number), business-scoped user id, phone number or wa_id. */
export async function findContactByQuery(store: Pick<ContactStore, 'findContact' | 'getContact'>, query: string): Promise<Contact | null> {
  const q = query.trim();
  const id = /^#?(\d{1,6})$/.exec(q);
  if (id !== null) return store.getContact(Number(id[1]));
  return findContactByText(store, q);
}
