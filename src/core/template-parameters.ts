import type { TemplateCategory, TemplateDefinition } from './template-definition.js';
import type { FrozenValues } from './template-freeze.js';
import { describeSlot, templateSlots, type MediaKind, type TemplateSlot, type UnsupportedPart } from './template-slots.js';
import {
  isMediaSource,
  linkProblem,
  resolveSlot,
  sourceFor,
  valueProblem,
  type MediaSource,
  type ParameterMapping,
  type ParameterProblemReason,
  type RecipientFields,
  type RenderOptions,
  type ResolvedValue,
  type SlotSource,
} from './template-slot-values.js';

// Re-exported for the tests that import them from this module; the sources import them from where they live.
export { encodeUrlSuffix, STOP_PROMOTIONS_PAYLOAD } from './template-slot-values.js';
export type { ParameterMapping, RecipientFields } from './template-slot-values.js';
export { valueFreezer } from './template-freeze.js';

/** One component of a send, in Meta's shape (reference §2.2). */
export interface SendComponent {
  type: string;
  sub_type?: string;
  index?: string;
  parameters: SendParameter[];
  [key: string]: unknown;
}

export interface SendParameter {
  type: string;
  [key: string]: unknown;
}

export type RenderResult =
  | { ok: true; components: SendComponent[]; values: ReadonlyMap<string, ResolvedValue> }
  | { ok: false; reason: ParameterProblemReason; slot: string; detail: string };

export interface MappingIssue {
  /** The mapping key, or the slot key a value is missing for. */
  key: string;
  message: string;
}

const UNSUPPORTED: Record<UnsupportedPart, string> = {
  location_header: 'location headers cannot be filled in by Pacer yet',
  product_header: 'product headers cannot be filled in by Pacer yet',
  carousel: 'carousel templates cannot be sent by Pacer yet',
  limited_time_offer: 'limited-time-offer templates cannot be sent by Pacer yet',
};

/**
 * Checks a mapping against a template before anything is stored: every required value has a source,
 * every key names a slot, media go to media headers only, and constants and links are values Meta
 * would take. Empty when the mapping is complete.
 */
export function checkMapping(def: TemplateDefinition, category: TemplateCategory, mapping: ParameterMapping): MappingIssue[] {
  const { slots, unsupported } = templateSlots(def, category);
  const issues: MappingIssue[] = unsupported.map((u) => ({ key: u, message: UNSUPPORTED[u] }));
  const known = new Set(slots.flatMap((s) => (s.part === 'body' || s.part === 'header_text' ? [s.key, s.placeholder ?? ''] : [s.key])));
  for (const key of Object.keys(mapping)) {
    if (!known.has(key)) {
      const has = slots.map((s) => s.key).join(', ') || 'no parameters';
      issues.push({ key, message: `the template has no such value to fill in (it has ${has})` });
    }
  }
  for (const slot of slots) {
    const source = sourceFor(slot, mapping);
    if (source === undefined) {
      if (slot.required)
        issues.push({ key: slot.key, message: `${describeSlot(slot)} has no value: map it to an attribute or a constant` });
      continue;
    }
    const problem = sourceProblem(slot, source);
    if (problem !== null) issues.push({ key: slot.key, message: problem });
  }
  return issues;
}

function sourceProblem(slot: TemplateSlot, source: SlotSource): string | null {
  if (slot.part === 'header_media') {
    if ('value' in source) return `${describeSlot(slot)} takes a link, a media id or an attribute holding a link, not text`;
    if ('link' in source) return linkProblem(source.link, slot);
    if ('mediaId' in source) return /^\d{1,30}$/.test(source.mediaId) ? null : `${describeSlot(slot)}: media id must be digits`;
    return null;
  }
  if (isMediaSource(source)) return `${describeSlot(slot)} takes text, not media`;
  if ('value' in source) {
    const problem = valueProblem(slot, source.value);
    return problem === null ? null : `${describeSlot(slot)}: the value ${problem}`;
  }
  if (source.attribute === '') return `${describeSlot(slot)}: attribute name is empty`;
  if (source.fallback !== undefined) {
    const problem = valueProblem(slot, source.fallback);
    if (problem !== null) return `${describeSlot(slot)}: the fallback ${problem}`;
  }
  return null;
}

/**
 * One recipient's values, checked as Meta would check them, in Meta's send shape. Assumes a mapping
 * `checkMapping` accepted. A missing or unusable value names the slot and where it came from.
 */
export function renderParameters(
  def: TemplateDefinition,
  category: TemplateCategory,
  mapping: ParameterMapping,
  fields: RecipientFields,
  options: RenderOptions,
): RenderResult {
  const { slots, otpButtonIndex } = templateSlots(def, category);
  const r = resolveSlots(slots, def, mapping, fields, options);
  if (!r.ok) return r;
  return { ok: true, components: toComponents(def, category, slots, r.values, otpButtonIndex), values: r.values };
}

