import { DAY, type Millis } from './time.js';

/**
 * Meta's portfolio messaging limit: how many different people a business may start conversations
 * with (template messages outside an open window) in a rolling 24 hours. Webhooks name it as a tier.
 */
const TIER_LIMITS: Readonly<Record<string, number | null>> = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1_000, // an older tier still found in payloads
  TIER_2K: 2_000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: null,
};

export const MESSAGING_LIMIT_WINDOW_MS = DAY;

/** New people per rolling 24 h for a tier; null when unlimited, unknown or not set. */
export function messagingLimitOf(tier: string | null): number | null {
  if (tier === null) return null;
  return TIER_LIMITS[tier.trim().toUpperCase()] ?? null;
}

/** What the dispatcher knows about one sender number's limit when it decides a message. */
export interface MessagingLimitUse {
  /** New people allowed per rolling 24 h. */
  perDay: number;
  /** People already reached with a business-initiated message in the last 24 h. */
  used: number;
  /** This contact is among them: another message to them does not use the limit again. */
  contactCounted: boolean;
  /** When the oldest counted conversation leaves the window and frees a place. */
  nextSlotAt: Millis;
}

/** How long a campaign of `recipients` new people needs at least, in 24 h windows, under a tier. */
export function daysNeeded(recipients: number, perDay: number | null): number {
  if (perDay === null || recipients <= 0) return recipients > 0 ? 1 : 0;
  return Math.ceil(recipients / perDay);
}
