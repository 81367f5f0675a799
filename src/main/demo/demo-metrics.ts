import type { GroundTruth, SimUser } from '../../adapters/simulator/index.js';
import { DAY, type Millis } from '../../core/time.js';
import { ASSUMED_PRICES, priceOf, type PriceTable } from './lab-prices.js';

/** The side-by-side figures, all read from the simulator's ground truth, not from either sender. */
export interface StrategyMetrics {
  requests: number;
  delivered: number;
  read: number;
  marketingDelivered: number;
  /** Distinct people who received the campaign. */
  marketingReach: number;
  caps131049: number;
  retriesSpent: number;
  wronglySuppressed: number;
  utilityDelivered: number;
  /** Order updates delivered to the people capped for marketing in any strategy's world (the same people in every column). */
  utilityToCapped: number;
  quality: string;
  /** The worst rating the number had during the run. */
  lowestQuality: string;
  billable: number;
  /** What the billable deliveries cost at the price table's rates (USD). */
  cost: number;
  blocksAndReports: number;
  /** Delivered at the recipient's night (local hours, the simulator's `reactions.night`). */
  deliveredAtNight: number;
  /** Delivered more than 24 h after the first request for that recipient and template. */
  deliveredOver24hLate: number;
  /** Per simulated day: delivered and 131049 failures. */
  daily: Array<{ day: number; delivered: number; caps: number }>;
}

export function measure(
  truth: GroundTruth,
  start: Millis,
  days: number,
  retriesSpent: number,
  suppressedReachable: number,
  cappedAnywhere: ReadonlySet<string>,
  prices: PriceTable = ASSUMED_PRICES,
): StrategyMetrics {
  const daily = Array.from({ length: days }, (_, i) => ({ day: i + 1, delivered: 0, caps: 0 }));
  const reach = new Set<string>();
  let delivered = 0,
    read = 0,
    marketingDelivered = 0,
    utilityDelivered = 0,
    utilityToCapped = 0,
    cost = 0;
  for (const m of truth.messages) {
    const bucket = daily[Math.min(days - 1, Math.max(0, Math.floor((m.acceptedAt - start) / DAY)))];
    if (m.errorCode === 131049 && bucket) bucket.caps++;
    if (m.deliveredAt === null) continue;
    delivered++;
    cost += priceOf(prices, m.to, m.category);
    if (bucket) bucket.delivered++;
    if (m.readAt !== null) read++;
    if (m.category === 'marketing') {
      marketingDelivered++;
      reach.add(m.to);
    }
    if (m.category === 'utility') {
      utilityDelivered++;
      if (cappedAnywhere.has(m.to)) utilityToCapped++;
    }
  }
  return {
    requests: truth.requests,
    delivered,
    read,
    marketingDelivered,
    marketingReach: reach.size,
    caps131049: (truth.asyncFailures['131049'] ?? 0) + (truth.syncErrors['131049'] ?? 0),
    retriesSpent,
    wronglySuppressed: suppressedReachable,
    utilityDelivered,
    utilityToCapped,
    quality: truth.qualityRating,
    lowestQuality: truth.lowestQualityRating,
    billable: delivered,
    cost: Math.round(cost * 100) / 100,
    blocksAndReports: truth.reactions.blocks + truth.reactions.reports,
    deliveredAtNight: truth.deliveryTiming.atNight,
    deliveredOver24hLate: truth.deliveryTiming.lateOver24h,
    daily,
  };
}

/**
 * The people whose marketing hit the per-user cap in any of the worlds. A cap belongs to the person's
 * inbox, so who keeps them reachable is compared on the same people in every column: counted per
 * world, a strategy that got fewer people capped would score lower for it.
 */
export function cappedInAnyWorld(truths: readonly GroundTruth[]): Set<string> {
  const capped = new Set<string>();
  for (const truth of truths) for (const m of truth.messages) if (m.errorCode === 131049 && m.category === 'marketing') capped.add(m.to);
  return capped;
}

/** Requests beyond the first for each message id Pacer sent (our id travels in the callback data). */
export function retriesFromTruth(truth: GroundTruth): number {
  const ids = new Set<string>();
  for (const m of truth.messages) if (m.messageId !== null) ids.add(m.messageId);
  return Math.max(0, truth.requests - ids.size);
}

/** Suppressed contacts that were in fact reachable: on WhatsApp and not opted out. */
export function reachableAmong(users: readonly SimUser[], indices: Iterable<number>): number {
  let n = 0;
  for (const i of indices) {
    const u = users[i];
    if (u !== undefined && u.onWhatsApp) n++;
  }
  return n;
}
