import { webhookId } from '../../core/event-webhook.js';
import { iso } from '../../core/time.js';
import type { DeliveryAttempt, EventDelivery, EventSubscription, OutboundEvent, SubscriptionDeliveryTotals } from '../../ports/store.js';

/** Subscriptions, deliveries and attempts as the API and the CLI print them. A subscription's secret is never among them. */

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export function subscriptionJson(s: EventSubscription, totals?: SubscriptionDeliveryTotals) {
  return {
    id: s.id,
    url: s.url,
    eventTypes: [...s.eventTypes],
    campaignId: s.campaignId,
    phoneNumberId: s.phoneNumberId,
    description: s.description,
    enabled: s.enabled,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
    deliveries: {
      pending: totals?.pending ?? 0,
      delivered: totals?.delivered ?? 0,
      failed: totals?.failed ?? 0,
      oldestPendingAt: isoOrNull(totals?.oldestPendingAt ?? null),
    },
  };
}

export function deliveryJson(d: EventDelivery) {
  return {
    id: d.id,
    eventId: d.eventId,
    subscriptionId: d.subscriptionId,
    webhookId: webhookId(d.eventId, d.subscriptionId),
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    lastAttemptAt: isoOrNull(d.lastAttemptAt),
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    deliveredAt: isoOrNull(d.deliveredAt),
    queuedAt: iso(d.createdAt),
  };
}

export function attemptJson(a: DeliveryAttempt) {
  return { at: iso(a.at), statusCode: a.statusCode, error: a.error, durationMs: a.durationMs };
}

export function eventJson(e: OutboundEvent) {
  return {
    id: e.id,
    type: e.type,
    occurredAt: iso(e.occurredAt),
    recordedAt: iso(e.recordedAt),
    contactId: e.contactId,
    campaignId: e.campaignId,
    phoneNumberId: e.phoneNumberId,
    data: e.data,
  };
}
