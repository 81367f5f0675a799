import { contactChangeEvents } from '../core/contact-change-events.js';
import type { ContactEvent } from '../core/contact-event.js';
import { EMPTY_CONTACT_STATE, type ContactState } from '../core/contact-state.js';
import type { EmitEvent } from '../core/outbound-event.js';
import type { Policy } from '../core/policy.js';
import { reduceContact } from '../core/reduce-contact.js';
import type { Millis } from '../core/time.js';
import type { ContactStateStore } from '../ports/store.js';

const MAX_TRIES = 8;

/**
 * Applies events to one contact's state with optimistic concurrency: several processes may update
 * the same contact (a webhook and the dispatcher); a lost race re-reads and re-applies, which is
 * safe because the reducer is idempotent. What the saved change means to subscribers (marketing
 * stopped or resumed, consent changed) goes to `emit`.
 */
export async function applyContactEvents(
  store: ContactStateStore,
  contactId: number,
  events: readonly ContactEvent[],
  policy: Policy,
  now: Millis,
  emit: EmitEvent,
): Promise<ContactState> {
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const stored = await store.loadContactState(contactId);
    const current = stored?.state ?? EMPTY_CONTACT_STATE;
    const next = events.reduce((s, e) => reduceContact(s, e, policy), current);
    if (next === current && stored !== null) return current;
    const saved = await store.saveContactState(contactId, next, stored?.version ?? 0, now);
    if (!saved.ok) continue;
    for (const e of contactChangeEvents(contactId, current, next, now)) emit(e);
    return next;
  }
  throw new Error(`contact ${contactId}: state kept changing under ${MAX_TRIES} concurrent updates`);
}

export async function loadContactState(store: Pick<ContactStateStore, 'loadContactState'>, contactId: number): Promise<ContactState> {
  return (await store.loadContactState(contactId))?.state ?? EMPTY_CONTACT_STATE;
}
