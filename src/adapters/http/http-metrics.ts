/** Why a webhook POST was refused before anything was stored. */
export type WebhookRejectReason = 'missing' | 'malformed' | 'mismatch' | 'no_secret_configured';

export const WEBHOOK_REJECT_REASONS: readonly WebhookRejectReason[] = ['missing', 'malformed', 'mismatch', 'no_secret_configured'];

/**
 * Counters of the HTTP edge, read by tests and, later, by the `/metrics` route. Plain numbers kept
 * in memory: they restart at zero with the process, as Prometheus counters may.
 */
export interface HttpMetrics {
  /** Payloads committed to the inbox (and acknowledged with 200). */
  webhookStored: number;
  /** Unsigned or badly signed POSTs answered 401, by reason. */
  webhookRejected: Record<WebhookRejectReason, number>;
  /** Bodies over the size limit, answered 413 unread. */
  webhookTooLarge: number;
  /** POSTs answered 503 unread: the bodies being received at once had reached their byte limit. */
  webhookBusy: number;
  /** POSTs whose body did not finish arriving in time, answered 408. */
  webhookBodyTimeout: number;
  /** POSTs answered 503 because the store refused the write. */
  webhookStoreFailed: number;
  /** Inbox transactions committed (one per group commit). */
  inboxBatches: number;
}

export function createHttpMetrics(): HttpMetrics {
  return {
    webhookStored: 0,
    webhookRejected: { missing: 0, malformed: 0, mismatch: 0, no_secret_configured: 0 },
    webhookTooLarge: 0,
    webhookBusy: 0,
    webhookBodyTimeout: 0,
    webhookStoreFailed: 0,
    inboxBatches: 0,
  };
}
