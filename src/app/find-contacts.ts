import type { CountryCode } from 'libphonenumber-js/max';
import type { Contact, ContactStore } from '../ports/store.js';
import type { FieldError } from './contact-row.js';
import { normalisePhone } from './normalise-phone.js';

/** What a caller looks a contact up by; every one given must match. */
export interface ContactLookup {
  /** Any common format, normalised as an import does; matched on the stored number, then on the wa_id. */
  phone?: string;
  waId?: string;
  bsuid?: string;
}

export type ContactLookupResult = { ok: true; contacts: Contact[] } | { ok: false; errors: FieldError[] };

/**
 * The contacts matching every identifier given, by id (each identifier names at most one contact,
 * a phone number at most two: the one holding it and the one whose wa_id it is). A phone number
 * that is none is refused with the import's reason.
 */
export async function findContacts(
  store: Pick<ContactStore, 'findContact'>,
  lookup: ContactLookup,
  defaultCountry: CountryCode | null,
  countryOption: string,
): Promise<ContactLookupResult> {
  const sets: Array<Array<Contact | null>> = [];
  if (lookup.phone !== undefined) {
    const checked = normalisePhone(lookup.phone, defaultCountry, countryOption);
    if (!checked.ok) return { ok: false, errors: [{ field: 'phone', reason: checked.reason }] };
    sets.push([await store.findContact({ phoneE164: checked.e164 }), await store.findContact({ waId: checked.e164.slice(1) })]);
  }
  if (lookup.waId !== undefined) sets.push([await store.findContact({ waId: lookup.waId })]);
  if (lookup.bsuid !== undefined) sets.push([await store.findContact({ bsuid: lookup.bsuid })]);
  const [first, ...rest] = sets.map((s) => new Map(s.filter((c): c is Contact => c !== null).map((c) => [c.id, c])));
  if (first === undefined) return { ok: true, contacts: [] };
  const contacts = [...first.values()].filter((c) => rest.every((m) => m.has(c.id)));
  return { ok: true, contacts: contacts.sort((a, b) => a.id - b.id) };
}
