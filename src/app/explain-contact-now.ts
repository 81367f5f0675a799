import type { ContactState } from '../core/contact-state.js';
import { explainContact, type CategoryExplanation } from '../core/explain-contact.js';
import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import type { Contact } from '../ports/store.js';
import { recipientOf } from './contact-address.js';
import { messageTiming } from './message-timing.js';
import { recipientRegion } from './recipient-region.js';

/**
 * Per category, what the dispatcher would decide for this contact now: with its region, how it is
 * addressed, and its local time (quiet hours). For `pacer contact explain`, the API and the dashboard.
 */
export function explainContactNow(contact: Contact, state: ContactState, now: Millis, policy: Policy): CategoryExplanation[] {
  return explainContact(state, now, policy, recipientRegion(contact.phoneE164), recipientOf(contact).kind, (category) =>
    messageTiming({ category, contact, campaign: null, policy, queuedAt: now }),
  );
}
