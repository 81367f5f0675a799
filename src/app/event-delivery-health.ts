import { DAY, HOUR, type Millis } from '../core/time.js';
import type { EventDeliveryStore, EventSubscriptionStore, SubscriptionDeliveryTotals } from '../ports/store.js';

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

export interface EventDeliveryHealth {
  totals: SubscriptionDeliveryTotals[];
  /** Enabled subscriptions whose receiver is failing: deliveries given up on lately, or a pending one waiting too long. */
  troubled: SubscriptionTrouble[];
}

/** How event delivery is doing, for /healthz and /metrics; a disabled subscription's backlog is nobody's trouble. */
export async function eventDeliveryHealth(
  store: Pick<EventDeliveryStore, 'eventDeliveryTotals'> & Pick<EventSubscriptionStore, 'listEventSubscriptions'>,
  now: Millis,
): Promise<EventDeliveryHealth> {
  const [totals, subscriptions] = await Promise.all([store.eventDeliveryTotals(now - RECENT_FAILURE_MS), store.listEventSubscriptions()]);
  const enabled = new Set(subscriptions.filter((s) => s.enabled).map((s) => s.id));
  const troubled = totals.flatMap((t): SubscriptionTrouble[] => {
    const age = t.oldestPendingAt === null ? 0 : now - t.oldestPendingAt;
    const stale = age > STALE_PENDING_MS;
    if (!enabled.has(t.subscriptionId) || (t.failedRecently === 0 && !stale)) return [];
    return [
      { subscriptionId: t.subscriptionId, failedRecently: t.failedRecently, oldestPendingSeconds: stale ? Math.floor(age / 1000) : null },
    ];
  });
  return { totals, troubled };
}
