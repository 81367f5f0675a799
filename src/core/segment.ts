import type { Category } from './category.js';
import { marketingStop, unreachableCause } from './contact-facts.js';
import type { ContactState } from './contact-state.js';
import { DAY, type Millis } from './time.js';

export type Reachability = 'cooling_off' | 'held' | 'stopped' | 'unreachable';

/** A campaign audience, as stored with the campaign. Every condition present must hold. */
export interface SegmentDefinition {
  tagsAll?: readonly string[];
  tagsAny?: readonly string[];
  tagsNone?: readonly string[];
  /** Exact attribute values (strings compared case-insensitively). */
  attributes?: Readonly<Record<string, string | number | boolean>>;
  /** Categories whose consent must be granted. */
  consent?: readonly Category[];
  /** Read a message or wrote to us within this many days. */
  engagedWithinDays?: number;
  /** Leave out contacts in these states now. */
  exclude?: readonly Reachability[];
}

export interface SegmentContact {
  tags: readonly string[];
  attributes: Readonly<Record<string, unknown>>;
}

export function reachability(state: ContactState, now: Millis): Reachability[] {
  const out: Reachability[] = [];
  if (state.marketing.coolOffUntil !== null && now < state.marketing.coolOffUntil) out.push('cooling_off');
  if (state.marketing.experiment !== null) out.push('held');
  if (marketingStop(state) !== null) out.push('stopped');
  if (unreachableCause(state) !== null) out.push('unreachable');
  return out;
}

/**
 * The rule for who a segment selects. The store applies it in SQL, so contacts never leave the
 * database to be matched (src/adapters/storage/sql/segment-where.ts); a property test holds the two equal.
 */
export function matchesSegment(contact: SegmentContact, state: ContactState, segment: SegmentDefinition, now: Millis): boolean {
  const tags = contact.tags;
  if (segment.tagsAll && !segment.tagsAll.every((t) => tags.includes(t))) return false;
  if (segment.tagsAny && segment.tagsAny.length > 0 && !segment.tagsAny.some((t) => tags.includes(t))) return false;
  if (segment.tagsNone && segment.tagsNone.some((t) => tags.includes(t))) return false;
  for (const [key, want] of Object.entries(segment.attributes ?? {})) {
    const have = contact.attributes[key];
    const same = typeof want === 'string' && typeof have === 'string' ? want.toLowerCase() === have.toLowerCase() : have === want;
    if (!same) return false;
  }
  if (segment.consent && !segment.consent.every((c) => state.consent[c].status === 'granted')) return false;
  if (segment.engagedWithinDays !== undefined) {
    const since = now - segment.engagedWithinDays * DAY;
    const lastRead = Math.max(...Object.values(state.engagement).map((e) => e.lastReadAt ?? -Infinity));
    if (Math.max(lastRead, state.lastInboundAt ?? -Infinity) < since) return false;
  }
  if (segment.exclude && segment.exclude.length > 0) {
    const now_ = reachability(state, now);
    if (segment.exclude.some((r) => now_.includes(r))) return false;
  }
  return true;
}
