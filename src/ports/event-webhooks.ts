import type { Millis } from '../core/time.js';

/** One POST of one event to one subscriber, signed with the subscription's secret (Standard Webhooks). */
export interface EventWebhookRequest {
  url: string;
  /** `whsec_` + base64: the key of the `webhook-signature` HMAC. */
  secret: string;
  /** `webhook-id`: the same for every attempt of this event to this subscription. */
  webhookId: string;
  /** `webhook-timestamp` (this attempt's time) and the signed content's time. */
  timestamp: Millis;
  /** The JSON body, signed as sent. */
  body: string;
}

/** What became of one POST: an answer (any status), or none (refused, reset, timed out). */
export type EventWebhookResult =
  { kind: 'answered'; status: number; durationMs: number } | { kind: 'no_answer'; error: string; durationMs: number };

/** Sends event webhooks; never throws for what the receiver does, and never retries (the caller's schedule does). */
export interface EventWebhookSender {
  post(request: EventWebhookRequest): Promise<EventWebhookResult>;
  close(): Promise<void>;
}
