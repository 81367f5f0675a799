import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Category } from '../core/category.js';
import { decide } from '../core/decide.js';
import type { Decision } from '../core/decision.js';
import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import { DEFAULT_POLICY } from '../core/policy.js';
import {
  checkMapping,
  freezeValues,
  renderParameters,
  type MappingIssue,
  type ParameterMapping,
  type ParameterProblemReason,
  type RecipientFields,
  type RenderOptions,
} from '../core/template-parameters.js';
import type { ContactStateStore, ContactStore, JsonObject, OutboxInput, OutboxStore, Template, TemplateStore } from '../ports/store.js';
import { templateShape } from './template-mapping.js';
import type { WorkQueued } from '../ports/work-signal.js';
import { recipientRegion } from './recipient-region.js';
import { loadContactState } from './update-contact-state.js';

/** What a one-off message says and the number it goes from, whoever receives it. */
export interface OneOffContent {
  category: Category;
  /** `parameters`: where each template value comes from (constants such as an OTP, or the contact's attributes). */
  template?: { name: string; language: string; parameters?: ParameterMapping };
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
  | { ok: false; problem: OneOffProblem }
  /** The template's values do not fit it, or Meta would refuse them: each issue names its slot. */
  | { ok: false; problem: 'parameters'; issues: MappingIssue[] }
  | { ok: true; queued: boolean; contactId: number; phoneE164: string; decision: Decision };

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
  options: RenderOptions = { stopButtons: policy.stopButtons },
): Promise<OneOffResult> {
  const problem = contentProblem(m);
  if (problem !== null) return { ok: false, problem };
  const phone = parsePhoneNumberFromString(m.to.trim().startsWith('+') ? m.to.trim() : `+${m.to.replace(/\D/g, '')}`);
  if (!phone?.isValid()) return { ok: false, problem: 'invalid_phone' };
  const existing = await store.findContact({ phoneE164: phone.number });
  const template = m.template === undefined ? null : await store.getTemplate(m.template.name, m.template.language);
  // Checked before anything is written: a refused message leaves no contact and no row behind.
  const values = renderOneOff(m, template, existing ?? { name: null, attributes: {} }, options);
  if (!values.ok) return { ok: false, problem: 'parameters', issues: values.issues };
  const contactId = existing?.id ?? (await store.upsertContacts([{ phoneE164: phone.number, waId: phone.number.slice(1) }], now)).ids[0];
  if (contactId === undefined) throw new Error('could not record the contact');
  const { inserted } = await store.insertOutbox([oneOffRow(contactId, m.idempotencyKey, m, values.intent, now)], now);
  if (inserted > 0) signal.notifyQueued(now);
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
  const mappingProblems = broadcastMappingIssues(m, template);
  if (mappingProblems.length > 0) return { ok: false, problem: 'parameters', issues: mappingProblems };
  const perRecipient = Object.values(m.template?.parameters ?? {}).some((s) => 'attribute' in s);
  const contacts = perRecipient ? await store.getContactsWithState(recipients.map((r) => r.contactId)) : [];
  const fields = new Map(contacts.map(({ contact }) => [contact.id, contact]));
  const none = { name: null, attributes: {} };
  const rows = recipients.map((r) => {
    const values = renderOneOff(m, template, fields.get(r.contactId) ?? none, options);
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

type Rendered =
  { ok: true; intent: JsonObject } | { ok: false; issues: MappingIssue[]; problem: { reason: ParameterProblemReason; detail: string } };

/** The intent with this recipient's values frozen in; a template Pacer knows is checked as Meta would check it. */
function renderOneOff(m: OneOffContent, template: Template | null, fields: RecipientFields, options: RenderOptions): Rendered {
  const base = baseIntent(m);
  if (m.template === undefined) return { ok: true, intent: base };
  const mapping = m.template.parameters ?? {};
  const issues = broadcastMappingIssues(m, template);
  const problem = { reason: 'missing_parameter' as const, detail: issues[0]?.message ?? '' };
  if (issues.length > 0) return { ok: false, issues, problem };
  const shape = template === null ? ({ kind: 'unknown' } as const) : templateShape(template);
  if (shape.kind === 'unknown') return { ok: true, intent: base };
  const r = renderParameters(shape.definition, shape.category, mapping, fields, options);
  if (!r.ok) return { ok: false, issues: [{ key: r.slot, message: r.detail }], problem: { reason: r.reason, detail: r.detail } };
  if (r.values.size === 0) return { ok: true, intent: base };
  return { ok: true, intent: { ...base, template: { ...(base['template'] as JsonObject), values: freezeValues(r.values) as JsonObject } } };
}

function broadcastMappingIssues(m: OneOffContent, template: Template | null): MappingIssue[] {
  if (m.template === undefined) return [];
  const mapping = m.template.parameters ?? {};
  const shape = template === null ? ({ kind: 'unknown' } as const) : templateShape(template);
  if (shape.kind === 'known') return checkMapping(shape.definition, shape.category, mapping);
  if (Object.keys(mapping).length === 0) return [];
  return [
    {
      key: '(template)',
      message: `Pacer does not know the placeholders of ${m.template.name}/${m.template.language}: run \`pacer template sync\``,
    },
  ];
}

function oneOffRow(contactId: number, idempotencyKey: string, m: OneOffContent, intent: JsonObject, now: Millis): OutboxInput {
  return { campaignId: null, contactId, senderId: null, category: m.category, intent, idempotencyKey, nextAttemptAt: now };
}
