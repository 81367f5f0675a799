import { createHash } from 'node:crypto';
import type { Category } from '../../core/category.js';
import type { ContactEvent, DeliveryStatus } from '../../core/contact-event.js';
import { assertNever } from '../../core/error-class.js';
import type { ContactKey, InboundItem, StatusItem, UserPreferenceItem, WebhookItem } from '../../ports/webhook-items.js';

/** A fact about one contact, ready for the reducer. */
export interface KeyedContactEvent {
  /** A status may carry no identifier at all (Meta omits them on some failures); the caller then resolves it by `messageId`. */
  contact: ContactKey;
  event: ContactEvent;
}

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

function statusEvent(item: StatusItem): KeyedContactEvent | null {
  // A status Meta added after this code was written is kept in the item but means nothing to the reducer yet.
  if (!isDeliveryStatus(item.status)) return null;
  return {
    contact: item.recipient,
    event: {
      type: 'status',
      id: `${item.messageId}:${item.status}`,
      at: item.at,
      messageId: item.messageId,
      status: item.status,
      category: categoryFromPricing(item.pricing?.category ?? null),
      errorCode: item.errors[0]?.code ?? null,
    },
  };
}

function inboundKind(item: InboundItem): 'text' | 'button' | 'interactive' | 'other' {
  if (item.type === 'text' || item.type === 'button' || item.type === 'interactive') return item.type;
  return 'other';
}

function inboundEvent(item: InboundItem): KeyedContactEvent | null {
  // System notices (number changed, identity changed) are not the user writing to us.
  if (item.type === 'system') return null;
  const kind = inboundKind(item);
  const text = kind === 'text' ? item.text : kind === 'button' ? (item.button?.text ?? null) : kind === 'interactive' ? (item.interactive?.title ?? null) : null;
  const payload = kind === 'button' ? (item.button?.payload ?? null) : kind === 'interactive' ? (item.interactive?.id ?? null) : null;
  return {
    contact: item.from,
    event: {
      type: 'inbound',
      id: item.messageId,
      at: item.at,
      kind,
      text,
      payload,
      // Meta attaches `referral` only to a conversation started from a Click-to-WhatsApp ad.
      freeEntry: item.referral !== null,
    },
  };
}

/**
 * Meta gives preferences no id, so one is derived from who, what and when: stable across redeliveries.
 * The contact enters only as a digest, because event ids end up in explanations and logs.
 */
function keyDigest(contact: ContactKey): string {
  return createHash('sha256').update(`${contact.waId ?? ''}|${contact.userId ?? ''}`).digest('hex').slice(0, 16);
}

function preferenceEvent(item: UserPreferenceItem): KeyedContactEvent | null {
  if (item.value !== 'stop' && item.value !== 'resume') return null;
  return {
    contact: item.contact,
    event: { type: 'preference', id: `preference:${keyDigest(item.contact)}:${item.value}:${item.at}`, at: item.at, value: item.value },
  };
}

function eventFor(item: WebhookItem): KeyedContactEvent | null {
  switch (item.kind) {
    case 'status':
      return statusEvent(item);
    case 'inbound':
      return inboundEvent(item);
    case 'user_preference':
      return preferenceEvent(item);
    case 'change_error':
    case 'template_status':
    case 'template_quality':
    case 'template_category':
    case 'phone_quality':
    case 'account_update':
    case 'business_capability':
    case 'ignored':
      return null; // about the account, a template or a number, not a contact
    default:
      return assertNever(item, 'webhook item');
  }
}

/** The contact events carried by parsed webhook items, in body order. */
export function toContactEvents(items: readonly WebhookItem[]): KeyedContactEvent[] {
  const events: KeyedContactEvent[] = [];
  for (const item of items) {
    const keyed = eventFor(item);
    if (keyed !== null) events.push(keyed);
  }
  return events;
}
