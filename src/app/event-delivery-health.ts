import { DAY, HOUR, type Millis } from '../core/time.js';
import type { EventDeliveryStore, EventSubscriptionStore } from '../ports/store.js';

/** A pending delivery older than this makes /healthz degraded: its receiver has been failing through the longest retry gap. */
export const STALE_PENDING_MS = HOUR;
/** Deliveries given up on this recently make /healthz degraded (after that, the metrics still count them). */
export const RECENT_FAILURE_MS = DAY;

export interface SubscriptionTrouble {
  subscriptionId: number;
  /** Given up on in the last day. */
  failedRecently: number;
  /** Seconds the oldest pending delivery has waited, when over an hour. */
  oldestPendingSeconds: number | null;
}

/**
 * Enabled subscriptions whose receiver is failing: deliveries given up on in the last day, or a
 * pending one queued over an hour ago. A disabled subscription's backlog is nobody's trouble. Two
 * index reads per subscription, so /healthz stays cheap however many deliveries are kept.
 */
export async function eventDeliveryTrouble(
  store: Pick<EventDeliveryStore, 'eventDeliveryBacklog'> & Pick<EventSubscriptionStore, 'listEventSubscriptions'>,
  now: Millis,
): Promise<SubscriptionTrouble[]> {
  const enabled = (await store.listEventSubscriptions()).filter((s) => s.enabled);
  const troubled: SubscriptionTrouble[] = [];
  for (const s of enabled) {
    const backlog = await store.eventDeliveryBacklog(s.id, now - RECENT_FAILURE_MS);
    const age = backlog.oldestPendingAt === null ? 0 : now - backlog.oldestPendingAt;
    const stale = age > STALE_PENDING_MS;
    if (backlog.failedRecently === 0 && !stale) continue;
    troubled.push({
      subscriptionId: s.id,
      failedRecently: backlog.failedRecently,
      oldestPendingSeconds: stale ? Math.floor(age / 1000) : null,
    });
  }
  return troubled;
}
