import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Category } from '../core/category.js';
import { decide } from '../core/decide.js';
import type { Decision } from '../core/decision.js';
import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import { DEFAULT_POLICY } from '../core/policy.js';
import { valueFreezer } from '../core/template-freeze.js';
import { checkMapping, type MappingIssue } from '../core/template-parameters.js';
import type { ParameterMapping, ParameterProblemReason, RecipientFields, RenderOptions } from '../core/template-slot-values.js';
import type {
  ContactHistoryStore,
  ContactStateStore,
  ContactStore,
  JsonObject,
  OutboxInput,
  OutboxStore,
  SenderStore,
  Template,
  TemplateStore,
} from '../ports/store.js';
import { templateShape } from './template-mapping.js';
import type { WorkQueued } from '../ports/work-signal.js';
import { messageTiming } from './message-timing.js';
import { recipientRegion } from './recipient-region.js';
import { loadContactState } from './update-contact-state.js';

/** The longest reference a caller may keep with a message (an order id, a ticket number). */
export const REFERENCE_MAX = 200;

/** What a one-off message says and the number it goes from, whoever receives it. */
export interface OneOffContent {
  category: Category;
  /** `parameters`: where each template value comes from (constants such as an OTP, or the contact's attributes). */
  template?: { name: string; language: string; parameters?: ParameterMapping };
  text?: string;
  /** The business number to send from: the one named, or the default. */
  phoneNumberId: string;
  /**
   * `named`: always from `phoneNumberId`. `default` (absent): from the number the contact last wrote
   * to, when it is one of Pacer's (a service reply must go where the conversation is), else from it.
   */
  number?: 'named' | 'default';
}

export interface OneOffMessage extends OneOffContent {
  /** The recipient's phone number, international format. */
  to: string;
  /** The same key never queues twice. */
  idempotencyKey: string;
  /** The caller's own reference (an order id), kept with the message and shown wherever it is read. */
  reference?: string;
}

/** Why a one-off message was refused before anything was stored; each caller words it for its users. */
export type OneOffProblem = 'template_or_text' | 'text_needs_service' | 'template_not_service' | 'invalid_phone';

export type OneOffResult =
  | { ok: false; problem: OneOffProblem }
  /** The template's values do not fit it, or Meta would refuse them: each issue names its slot. */
  | { ok: false; problem: 'parameters'; issues: MappingIssue[] }
  | {
      ok: true;
      /** False when the key was already used: the answer is about the message queued under it then. */
      queued: boolean;
      /** Pacer's message id (the outbox row's), the one `GET /messages/:id` reads. */
      messageId: number;
      /** The reference stored with the message (the first request's, when the key was already used). */
      reference: string | null;
      contactId: number;
      phoneE164: string;
      decision: Decision;
    };

/**
 * Queues one message in the outbox, where the dispatcher sends it through the same decision as
 * campaigns, and returns what `decide` says about it right now. Shared by `pacer send` and the API.
 */
export async function queueOneOffMessage(
  store: ContactStore &
    OutboxStore &
    TemplateStore &
    ContactStateStore &
    Pick<ContactHistoryStore, 'contactInbound'> &
    Pick<SenderStore, 'getSender'>,
  message: OneOffMessage,
  policy: Policy,
  now: Millis,
  signal: WorkQueued,
  options: RenderOptions = { stopButtons: policy.stopButtons },
): Promise<OneOffResult> {
  let m = message;
  const problem = contentProblem(m);
  if (problem !== null) return { ok: false, problem };
  const phone = parsePhoneNumberFromString(m.to.trim().startsWith('+') ? m.to.trim() : `+${m.to.replace(/\D/g, '')}`);
  if (!phone?.isValid()) return { ok: false, problem: 'invalid_phone' };
  const found = await store.findContact({ phoneE164: phone.number });
  m = found === null || m.number === 'named' ? m : { ...m, phoneNumberId: await conversationNumber(store, found.id, m.phoneNumberId) };
  const existing = found;
  const template = m.template === undefined ? null : await store.getTemplate(m.template.name, m.template.language);
  // Checked before anything is written: a refused message leaves no contact and no row behind.
  const renderer = oneOffRenderer(m, template, options);
  if (!renderer.ok) return { ok: false, problem: 'parameters', issues: renderer.issues };
  const values = renderer.render(existing ?? { name: null, attributes: {} });
  if (!values.ok) return { ok: false, problem: 'parameters', issues: [{ key: values.slot, message: values.problem.detail }] };
  const contactId = existing?.id ?? (await store.upsertContacts([{ phoneE164: phone.number, waId: phone.number.slice(1) }], now)).ids[0];
  if (contactId === undefined) throw new Error('could not record the contact');
  const { inserted } = await store.insertOutbox(
    [{ ...oneOffRow(contactId, m.idempotencyKey, m, values.intent, now), clientReference: m.reference ?? null }],
    now,
  );
  if (inserted > 0) signal.notifyQueued(now);
  const row = await store.findOutboxByKey(m.idempotencyKey);
  if (row === null) throw new Error(`the message queued under key ${m.idempotencyKey} was not stored`);
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
      timing: messageTiming({
        category: m.category,
        contact: { phoneE164: phone.number, attributes: existing?.attributes ?? {} },
        campaign: null,
        policy,
        queuedAt: now,
      }),
    },
    now,
    policy,
  );
  return {
    ok: true,
    queued: inserted === 1,
    messageId: row.id,
    reference: row.clientReference,
    contactId,
    phoneE164: phone.number,
    decision,
  };
}

