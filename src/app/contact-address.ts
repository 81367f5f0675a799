import type { Recipient } from '../ports/cloud-api.js';
import type { Contact } from '../ports/store.js';

/** Where a message to this contact goes: its phone number (`to`) when known, else its business-scoped id (`recipient`). */
export function recipientOf(contact: Contact): Recipient {
  if (contact.waId !== null) return { kind: 'phone', phone: contact.waId };
  if (contact.phoneE164 !== null) return { kind: 'phone', phone: contact.phoneE164.replace(/^\+/, '') };
  if (contact.bsuid !== null) return { kind: 'user_id', userId: contact.bsuid };
  throw new Error(`contact ${contact.id} has no address`);
}
