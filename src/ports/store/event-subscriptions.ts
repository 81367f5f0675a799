import type { EventFilter } from '../../core/event-subscription.js';
import type { Millis } from '../../core/time.js';

export interface EventSubscriptionInput extends EventFilter {
  /** Where deliveries are POSTed (http or https). */
  url: string;
  /** The Standard Webhooks signing secret (`whsec_` + base64). Kept as is: it signs every delivery. */
  secret: string;
  description: string | null;
}

export interface EventSubscription extends EventSubscriptionInput {
  id: number;
  enabled: boolean;
  createdAt: Millis;
  updatedAt: Millis;
}

/** Who receives outbound events. A disabled subscription is given no new deliveries and is sent none. */
export interface EventSubscriptionStore {
  createEventSubscription(input: EventSubscriptionInput, now: Millis): Promise<EventSubscription>;
  getEventSubscription(id: number): Promise<EventSubscription | null>;
  /** In creation order. */
  listEventSubscriptions(): Promise<EventSubscription[]>;
  /** False when there is no such subscription. */
  setEventSubscriptionEnabled(id: number, enabled: boolean, now: Millis): Promise<boolean>;
  /** Deletes it with its deliveries and their attempts (the events stay); false when there is none. */
  deleteEventSubscription(id: number): Promise<boolean>;
}
