import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Contact, ContactStore } from '../ports/store.js';

/**
 * The contact a person typed: a business-scoped user id (`US.13491208655302741918`), or a phone
 * number in any common format or a wa_id (digits), matched on the stored E.164 number and then on the wa_id.
 */
export async function findContactByText(store: Pick<ContactStore, 'findContact'>, text: string): Promise<Contact | null> {
  const raw = text.trim();
  if (raw === '') return null;
  if (/^[A-Z]{2}\.[A-Za-z0-9]+$/.test(raw)) {
    const byUser = await store.findContact({ bsuid: raw });
    if (byUser !== null) return byUser;
  }
  const phone = parsePhoneNumberFromString(raw.startsWith('+') ? raw : `+${raw.replace(/\D/g, '')}`);
  if (!phone?.isPossible()) return null;
  return (await store.findContact({ phoneE164: phone.number })) ?? (await store.findContact({ waId: phone.number.slice(1) }));
}
