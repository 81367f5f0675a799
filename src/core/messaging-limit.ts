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

/**
 * What numbers sharing one messaging limit have in common: their business portfolio, or, for a
 * number whose portfolio is not known, the number alone (the storage's conversation counts agree).
 */
export const portfolioKeyOf = (s: { portfolioId: string | null; phoneNumberId: string }): string =>
  s.portfolioId ?? `number:${s.phoneNumberId}`;

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

/** How fast a campaign can go on its sender number: what an operator needs to plan a large audience. */
export interface CampaignPace {
  /** The number's tier as Meta last named it, or null if never told. */
  tier: string | null;
  /** New people per rolling 24 h; null when unlimited or unknown. */
  perDay: number | null;
  /** People the number started conversations with in the last 24 h (all campaigns and one-offs). */
  usedLast24h: number;
  /** This campaign's rows still to send (queued or held). */
  waiting: number;
  /** Rolling-24 h windows the waiting rows need at least, at this tier (0 when nothing waits). */
  daysNeeded: number;
  throughputMps: number | null;
}

export function campaignPaceOf(input: {
  tier: string | null;
  usedLast24h: number;
  waiting: number;
  throughputMps: number | null;
}): CampaignPace {
  const perDay = messagingLimitOf(input.tier);
  const { waiting, usedLast24h } = input;
  // Today's window has perDay − used places left; whatever does not fit waits for later windows.
  const fitsToday = perDay === null ? waiting : Math.max(0, perDay - usedLast24h);
  const later = Math.max(0, waiting - fitsToday);
  const days = waiting === 0 ? 0 : 1 + (later === 0 ? 0 : daysNeeded(later, perDay));
  return { tier: input.tier, perDay, usedLast24h, waiting, daysNeeded: days, throughputMps: input.throughputMps };
}

/** One line for people: the effective cap and what it means for this campaign. */
export function paceSentence(p: CampaignPace): string {
  if (p.perDay === null)
    return `Messaging limit: ${p.tier === null ? 'not known yet (Meta names it in a webhook)' : 'unlimited'}${p.throughputMps === null ? '' : `; up to ${p.throughputMps} messages/s`}.`;
  const spread = p.daysNeeded > 1 ? `; the ${p.waiting.toLocaleString('en-US')} waiting need about ${p.daysNeeded} days` : '';
  return `Messaging limit ${p.tier}: ${p.perDay.toLocaleString('en-US')} new people per 24 h, ${p.usedLast24h.toLocaleString('en-US')} used in the last 24 h${spread}.`;
}
