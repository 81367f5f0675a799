import type { OutboundEventType } from './outbound-event.js';
import { iso, type Millis } from './time.js';

/**
 * What a subscriber receives, in the Standard Webhooks shape: `type`, `timestamp` (when the change
 * happened, ISO 8601) and `data` (the type's own fields).
 */
export interface WebhookPayload {
  type: OutboundEventType;
  timestamp: string;
  data: Readonly<Record<string, unknown>>;
}

export function webhookPayload(event: {
  type: OutboundEventType;
  occurredAt: Millis;
  data: Readonly<Record<string, unknown>>;
}): WebhookPayload {
  return { type: event.type, timestamp: iso(event.occurredAt), data: event.data };
}

/**
 * The `webhook-id` header: the same for every attempt and every replay of one event to one
 * subscription, so a receiver that keeps the ids it has processed drops the repeats.
 */
export function webhookId(eventId: number, subscriptionId: number): string {
  return `evt_${eventId}_${subscriptionId}`;
}