/** The number the contact last wrote to, if Pacer sends from it; else `fallback`. */
async function conversationNumber(
  store: Pick<ContactHistoryStore, 'contactInbound'> & Pick<SenderStore, 'getSender'>,
  contactId: number,
  fallback: string,
): Promise<string> {
  const [last] = await store.contactInbound(contactId, 1);
  const number = last?.phoneNumberId ?? null;
  if (number === null || number === fallback) return fallback;
  return (await store.getSender(number)) === null ? fallback : number;
}

/** One recipient of a broadcast: a stored contact, and the key that keeps it from being queued twice. */
export interface BroadcastRecipient {
  contactId: number;
  idempotencyKey: string;
}

export type BroadcastResult =
  | { ok: false; problem: Exclude<OneOffProblem, 'invalid_phone'> }
  | { ok: false; problem: 'parameters'; issues: MappingIssue[] }
  | { ok: true; queued: number };

/**
 * The same one-off message for many stored contacts (order updates to their buyers, say), queued in
 * one statement: no number to check, and nothing decided here, since the dispatcher decides each
 * row when it comes up. A recipient already queued under its key is left as it is.
 */
export async function queueOneOffBroadcast(
  store: Pick<OutboxStore, 'insertOutbox'> & Pick<ContactStore, 'getContactsWithState'> & Pick<TemplateStore, 'getTemplate'>,
  recipients: readonly BroadcastRecipient[],
  m: OneOffContent,
  now: Millis,
  signal: WorkQueued,
  options: RenderOptions = { stopButtons: DEFAULT_POLICY.stopButtons },
): Promise<BroadcastResult> {
  const problem = contentProblem(m);
  if (problem !== null) return { ok: false, problem };
  const template = m.template === undefined ? null : await store.getTemplate(m.template.name, m.template.language);
  const renderer = oneOffRenderer(m, template, options);
  if (!renderer.ok) return { ok: false, problem: 'parameters', issues: renderer.issues };
  const perRecipient = Object.values(m.template?.parameters ?? {}).some((s) => 'attribute' in s);
  const contacts = perRecipient ? await store.getContactsWithState(recipients.map((r) => r.contactId)) : [];
  const fields = new Map(contacts.map(({ contact }) => [contact.id, contact]));
  const none = { name: null, attributes: {} };
  const rows = recipients.map((r) => {
    const values = renderer.render(fields.get(r.contactId) ?? none);
    // Checked above: what is left is one recipient's data, skipped with its reason like a campaign's.
    const intent = values.ok ? values.intent : { ...baseIntent(m), parameterProblem: values.problem };
    return oneOffRow(r.contactId, r.idempotencyKey, m, intent, now);
  });
  const { inserted } = await store.insertOutbox(rows, now);
  if (inserted > 0) signal.notifyQueued(now);
  return { ok: true, queued: inserted };
}

function contentProblem(m: OneOffContent): Exclude<OneOffProblem, 'invalid_phone'> | null {
  if ((m.template === undefined) === (m.text === undefined)) return 'template_or_text';
  if (m.text !== undefined && m.category !== 'service') return 'text_needs_service';
  if (m.template !== undefined && m.category === 'service') return 'template_not_service';
  return null;
}

function baseIntent(m: OneOffContent): JsonObject {
  return m.text !== undefined
    ? { phoneNumberId: m.phoneNumberId, text: m.text }
    : { phoneNumberId: m.phoneNumberId, template: { name: m.template?.name ?? '', language: m.template?.language ?? 'en_US' } };
}

type Rendered = { ok: true; intent: JsonObject } | { ok: false; slot: string; problem: { reason: ParameterProblemReason; detail: string } };

/**
 * The mapping checked against the template once, then a renderer of each recipient's intent with
 * its values frozen in; issues when the mapping does not fit the template (or Pacer cannot know).
 */
function oneOffRenderer(
  m: OneOffContent,
  template: Template | null,
  options: RenderOptions,
): { ok: true; render: (fields: RecipientFields) => Rendered } | { ok: false; issues: MappingIssue[] } {
  const base = baseIntent(m);
  const same = { ok: true as const, render: (): Rendered => ({ ok: true, intent: base }) };
  if (m.template === undefined) return same;
  const mapping = m.template.parameters ?? {};
  const shape = template === null ? ({ kind: 'unknown' } as const) : templateShape(template);
  if (shape.kind === 'unknown') {
    if (Object.keys(mapping).length === 0) return same;
    const message = `Pacer does not know the placeholders of ${m.template.name}/${m.template.language}: run \`pacer template sync\``;
    return { ok: false, issues: [{ key: '(template)', message }] };
  }
  const issues = checkMapping(shape.definition, shape.category, mapping);
  if (issues.length > 0) return { ok: false, issues };
  const freeze = valueFreezer(shape.definition, shape.category, mapping, options);
  const templateIntent = base['template'] as JsonObject;
  return {
    ok: true,
    render: (fields) => {
      const r = freeze(fields);
      if (!r.ok) return { ok: false, slot: r.slot, problem: { reason: r.reason, detail: r.detail } };
      if (Object.keys(r.values).length === 0) return { ok: true, intent: base };
      return { ok: true, intent: { ...base, template: { ...templateIntent, values: r.values as JsonObject } } };
    },
  };
}

function oneOffRow(contactId: number, idempotencyKey: string, m: OneOffContent, intent: JsonObject, now: Millis): OutboxInput {
  return { campaignId: null, contactId, senderId: null, category: m.category, intent, idempotencyKey, nextAttemptAt: now };
}
