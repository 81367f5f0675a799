import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Category } from '../core/category.js';
import { decide } from '../core/decide.js';
import type { Decision } from '../core/decision.js';
import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import type { ContactStateStore, ContactStore, JsonObject, OutboxStore, TemplateStore } from '../ports/store.js';
import { recipientRegion } from './recipient-region.js';
import { loadContactState } from './update-contact-state.js';

export interface OneOffMessage {
  to: string;
  category: Category;
  template?: { name: string; language: string };
  text?: string;
  /** The same key never queues twice. */
  idempotencyKey: string;
  /** The business number to send from. */
  phoneNumberId: string;
}

/** Why a one-off message was refused before anything was stored; each caller words it for its users. */
export type OneOffProblem = 'template_or_text' | 'text_needs_service' | 'template_not_service' | 'invalid_phone';

export type OneOffResult =
  | { ok: false; problem: OneOffProblem }
  | { ok: true; queued: boolean; contactId: number; phoneE164: string; decision: Decision };

/**
 * Queues one message in the outbox, where the dispatcher sends it through the same decision as
 * campaigns, and returns what `decide` says about it right now. Shared by `pacer send` and the API.
 */
export async function queueOneOffMessage(store: ContactStore & OutboxStore & TemplateStore & ContactStateStore, m: OneOffMessage, policy: Policy, now: Millis): Promise<OneOffResult> {
  if ((m.template === undefined) === (m.text === undefined)) return { ok: false, problem: 'template_or_text' };
  if (m.text !== undefined && m.category !== 'service') return { ok: false, problem: 'text_needs_service' };
  if (m.template !== undefined && m.category === 'service') return { ok: false, problem: 'template_not_service' };
  const phone = parsePhoneNumberFromString(m.to.trim().startsWith('+') ? m.to.trim() : `+${m.to.replace(/\D/g, '')}`);
  if (!phone?.isValid()) return { ok: false, problem: 'invalid_phone' };
  const existing = await store.findContact({ phoneE164: phone.number });
  const contactId = existing?.id ?? (await store.upsertContacts([{ phoneE164: phone.number, waId: phone.number.slice(1) }], now)).ids[0];
  if (contactId === undefined) throw new Error('could not record the contact');
  const intent: JsonObject = m.text !== undefined
    ? { phoneNumberId: m.phoneNumberId, text: m.text }
    : { phoneNumberId: m.phoneNumberId, template: { name: m.template?.name ?? '', language: m.template?.language ?? 'en_US' } };
  const { inserted } = await store.insertOutbox([{ campaignId: null, contactId, senderId: null, category: m.category, intent, idempotencyKey: m.idempotencyKey, nextAttemptAt: now }], now);
  const template = m.template === undefined ? null : await store.getTemplate(m.template.name, m.template.language);
  const decision = decide(await loadContactState(store, contactId), {
    category: m.category,
    kind: m.text !== undefined ? 'freeform' : 'template',
    recipientRegion: recipientRegion(phone.number),
    template: m.template === undefined ? null : { status: template?.status ?? 'unknown', pausedUntil: template?.pausedUntil ?? null },
    sender: { state: 'ok' },
    capAttempts: 0,
    marketingApiRefused: false,
  }, now, policy);
  return { ok: true, queued: inserted === 1, contactId, phoneE164: phone.number, decision };
}
