import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Contact, ContactStore } from '../../../ports/store.js';

/** A contact by its id (`#12` or a short number), business-scoped user id, phone number or wa_id. */
export async function findContactByQuery(store: Pick<ContactStore, 'findContact' | 'getContact'>, query: string): Promise<Contact | null> {
  const q = query.trim();
  if (q === '') return null;
  const id = /^#?(\d{1,6})$/.exec(q);
  if (id !== null) return store.getContact(Number(id[1]));
  if (/^[A-Z]{2}\.[A-Za-z0-9]+$/.test(q)) {
    const byUser = await store.findContact({ bsuid: q });
    if (byUser !== null) return byUser;
  }
  const phone = parsePhoneNumberFromString(q.startsWith('+') ? q : `+${q.replace(/\D/g, '')}`);
  if (!phone?.isPossible()) return null;
  return (await store.findContact({ phoneE164: phone.number })) ?? (await store.findContact({ waId: phone.number.slice(1) }));
}
