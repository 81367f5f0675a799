import type { NewOutboundEvent } from '../../core/outbound-event.js';
import type { Millis } from '../../core/time.js';

/** The durable record of events for subscribers: written in the transaction of the change it reports. */
export interface OutboundEventStore {
  /**
   * Appends the events (in the given order) and queues a delivery for every enabled subscription
   * they match. An event no subscription takes is not kept; with no subscription at all this is
   * one small read.
   */
  recordOutboundEvents(events: readonly NewOutboundEvent[], now: Millis): Promise<void>;
}
