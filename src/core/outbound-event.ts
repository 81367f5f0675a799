import type { Millis } from './time.js';

/**
 * What Pacer tells the systems that subscribe to it (a CRM, a data warehouse): one type per change
 * an integration acts on. Names are `subject.change`, stable once released (receivers switch on them).
 */
/** JSON, as an event's `data` is sent (the store's JSON type, which core cannot import). */
export type EventValue = string | number | boolean | null | EventValue[] | { [key: string]: EventValue };
export type EventData = { [key: string]: EventValue };

export const OUTBOUND_EVENT_TYPES = [
  'message.accepted',
  'message.delivered',
  'message.read',
  'message.failed',
  'message.skipped',
  'message.deferred',
  'contact.replied',
  'contact.marketing_stopped',
  'contact.marketing_resumed',
  'contact.consent_changed',
  'campaign.paused',
  'campaign.resumed',
  'campaign.started',
  'campaign.completed',
  'campaign.cancelled',
  'sender.health_changed',
] as const;
export type OutboundEventType = (typeof OUTBOUND_EVENT_TYPES)[number];

/**
 * An event as the change that causes it records it, in the same transaction. `contactId` orders
 * delivery (in order per contact); `campaignId` and `phoneNumberId` let a subscription filter.
 */
export interface NewOutboundEvent {
  type: OutboundEventType;
  /** When the change happened (a status's own timestamp, or now). */
  occurredAt: Millis;
  contactId: number | null;
  campaignId: number | null;
  /** The business number it concerns (Meta's phone number id). */
  phoneNumberId: string | null;
  /** The type's own fields; contacts by Pacer's id, never by a full phone number; never a secret. */
  data: EventData;
}

/** Where a use case hands the events its changes make; the caller records them in the change's transaction. */
export type EmitEvent = (event: NewOutboundEvent) => void;
