import type { NewOutboundEvent, OutboundEventType } from './outbound-event.js';

/** `*` takes every type, including types added in later releases. */
export type SubscribedType = OutboundEventType | '*';

/** What a subscription takes: its types, and optionally one campaign's or one number's events only. */
export interface EventFilter {
  eventTypes: readonly SubscribedType[];
  campaignId: number | null;
  phoneNumberId: string | null;
}

/** An event matches when its type is taken and it belongs to the campaign and the number the filter names, if any. */
export function matchesFilter(filter: EventFilter, event: Pick<NewOutboundEvent, 'type' | 'campaignId' | 'phoneNumberId'>): boolean {
  if (filter.campaignId !== null && event.campaignId !== filter.campaignId) return false;
  if (filter.phoneNumberId !== null && event.phoneNumberId !== filter.phoneNumberId) return false;
  return filter.eventTypes.includes('*') || filter.eventTypes.includes(event.type);
}

/**
 * Deliveries of one subscription in one lane go in order: the contact's events in the order they
 * were recorded; events of no contact (campaign, sender) share lane 0. Contact ids start at 1.
 */
export function deliveryLane(event: Pick<NewOutboundEvent, 'contactId'>): number {
  return event.contactId ?? 0;
}
