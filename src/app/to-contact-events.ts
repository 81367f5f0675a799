import { createHash } from 'node:crypto';
import type { ContactEvent } from '../core/contact-event.js';
import { assertNever } from '../core/error-class.js';
import type { ContactKey, InboundItem, UserPreferenceItem, WebhookItem } from '../ports/webhook-items.js';

/** A fact about one contact, ready for the reducer. */
export interface KeyedContactEvent<E extends ContactEvent = ContactEvent> {
  /** A status may carry no identifier at all (Meta omits them on some failures); the caller then resolves it by `messageId`. */
  contact: ContactKey;
  event: E;
}

function inboundKind(item: InboundItem): 'text' | 'button' | 'interactive' | 'other' {
  if (item.type === 'text' || item.type === 'button' || item.type === 'interactive') return item.type;
  return 'other';
}

function inboundEvent(item: InboundItem): KeyedContactEvent | null {
  // System notices (number changed, identity changed) are not the user writing to us.
  if (item.type === 'system') return null;
  const kind = inboundKind(item);
  const text =
    kind === 'text'
      ? item.text
      : kind === 'button'
        ? (item.button?.text ?? null)
        : kind === 'interactive'
          ? (item.interactive?.title ?? null)
          : null;
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
  return createHash('sha256')
    .update(`${contact.waId ?? ''}|${contact.userId ?? ''}`)
    .digest('hex')
    .slice(0, 16);
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
    case 'inbound':
      return inboundEvent(item);
    case 'user_preference':
      return preferenceEvent(item);
    case 'user_id_change':
      return null; // changes who the contact is, not what they can receive (apply-user-id-change.ts)
    case 'status':
      return null; // applied by applyStatus, which matches it to its outbox row first (status-event.ts)
    case 'change_error':
    case 'template_status':
    case 'template_quality':
    case 'template_category':
    case 'template_components':
    case 'phone_quality':
    case 'account_update':
    case 'business_capability':
    case 'ignored':
      return null; // about the account, a template or a number, not a contact
    default:
      return assertNever(item, 'webhook item');
  }
}

/** The contact events carried by parsed inbound messages and preferences, in body order. */
export function toContactEvents(items: readonly WebhookItem[]): KeyedContactEvent[] {
  const events: KeyedContactEvent[] = [];
  for (const item of items) {
    const keyed = eventFor(item);
    if (keyed !== null) events.push(keyed);
  }
  return events;
}
