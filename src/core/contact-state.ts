import { CATEGORIES, type Category } from './category.js';
import type { ConsentStatus, ContactEventType } from './contact-event.js';
import type { Millis } from './time.js';

/** Why a fact holds: the event that set it, for "the events that led there". */
export interface Cause {
  eventId: string;
  type: ContactEventType;
  at: Millis;
  /** Error code, keyword or preference value that mattered. */
  detail: string | null;
}

export interface ConsentFact {
  status: ConsentStatus;
  at: Millis | null;
  source: string | null;
  evidence: string | null;
}

export interface Engagement {
  lastDeliveredAt: Millis | null;
  lastReadAt: Millis | null;
}

export interface MarketingFacts {
  /** Per-user cap (131049): no marketing outside a window before this time. */
  coolOffUntil: Millis | null;
  /** Caps since the last delivered marketing message; drives growing gaps. */
  consecutiveCaps: number;
  lastCap: Cause | null;
  /** Seen in Meta's marketing experiment group (130472). */
  experiment: Cause | null;
  /** Stopped marketing (131050, user_preferences stop, button, keyword) until a later resume. */
  stopped: Cause | null;
  /** The latest resume, kept so an older stop arriving late cannot override it. */
  resumed: Cause | null;
  /**
   * Our recent accepted marketing sends, oldest first (bounded), for our own frequency cap. A send
   * that then fails leaves the list: the contact never saw it.
   */
  recentSends: readonly { messageId: string; at: Millis }[];
  /** The marketing-messages path was tried after the last cap (policy `marketing_messages_after_cap`). */
  marketingApiTriedAfterCap: boolean;
}

export interface ContactState {
  consent: Readonly<Record<Category, ConsentFact>>;
  /** Customer-service window: last inbound + 24 h. */
  windowOpenUntil: Millis | null;
  /** Free-entry-point window (72 h). */
  freeEntryUntil: Millis | null;
  lastInboundAt: Millis | null;
  /** Latest proof the number reaches a person: delivered, read or inbound. */
  lastReachedAt: Millis | null;
  marketing: MarketingFacts;
  /** 131026: undeliverable for every category since this event. */
  unreachable: Cause | null;
  engagement: Readonly<Record<Category, Engagement>>;
  /** Ids of recently applied events (bounded), so a duplicate is a no-op. */
  seen: readonly string[];
}

export const SEEN_LIMIT = 64;
export const RECENT_SENDS_LIMIT = 16;

const noConsent: ConsentFact = { status: 'unknown', at: null, source: null, evidence: null };
const noEngagement: Engagement = { lastDeliveredAt: null, lastReadAt: null };

function perCategory<T>(value: T): Record<Category, T> {
  return Object.fromEntries(CATEGORIES.map((c) => [c, value])) as Record<Category, T>;
}

export const EMPTY_CONTACT_STATE: ContactState = Object.freeze({
  consent: perCategory(noConsent),
  windowOpenUntil: null,
  freeEntryUntil: null,
  lastInboundAt: null,
  lastReachedAt: null,
  marketing: {
    coolOffUntil: null,
    consecutiveCaps: 0,
    lastCap: null,
    experiment: null,
    stopped: null,
    resumed: null,
    recentSends: [],
    marketingApiTriedAfterCap: false,
  },
  unreachable: null,
  engagement: perCategory(noEngagement),
  seen: [],
});
