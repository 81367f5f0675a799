import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Category } from '../core/category.js';
import { decide } from '../core/decide.js';
import type { Decision } from '../core/decision.js';
import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import type { ContactStateStore, ContactStore, JsonObject, OutboxInput, OutboxStore, TemplateStore } from '../ports/store.js';
import type { WorkQueued } from '../ports/work-signal.js';
import { recipientRegion } from './recipient-region.js';
import { loadContactState } from './update-contact-state.js';

/** What a one-off message says and the number it goes from, whoever receives it. */
export interface OneOffContent {
  category: Category;
  template?: { name: string; language: string };
  text?: string;
  /** The business number to send from. */
  phoneNumberId: string;
}

export interface OneOffMessage extends OneOffContent {
  /** The recipient's phone number, international format. */
  to: string;
  /** The same key never queues twice. */
  idempotencyKey: string;
}

/** Why a one-off message was refused before anything was stored; each caller words it for its users. */
export type OneOffProblem = 'template_or_text' | 'text_needs_service' | 'template_not_service' | 'invalid_phone';

export type OneOffResult =
  { ok: false; problem: OneOffProblem } | { ok: true; queued: boolean; contactId: number; phoneE164: string; decision: Decision };

/**
 * Queues one message in the outbox, where the dispatcher sends it through the same decision as
 * campaigns, and returns what `decide` says about it right now. Shared by `pacer send` and the API.
 */
export async function queueOneOffMessage(
  store: ContactStore & OutboxStore & TemplateStore & ContactStateStore,
  m: OneOffMessage,
  policy: Policy,
  now: Millis,
  signal: WorkQueued,
): Promise<OneOffResult> {
  const problem = contentProblem(m);
  if (problem !== null) return { ok: false, problem };
  const phone = parsePhoneNumberFromString(m.to.trim().startsWith('+') ? m.to.trim() : `+${m.to.replace(/\D/g, '')}`);
  if (!phone?.isValid()) return { ok: false, problem: 'invalid_phone' };
  const existing = await store.findContact({ phoneE164: phone.number });
  const contactId = existing?.id ?? (await store.upsertContacts([{ phoneE164: phone.number, waId: phone.number.slice(1) }], now)).ids[0];
  if (contactId === undefined) throw new Error('could not record the contact');
  const { inserted } = await store.insertOutbox([oneOffRow(contactId, m.idempotencyKey, m, now)], now);
  if (inserted > 0) signal.notifyQueued(now);
  const template = m.template === undefined ? null : await store.getTemplate(m.template.name, m.template.language);
  const decision = decide(
    await loadContactState(store, contactId),
    {
      category: m.category,
      kind: m.text !== undefined ? 'freeform' : 'template',
      recipientRegion: recipientRegion(phone.number),
      template: m.template === undefined ? null : { status: template?.status ?? 'unknown', pausedUntil: template?.pausedUntil ?? null },
      sender: { state: 'ok' },
      capAttempts: 0,
      marketingApiRefused: false,
    },
    now,
    policy,
  );
  return { ok: true, queued: inserted === 1, contactId, phoneE164: phone.number, decision };
}

/** One recipient of a broadcast: a stored contact, and the key that keeps it from being queued twice. */
export interface BroadcastRecipient {
  contactId: number;
  idempotencyKey: string;
}

export type BroadcastResult = { ok: false; problem: Exclude<OneOffProblem, 'invalid_phone'> } | { ok: true; queued: number };

/**
 * The same one-off message for many stored contacts (order updates to their buyers, say), queued in
 * one statement: no number to check, and nothing decided here, since the dispatcher decides each
 * row when it comes up. A recipient already queued under its key is left as it is.
 */
export async function queueOneOffBroadcast(
  store: Pick<OutboxStore, 'insertOutbox'>,
  recipients: readonly BroadcastRecipient[],
  m: OneOffContent,
  now: Millis,
  signal: WorkQueued,
): Promise<BroadcastResult> {
  const problem = contentProblem(m);
  if (problem !== null) return { ok: false, problem };
  const { inserted } = await store.insertOutbox(
    recipients.map((r) => oneOffRow(r.contactId, r.idempotencyKey, m, now)),
    now,
  );
  if (inserted > 0) signal.notifyQueued(now);
  return { ok: true, queued: inserted };
}

function contentProblem(m: OneOffContent): Exclude<OneOffProblem, 'invalid_phone'> | null {
  if ((m.template === undefined) === (m.text === undefined)) return 'template_or_text';
  if (m.text !== undefined && m.category !== 'service') return 'text_needs_service';
  if (m.template !== undefined && m.category === 'service') return 'template_not_service';
  return null;
}

function oneOffRow(contactId: number, idempotencyKey: string, m: OneOffContent, now: Millis): OutboxInput {
  const intent: JsonObject =
    m.text !== undefined
      ? { phoneNumberId: m.phoneNumberId, text: m.text }
      : { phoneNumberId: m.phoneNumberId, template: { name: m.template?.name ?? '', language: m.template?.language ?? 'en_US' } };
  return { campaignId: null, contactId, senderId: null, category: m.category, intent, idempotencyKey, nextAttemptAt: now };
}
