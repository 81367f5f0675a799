import { findContactByText } from '../../app/find-contact-by-text.js';
import { explainContactNow } from '../../app/explain-contact-now.js';
import { loadContactState } from '../../app/update-contact-state.js';
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
  const found = await findContactByText(store, raw);
  if (found !== null) return found;
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
  const rows = explainContactNow(contact, state, now, policy);
  const who = mask(contact.phoneE164 ?? contact.waId ?? contact.bsuid ?? String(contact.id));
  return json ? JSON.stringify(contactExplainJson(who, rows), null, 2) : renderContactExplain(who, rows);
}
