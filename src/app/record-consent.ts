import type { Category } from '../core/category.js';
import type { ConsentStatus } from '../core/contact-event.js';
import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import type { ConsentRecord, Store } from '../ports/store.js';
import { withEvents } from './record-events.js';
import { applyContactEvents } from './update-contact-state.js';

export interface ConsentChange {
  category: Category;
  status: ConsentStatus;
  /** Where the consent came from (a form, a shop counter, an operator); shown in explanations. */
  source: string;
  evidence: string | null;
}

/**
 * Records one consent change the way an import does: in the history, as the current value, and as
 * an event on the contact's state, all in one transaction so the three never disagree.
 */
export function recordConsent(
  store: Pick<Store, 'transaction'>,
  contactId: number,
  change: ConsentChange,
  policy: Policy,
  now: Millis,
): Promise<ConsentRecord> {
  return withEvents(store, now, async (tx, emit) => {
    const record = await tx.setConsent(contactId, { ...change, at: now }, now);
    await applyContactEvents(
      tx,
      contactId,
      [{ type: 'consent', id: `consent:${change.source}:${change.category}:${change.status}:${now}`, at: now, ...change }],
      policy,
      now,
      emit,
    );
    return record;
  });
}
