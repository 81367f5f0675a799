import type { Category } from '../core/category.js';
import type { ContactEvent, DeliveryStatus } from '../core/contact-event.js';
import { SECOND } from '../core/time.js';
import type { StatusItem } from '../ports/webhook-items.js';
import type { KeyedContactEvent } from './to-contact-events.js';

export type StatusEvent = Extract<ContactEvent, { type: 'status' }>;

const DELIVERY_STATUSES: readonly string[] = ['sent', 'delivered', 'read', 'played', 'failed'] satisfies DeliveryStatus[];

function isDeliveryStatus(value: string): value is DeliveryStatus {
  return DELIVERY_STATUSES.includes(value);
}

/** Meta's `pricing.category` names our categories with variants (marketing-messages path, international auth rates). */
const PRICING_CATEGORIES: Readonly<Record<string, Category>> = {
  marketing: 'marketing',
  marketing_lite: 'marketing',
  utility: 'utility',
  authentication: 'authentication',
  authentication_international: 'authentication',
  service: 'service',
};

export function categoryFromPricing(category: string | null): Category | null {
  if (category === null) return null;
  const key = category.toLowerCase();
  return Object.hasOwn(PRICING_CATEGORIES, key) ? (PRICING_CATEGORIES[key] ?? null) : null;
}

/**
 * The contact event a status webhook carries, keyed by its recipient, with the category Meta
 * priced it in; `applyStatus` prefers the contact and category of the outbox row when it knows the
 * message. Null for a status value Meta added after this code was written: it means nothing to the
 * reducer yet.
 */
export function statusEvent(item: StatusItem): KeyedContactEvent<StatusEvent> | null {
  if (!isDeliveryStatus(item.status)) return null;
  return {
    contact: item.recipient,
    event: {
      type: 'status',
      id: `${item.messageId}:${item.status}`,
      // Status timestamps have whole seconds: a failure may have happened up to a second after the one
      // stated, so it counts from the end of that second and a 24 h cool-off never ends early.
      at: item.status === 'failed' ? item.at + SECOND - 1 : item.at,
      messageId: item.messageId,
      status: item.status,
      category: categoryFromPricing(item.pricing?.category ?? null),
      errorCode: item.errors[0]?.code ?? null,
    },
  };
}