function resolveSlots(
  slots: readonly TemplateSlot[],
  def: TemplateDefinition,
  mapping: ParameterMapping,
  fields: RecipientFields,
  options: RenderOptions,
): { ok: true; values: Map<string, ResolvedValue> } | { ok: false; reason: ParameterProblemReason; slot: string; detail: string } {
  const values = new Map<string, ResolvedValue>();
  for (const slot of slots) {
    const resolved = resolveSlot(slot, sourceFor(slot, mapping), fields, def, options);
    if (resolved === null) continue;
    if ('reason' in resolved) return { ok: false, slot: slot.key, ...resolved };
    values.set(slot.key, resolved);
  }
  return { ok: true, values };
}

/**
 * The send components from values frozen earlier, against the template as it is now. A value the
 * template now needs and the row does not have (the template changed since) is named, not guessed.
 */
export function composeComponents(
  def: TemplateDefinition,
  category: TemplateCategory,
  frozen: Readonly<FrozenValues>,
): { ok: true; components: SendComponent[] } | { ok: false; slot: string; detail: string } {
  const { slots, otpButtonIndex } = templateSlots(def, category);
  const values = new Map<string, ResolvedValue>();
  for (const slot of slots) {
    const v = frozen[slot.key];
    if (v === undefined) {
      if (slot.required)
        return { ok: false, slot: slot.key, detail: `${describeSlot(slot)} has no value: the template changed since the values were set` };
      continue;
    }
    values.set(slot.key, typeof v === 'string' ? { kind: 'text', text: v } : { kind: 'media', media: v });
  }
  return { ok: true, components: toComponents(def, category, slots, values, otpButtonIndex) };
}

function textParameter(text: string, name: string | null): SendParameter {
  return name === null ? { type: 'text', text } : { type: 'text', parameter_name: name, text };
}

function mediaParameter(kind: MediaKind, media: MediaSource): SendParameter {
  const object: Record<string, unknown> = 'link' in media ? { link: media.link } : { id: media.mediaId };
  if (kind === 'document' && media.filename !== undefined) object['filename'] = media.filename;
  return { type: kind, [kind]: object };
}

function toComponents(
  def: TemplateDefinition,
  category: TemplateCategory,
  slots: readonly TemplateSlot[],
  values: ReadonlyMap<string, ResolvedValue>,
  otpButtonIndex: number | null,
): SendComponent[] {
  // Authentication bodies are positional whatever the template says; named ones name every value.
  const named = def.parameterFormat === 'named' && category !== 'authentication';
  const text = (s: TemplateSlot): string => {
    const v = values.get(s.key);
    return v?.kind === 'text' ? v.text : '';
  };
  const nameOf = (s: TemplateSlot): string | null =>
    named && s.placeholder !== null && !/^\d+$/.test(s.placeholder) ? s.placeholder : null;
  const out: SendComponent[] = [];
  const header = slots.filter((s) => s.part === 'header_text' || s.part === 'header_media');
  if (header.length > 0) {
    out.push({
      type: 'header',
      parameters: header.map((s) => {
        const v = values.get(s.key);
        return v?.kind === 'media' ? mediaParameter(s.mediaKind ?? 'image', v.media) : textParameter(text(s), nameOf(s));
      }),
    });
  }
  const body = slots.filter((s) => s.part === 'body');
  if (body.length > 0) out.push({ type: 'body', parameters: body.map((s) => textParameter(text(s), nameOf(s))) });
  const code = body[0] === undefined ? '' : text(body[0]);
  const buttons: SendComponent[] = [];
  for (const s of slots) {
    if (s.buttonIndex === null || !values.has(s.key)) continue;
    const index = String(s.buttonIndex);
    if (s.part === 'url_suffix') buttons.push({ type: 'button', sub_type: 'url', index, parameters: [textParameter(text(s), nameOf(s))] });
    if (s.part === 'copy_code')
      buttons.push({ type: 'button', sub_type: 'copy_code', index, parameters: [{ type: 'coupon_code', coupon_code: text(s) }] });
    if (s.part === 'quick_reply')
      buttons.push({ type: 'button', sub_type: 'quick_reply', index, parameters: [{ type: 'payload', payload: text(s) }] });
  }
  // The one-time password goes twice: in the body and as the button's URL value (reference §2.3).
  if (otpButtonIndex !== null && code !== '') {
    buttons.push({ type: 'button', sub_type: 'url', index: String(otpButtonIndex), parameters: [{ type: 'text', text: code }] });
  }
  buttons.sort((a, b) => Number(a.index) - Number(b.index));
  return [...out, ...buttons];
}
