import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { recipientOf } from '../../app/contact-address.js';
import { recipientRegion } from '../../app/recipient-region.js';
import { loadContactState } from '../../app/update-contact-state.js';
import { explainContact } from '../../core/explain-contact.js';
import type { Policy } from '../../core/policy.js';
import type { Contact, ContactStateStore, ContactStore } from '../../ports/store.js';
import { contactExplainJson } from '../presenters/contact-explain-json.js';
import { mask } from '../presenters/mask.js';
import { CliFailure, EXIT } from './exit-codes.js';
import { renderContactExplain } from './render-contact-explain.js';

/** Finds a contact by a phone number in any common format, a wa_id, or a business-scoped user id. */
export async function findContactByInput(store: Pick<ContactStore, 'findContact'>, input: string): Promise<Contact> {
  const raw = input.trim();
  if (raw === '') throw new CliFailure('Give a phone number (+447911123456), a wa_id or a business-scoped user id.', EXIT.usage);
  if (/^[A-Z]{2}\.[A-Za-z0-9]+$/.test(raw)) {
    const byUser = await store.findContact({ bsuid: raw });
    if (byUser) return byUser;
  }
  const phone = parsePhoneNumberFromString(raw.startsWith('+') ? raw : `+${raw.replace(/\D/g, '')}`);
  if (phone?.isPossible()) {
    const found = (await store.findContact({ phoneE164: phone.number })) ?? (await store.findContact({ waId: phone.number.slice(1) }));
    if (found) return found;
  }
  throw new CliFailure(`No contact matches ${mask(raw)}. Check the number, or import the contact first (pacer import contacts FILE).`);
}

export async function contactExplainText(
  store: ContactStore & ContactStateStore,
  input: string,
  policy: Policy,
  now: number,
  json: boolean,
): Promise<string> {
  const contact = await findContactByInput(store, input);
  const state = await loadContactState(store, contact.id);
  const rows = explainContact(state, now, policy, recipientRegion(contact.phoneE164), recipientOf(contact).kind);
  const who = mask(contact.phoneE164 ?? contact.waId ?? contact.bsuid ?? String(contact.id));
  return json ? JSON.stringify(contactExplainJson(who, rows), null, 2) : renderContactExplain(who, rows);
}
