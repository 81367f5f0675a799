import type { SegmentDefinition } from '../core/segment.js';
import type { Millis } from '../core/time.js';
import type { ContactStore } from '../ports/store.js';

// Contacts counted per query: each page is one aggregate inside the store.
const PAGE = 10_000;

export interface SegmentPreview {
  contacts: number;
  matched: number;
  /** Among matched contacts, how many are in each state now (a contact may be in several). */
  matchedNow: { cooling_off: number; held: number; stopped: number; unreachable: number };
}

/** How many contacts a segment selects today, and how many of them cannot receive marketing now. */
export async function previewSegment(
  store: Pick<ContactStore, 'countSegment'>,
  segment: SegmentDefinition,
  now: Millis,
): Promise<SegmentPreview> {
  const preview: SegmentPreview = { contacts: 0, matched: 0, matchedNow: { cooling_off: 0, held: 0, stopped: 0, unreachable: 0 } };
  for (let afterId = 0; ;) {
    const page = await store.countSegment(segment, now, afterId, PAGE);
    if (page.lastContactId === null) return preview;
    afterId = page.lastContactId;
    preview.contacts += page.scanned;
    preview.matched += page.matched;
    for (const r of ['cooling_off', 'held', 'stopped', 'unreachable'] as const) preview.matchedNow[r] += page.matchedNow[r];
  }
}
