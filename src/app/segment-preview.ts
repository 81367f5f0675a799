import type { SegmentDefinition } from '../core/segment.js';
import type { Millis } from '../core/time.js';
import type { Contact, ContactStore } from '../ports/store.js';

// Contacts counted per query: each page is one aggregate inside the store.
const PAGE = 10_000;
// Contacts looked through per query for a sample: it stops at the first page that fills it.
const SAMPLE_PAGE = 1000;

/** The most contacts a preview shows. */
export const MAX_SEGMENT_SAMPLE = 20;

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

/** The first `n` contacts the segment selects now, by id (what a start would plan first). */
export async function segmentSample(
  store: Pick<ContactStore, 'segmentContacts' | 'getContact'>,
  segment: SegmentDefinition,
  now: Millis,
  n: number,
): Promise<Contact[]> {
  const ids: number[] = [];
  for (let afterId = 0; ids.length < n;) {
    const page = await store.segmentContacts(segment, now, afterId, SAMPLE_PAGE);
    if (page.lastContactId === null) break;
    afterId = page.lastContactId;
    ids.push(...page.contacts.slice(0, n - ids.length).map((c) => c.id));
  }
  const contacts = await Promise.all(ids.map((id) => store.getContact(id)));
  return contacts.filter((c): c is Contact => c !== null);
}
