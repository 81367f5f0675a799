// Builders for tests of the core; not used by production code.
import type { Category } from './category.js';
import type { ContactEvent } from './contact-event.js';
import { EMPTY_CONTACT_STATE, type ContactState } from './contact-state.js';
import type { SendIntent } from './decision.js';
import { DEFAULT_POLICY, type Policy } from './policy.js';
import { reduceContact } from './reduce-contact.js';
import { HOUR } from './time.js';

export const T0 = Date.UTC(2026, 10, 1, 9, 0, 0);
let counter = 0;
const nextId = (prefix: string): string => `${prefix}-${++counter}`;

export const ev = {
  failed: (at: number, errorCode: number, category: Category | null = 'marketing'): ContactEvent => ({
    type: 'status',
    id: nextId('st'),
    at,
    messageId: nextId('wamid'),
    status: 'failed',
    category,
    errorCode,
  }),
  delivered: (at: number, category: Category | null = 'marketing'): ContactEvent => ({
    type: 'status',
    id: nextId('st'),
    at,
    messageId: nextId('wamid'),
    status: 'delivered',
    category,
    errorCode: null,
  }),
  read: (at: number, category: Category | null = 'marketing'): ContactEvent => ({
    type: 'status',
    id: nextId('st'),
    at,
    messageId: nextId('wamid'),
    status: 'read',
    category,
    errorCode: null,
  }),
  inbound: (
    at: number,
    text: string | null = 'hi',
    kind: 'text' | 'button' | 'interactive' | 'other' = 'text',
    payload: string | null = null,
    freeEntry = false,
  ): ContactEvent => ({
    type: 'inbound',
    id: nextId('in'),
    at,
    kind,
    text,
    payload,
    freeEntry,
  }),
  preference: (at: number, value: 'stop' | 'resume'): ContactEvent => ({ type: 'preference', id: nextId('pref'), at, value }),
  consent: (at: number, category: Category, status: 'granted' | 'revoked' = 'granted'): ContactEvent => ({
    type: 'consent',
    id: nextId('consent'),
    at,
    category,
    status,
    source: 'import',
    evidence: null,
  }),
  sendError: (at: number, errorCode: number, category: Category = 'marketing'): ContactEvent => ({
    type: 'send_error',
    id: nextId('err'),
    at,
    messageId: null,
    category,
    errorCode,
  }),
  accepted: (at: number, category: Category = 'marketing', path: 'cloud' | 'marketing_messages' = 'cloud'): ContactEvent => ({
    type: 'send_accepted',
    id: nextId('acc'),
    at,
    messageId: nextId('wamid'),
    category,
    path,
  }),
};

/** A contact who opted in to marketing and utility a year before T0. */
export function consentingContact(policy: Policy = DEFAULT_POLICY): ContactState {
  return replay([ev.consent(T0 - 8760 * HOUR, 'marketing'), ev.consent(T0 - 8760 * HOUR, 'utility')], policy);
}

export function replay(
  events: readonly ContactEvent[],
  policy: Policy = DEFAULT_POLICY,
  from: ContactState = EMPTY_CONTACT_STATE,
): ContactState {
  return events.reduce((s, e) => reduceContact(s, e, policy), from);
}

export function intent(category: Category, patch: Partial<SendIntent> = {}): SendIntent {
  return {
    category,
    kind: category === 'service' ? 'freeform' : 'template',
    recipientRegion: 'BR',
    template: category === 'service' ? null : { status: 'approved', pausedUntil: null },
    sender: { state: 'ok' },
    capAttempts: 0,
    marketingApiRefused: false,
    ...patch,
  };
}
