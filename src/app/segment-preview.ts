import { matchesSegment, reachability, type SegmentDefinition } from '../core/segment.js';
import type { Millis } from '../core/time.js';
import type { Store } from '../ports/store.js';
import { EMPTY_CONTACT_STATE } from '../core/contact-state.js';

export interface SegmentPreview {
  contacts: number;
  matched: number;
  /** Among matched contacts, how many are in each state now (a contact may be in several). */
  matchedNow: { cooling_off: number; held: number; stopped: number; unreachable: number };
}

/** How many contacts a segment selects today, and how many of them cannot receive marketing now. */
export async function previewSegment(store: Store, segment: SegmentDefinition, now: Millis): Promise<SegmentPreview> {
  const preview: SegmentPreview = { contacts: 0, matched: 0, matchedNow: { cooling_off: 0, held: 0, stopped: 0, unreachable: 0 } };
  for (let after = 0; ;) {
    const page = await store.listContactsWithState(after, 2000);
    if (page.length === 0) return preview;
    after = page[page.length - 1]?.contact.id ?? after;
    for (const { contact, state: stored } of page) {
      preview.contacts++;
      const state = stored?.state ?? EMPTY_CONTACT_STATE;
      if (!matchesSegment(contact, state, segment, now)) continue;
      preview.matched++;
      for (const r of reachability(state, now)) preview.matchedNow[r]++;
    }
  }
}
