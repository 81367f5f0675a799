import { contactChangeEvents } from '../core/contact-change-events.js';
import type { ContactEvent } from '../core/contact-event.js';
import { EMPTY_CONTACT_STATE } from '../core/contact-state.js';
import type { EmitEvent, NewOutboundEvent } from '../core/outbound-event.js';
import type { Policy } from '../core/policy.js';
import { reduceContact } from '../core/reduce-contact.js';
import type { Millis } from '../core/time.js';
import type { ContactStateSave, ContactStateStore, StoredContactState } from '../ports/store.js';
import { applyContactEvents } from './update-contact-state.js';

/** Events for one contact; a contact may come more than once (a batch naming it twice). */
export type ContactEvents = readonly [contactId: number, events: readonly ContactEvent[]];

/**
 * Applies each item's events as `applyContactEvents` one item after the other would — the same
 * states, versions and subscriber events, in the same order — with one load and one save per chunk
 * of contacts instead of two round trips per contact. `fresh` names contacts created in this
 * transaction (no state to load). A contact whose save lost a race is applied again the per-contact
 * way, which re-reads it.
 */
export async function applyContactEventsBatch(
  store: ContactStateStore,
  items: readonly ContactEvents[],
  policy: Policy,
  now: Millis,
  emit: EmitEvent,
  fresh: ReadonlySet<number> = new Set(),
): Promise<void> {
  if (items.length === 0) return;
  const toLoad = [...new Set(items.map(([id]) => id).filter((id) => !fresh.has(id)))];
  const stored = toLoad.length === 0 ? new Map<number, StoredContactState>() : await store.loadContactStates(toLoad);

  const working = new Map<number, { state: StoredContactState['state']; loaded: number; saves: number }>();
  /** Subscriber events per item, told only once the contact's save landed. */
  const told: Array<{ contactId: number; events: NewOutboundEvent[] } | null> = [];
  for (const [contactId, events] of items) {
    let w = working.get(contactId);
    if (w === undefined) {
      const s = stored.get(contactId);
      w = { state: s?.state ?? EMPTY_CONTACT_STATE, loaded: s?.version ?? 0, saves: 0 };
      working.set(contactId, w);
    }
    const current = w.state;
    const next = events.reduce((s, e) => reduceContact(s, e, policy), current);
    // As the per-contact path: no change to a state that exists is no save (a new one is saved even unchanged).
    if (next === current && w.loaded + w.saves > 0) {
      told.push(null);
      continue;
    }
    w.state = next;
    w.saves += 1;
    told.push({ contactId, events: contactChangeEvents(contactId, current, next, now) });
  }

  const saves: ContactStateSave[] = [];
  for (const [contactId, w] of working) {
    if (w.saves > 0) saves.push({ contactId, state: w.state, expectedVersion: w.loaded, version: w.loaded + w.saves });
  }
  const landed = await store.saveContactStates(saves, now);
  for (const t of told) if (t !== null && landed.has(t.contactId)) for (const e of t.events) emit(e);
  // Lost races: from the state now stored, one item at a time.
  for (const [contactId, events] of items) {
    if (working.get(contactId)!.saves > 0 && !landed.has(contactId)) await applyContactEvents(store, contactId, events, policy, now, emit);
  }
}
