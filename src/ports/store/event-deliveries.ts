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
  /** HTTP attempts made so far. */
  attempts: number;
  /** Pending: when it is next tried (or, while claimed, when the claim runs out). */
  nextAttemptAt: Millis;
  lastAttemptAt: Millis | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Millis | null;
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

/** The deliveries of outbound events: what is owed to whom, and what became of it. */
export interface EventDeliveryStore {
  /** In id order (the order they were queued). */
  listEventDeliveries(filter: DeliveryListFilter): Promise<EventDelivery[]>;
  getOutboundEvent(id: number): Promise<OutboundEvent | null>;
}
