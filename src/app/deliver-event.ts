import { afterFailedAttempt, type DeliveryRetrySettings } from '../core/event-retry.js';
import { webhookId, webhookPayload } from '../core/event-webhook.js';
import type { Clock } from '../ports/clock.js';
import type { EventWebhookSender } from '../ports/event-webhooks.js';
import type { ClaimedDelivery, DeliveryOutcome, DeliverySettlement } from '../ports/store.js';

export interface DeliverEventDeps {
  sender: EventWebhookSender;
  clock: Clock;
  random: () => number;
  retry: DeliveryRetrySettings;
}

/** One attempt of a claimed delivery: POST it signed, and say what to record (a 2xx delivers it; anything else retries or gives up). */
export async function deliverEvent(deps: DeliverEventDeps, owner: string, claimed: ClaimedDelivery): Promise<DeliverySettlement> {
  const { event, subscription, delivery } = claimed;
  const at = deps.clock.now();
  const result = await deps.sender.post({
    url: subscription.url,
    secret: subscription.secret,
    webhookId: webhookId(event.id, subscription.id),
    timestamp: at,
    body: JSON.stringify(webhookPayload(event)),
  });
  const ok = result.kind === 'answered' && result.status >= 200 && result.status < 300;
  const statusCode = result.kind === 'answered' ? result.status : null;
  const error = ok ? null : result.kind === 'answered' ? `HTTP ${result.status}` : result.error;
  const failed = afterFailedAttempt(delivery.attempts + 1, deps.clock.now(), deps.retry, deps.random());
  const outcome: DeliveryOutcome = ok ? { kind: 'delivered' } : failed.kind === 'retry' ? failed : { kind: 'failed' };
  return { deliveryId: delivery.id, owner, attempt: { at, durationMs: result.durationMs, statusCode, error }, outcome };
}
