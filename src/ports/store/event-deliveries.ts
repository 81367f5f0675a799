import type { OutboundEventType } from '../../core/outbound-event.js';
import type { Millis } from '../../core/time.js';
import type { JsonObject } from '../json.js';

/** `failed`: given up on after the last retry; kept, visible, and replayable. */
export type EventDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** An event as recorded. */
export interface OutboundEvent {
  id: number;
  type: OutboundEventType;
  occurredAt: Millis;
  recordedAt: Millis;
  contactId: number | null;
  campaignId: number | null;
  phoneNumberId: string | null;
  data: JsonObject;
}

/** One event to one subscription. */
export interface EventDelivery {
  id: number;
  eventId: number;
  subscriptionId: number;
  status: EventDeliveryStatus;
  /** HTTP attempts since it was queued (a replay starts again from 0). */
  attempts: number;
  /** Pending: when it is next tried (or, while claimed, when the claim runs out). */
  nextAttemptAt: Millis;
  lastAttemptAt: Millis | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Millis | null;
  /** When it was queued: recorded with its event, or replayed. */
  createdAt: Millis;
}

export interface DeliveryListFilter {
  subscriptionId?: number;
  eventId?: number;
  status?: EventDeliveryStatus;
  /** Deliveries with a larger id only (paging). */
  afterId?: number;
  limit: number;
}

/** A due delivery handed to one worker until `leaseMs` runs out, with what it needs to send it. */
export interface ClaimedDelivery {
  delivery: EventDelivery;
  event: OutboundEvent;
  subscription: { id: number; url: string; secret: string };
}

export interface DeliveryClaimOptions {
  owner: string;
  now: Millis;
  leaseMs: Millis;
  limit: number;
}

/** One HTTP attempt. `statusCode` null: no answer (refused, timed out, reset). */
export interface DeliveryAttemptInput {
  at: Millis;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}
export interface DeliveryAttempt extends DeliveryAttemptInput {
  id: number;
  deliveryId: number;
}

export type DeliveryOutcome = { kind: 'delivered' } | { kind: 'retry'; at: Millis } | { kind: 'failed' };

export interface DeliverySettlement {
  deliveryId: number;
  owner: string;
  attempt: DeliveryAttemptInput;
  outcome: DeliveryOutcome;
}

/** Which deliveries a replay queues again: those of the given events, or of the events that occurred in [from, to). */
export type ReplaySelection = ({ eventIds: readonly number[] } | { from: Millis; to: Millis }) & { subscriptionId?: number };

export interface SubscriptionDeliveryTotals {
  subscriptionId: number;
  pending: number;
  delivered: number;
  failed: number;
  /** Failed for good at or after the time asked about. */
  failedRecently: number;
  /** When the oldest pending delivery was queued; null when none is pending. */
  oldestPendingAt: Millis | null;
}

/** What one prune removed. */
export interface PrunedEvents {
  events: number;
  deliveries: number;
  attempts: number;
}

/** The deliveries of outbound events: what is owed to whom, and what became of it. */
export interface EventDeliveryStore {
  /** In id order (the order they were queued). */
  listEventDeliveries(filter: DeliveryListFilter): Promise<EventDelivery[]>;
  getEventDelivery(id: number): Promise<EventDelivery | null>;
  getOutboundEvent(id: number): Promise<OutboundEvent | null>;
  /**
   * Up to `limit` due deliveries, each the earliest pending one of its subscription and contact
   * (in order per contact), of enabled subscriptions; several workers never get the same one.
   * A claim lasts `leaseMs`: a worker that dies leaves it due again when that runs out.
   */
  claimEventDeliveries(options: DeliveryClaimOptions): Promise<ClaimedDelivery[]>;
  /**
   * Keeps the attempt and, if `owner` still holds the claim, its outcome; a delivery done (or given
   * up on) lets the next one of its contact go at once. False when the claim was lost.
   */
  settleEventDelivery(settlement: DeliverySettlement, now: Millis): Promise<boolean>;
  /** Several settlements in one transaction (a burst of answers, one commit), each kept or not as above, in order. */
  settleEventDeliveries(settlements: readonly DeliverySettlement[], now: Millis): Promise<boolean[]>;
  /** Oldest first. */
  listDeliveryAttempts(deliveryId: number): Promise<DeliveryAttempt[]>;
  /**
   * Queues the selected deliveries again, due now, with a fresh retry schedule (those in flight
   * excepted); returns how many.
   */
  replayEventDeliveries(selection: ReplaySelection, now: Millis): Promise<number>;
  /**
   * One subscription's trouble, cheaply (two index reads, for /healthz): deliveries failed for good
   * at or after `failedSince`, and when its oldest pending delivery (by id) was queued.
   */
  eventDeliveryBacklog(subscriptionId: number, failedSince: Millis): Promise<{ failedRecently: number; oldestPendingAt: Millis | null }>;
  /** Per subscription with any delivery; `failedSince` bounds `failedRecently`. Counts every delivery kept: for /metrics and reports. */
  eventDeliveryTotals(failedSince: Millis): Promise<SubscriptionDeliveryTotals[]>;
  /** When the next pending delivery falls due (claimed ones: when their claim runs out); null when none is pending. */
  nextEventDeliveryAt(): Promise<Millis | null>;
  /**
   * Deletes up to `limit` of the oldest events that occurred before `occurredBefore` and have no
   * pending delivery, with their deliveries (delivered or failed for good) and attempts, in one
   * transaction. Events with a pending delivery stay, however old.
   */
  pruneOutboundEvents(occurredBefore: Millis, limit: number): Promise<PrunedEvents>;
}
