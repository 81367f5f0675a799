import { matchesAny } from './keyword.js';
import type { TemplateCategory, TemplateDefinition } from './template-definition.js';
import { describeSlot, templateSlots, type MediaKind, type TemplateSlot, type UnsupportedPart } from './template-slots.js';

/**
 * Where each of a template's values comes from (a campaign's mapping, or a one-off send's values):
 * a contact attribute with an optional fallback, a constant, or for a media header a link or an
 * uploaded media id. Keys are slot keys (`body.1`, `header`, `button.0`); a bare placeholder name
 * (`first_name`, `1`) fills that placeholder in the header and the body alike.
 */
export type ValueSource = { attribute: string; fallback?: string } | { value: string };
export type MediaSource = { link: string; filename?: string } | { mediaId: string; filename?: string };
export type SlotSource = ValueSource | MediaSource;
export type ParameterMapping = Readonly<Record<string, SlotSource>>;

/** What the mapping reads of a recipient. */
export interface RecipientFields {
  name: string | null;
  attributes: Readonly<Record<string, unknown>>;
}

export type ResolvedValue = { kind: 'text'; text: string } | { kind: 'media'; media: MediaSource };

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

export type ParameterProblemReason = 'missing_parameter' | 'invalid_parameter';

export type RenderResult =
  | { ok: true; components: SendComponent[]; values: ReadonlyMap<string, ResolvedValue> }
  | { ok: false; reason: ParameterProblemReason; slot: string; detail: string };

export interface MappingIssue {
  /** The mapping key, or the slot key a value is missing for. */
  key: string;
  message: string;
}

/** Sent as a "Stop promotions" button's payload, so a tap is recognised whatever the button's language. */
export const STOP_PROMOTIONS_PAYLOAD = 'STOP_PROMOTIONS';

const UNSUPPORTED: Record<UnsupportedPart, string> = {
  location_header: 'location headers cannot be filled in by Pacer yet',
  product_header: 'product headers cannot be filled in by Pacer yet',
  carousel: 'carousel templates cannot be sent by Pacer yet',
  limited_time_offer: 'limited-time-offer templates cannot be sent by Pacer yet',
};

const URL_MAX = 2000;

function isMediaSource(s: SlotSource): s is MediaSource {
  return 'link' in s || 'mediaId' in s;
}

function sourceFor(slot: TemplateSlot, mapping: ParameterMapping): SlotSource | undefined {
  const exact = mapping[slot.key];
  if (exact !== undefined) return exact;
  const bare = (slot.part === 'body' || slot.part === 'header_text') && slot.placeholder !== null;
  return bare ? mapping[slot.placeholder as string] : undefined;
}

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

function linkProblem(link: string, slot: TemplateSlot): string | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return `${describeSlot(slot)}: ${JSON.stringify(link)} is not a URL`;
  }
  return url.protocol === 'https:' ? null : `${describeSlot(slot)}: links must be https, got ${url.protocol}`;
}

/** Why Meta would refuse this value in this slot (reference §2.4), or null. */
export function valueProblem(slot: TemplateSlot, text: string): string | null {
  if (text.trim() === '') return 'is empty';
  // Meta refuses any parameter with a line break, a tab or more than four spaces in a row (132018).
  if (/[\n\r\t]/.test(text)) return 'contains a line break or tab, which Meta refuses in parameters';
  if (/ {5,}/.test(text)) return 'has more than four spaces in a row, which Meta refuses in parameters';
  if (slot.maxLength === null || text.length <= slot.maxLength) return null;
  // Characters, not UTF-16 units: an emoji is one (counted only when the units are over the limit).
  const length = [...text].length;
  return length > slot.maxLength ? `is ${length} characters; Meta allows ${slot.maxLength}` : null;
}

/** An attribute's value as text: strings, numbers and booleans; anything else is not a value. */
function attributeText(fields: RecipientFields, key: string): { text: string } | { problem: string } {
  const raw = key in fields.attributes ? fields.attributes[key] : key === 'name' ? fields.name : undefined;
  if (raw === undefined || raw === null) return { problem: 'is missing' };
  if (typeof raw === 'string') return raw.trim() === '' ? { problem: 'is empty' } : { text: raw.trim() };
  if (typeof raw === 'number' || typeof raw === 'boolean') return { text: String(raw) };
  return { problem: 'is not text' };
}

export interface RenderOptions {
  /** Button texts that mean "stop promotions" (the policy's); such a button gets STOP_PROMOTIONS_PAYLOAD. */
  stopButtons: readonly string[];
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

export type FreezeResult = { ok: true; values: FrozenValues } | { ok: false; reason: ParameterProblemReason; slot: string; detail: string };

/**
 * One recipient's values as an outbox row keeps them, for many recipients of one campaign: the
 * template's slots and each slot's source are worked out once, not per recipient.
 */
export function valueFreezer(
  def: TemplateDefinition,
  category: TemplateCategory,
  mapping: ParameterMapping,
  options: RenderOptions,
): (fields: RecipientFields) => FreezeResult {
  const list = slotValueFreezer(def, category, mapping, options);
  return (fields) => {
    const r = list.freeze(fields);
    if (!r.ok) return r;
    const values: FrozenValues = {};
    list.keys.forEach((key, i) => {
      const value = r.values[i];
      if (value !== undefined) values[key] = value;
    });
    return { ok: true, values };
  };
}

export type FrozenValueList =
  | { ok: true; values: ReadonlyArray<string | MediaSource | undefined> }
  | { ok: false; reason: ParameterProblemReason; slot: string; detail: string };

/**
 * `valueFreezer`'s values in slot order, `values[i]` for `keys[i]` (undefined: that slot takes no
 * value, a quick reply left as it is): no object per recipient, for writing many rows.
 */
export interface SlotValueFreezer {
  /** The template's slots, in order; the same for every recipient. */
  readonly keys: readonly string[];
  freeze(fields: RecipientFields): FrozenValueList;
}

export function slotValueFreezer(
  def: TemplateDefinition,
  category: TemplateCategory,
  mapping: ParameterMapping,
  options: RenderOptions,
): SlotValueFreezer {
  const slots = templateSlots(def, category).slots.map((slot) => ({ slot, source: sourceFor(slot, mapping) }));
  return {
    keys: slots.map(({ slot }) => slot.key),
    freeze(fields) {
      const values = new Array<string | MediaSource | undefined>(slots.length);
      for (let i = 0; i < slots.length; i += 1) {
        const { slot, source } = slots[i] as (typeof slots)[number];
        const r = resolveSlot(slot, source, fields, def, options);
        if (r !== null && 'reason' in r) return { ok: false, slot: slot.key, ...r };
        values[i] = r === null ? undefined : r.kind === 'text' ? r.text : r.media;
      }
      return { ok: true, values };
    },
  };
}

/**
 * Characters of a plain value: one no check refuses or changes (nothing to trim, no line break,
 * tab or space, nothing a URL suffix would encode). A database can copy such a value straight from
 * an attribute into a row, as `slotValueFreezer` would freeze it.
 */
export const PLAIN_VALUE_CHARACTERS = 'A-Za-z0-9_.~-';

/** One slot as a database may fill it: from an attribute holding a plain value, or the same value for everyone. */
export type PlainSlot =
  | { key: string; kind: 'attribute'; attribute: string; maxChars: number | null }
  | { key: string; kind: 'fixed'; value: string | MediaSource };

/**
 * The slots of a mapping for recipients whose attributes hold plain values (a string of 1 to
 * `maxChars` (null: any number) of PLAIN_VALUE_CHARACTERS, present under its own key): each such recipient's values
 * are then the attribute's text, or the fixed value, exactly as `slotValueFreezer` gives them.
 * Null when no recipient's values can be had that way (a media header from an attribute, or a
 * slot refused for everyone): then every recipient goes through `slotValueFreezer`.
 */
export function plainSlots(
  def: TemplateDefinition,
  category: TemplateCategory,
  mapping: ParameterMapping,
  options: RenderOptions,
): PlainSlot[] | null {
  const out: PlainSlot[] = [];
  for (const slot of templateSlots(def, category).slots) {
    const source = sourceFor(slot, mapping);
    if (source !== undefined && 'attribute' in source) {
      if (slot.part === 'header_media') return null;
      const url = slot.part === 'url_suffix' ? (def.buttons[slot.buttonIndex ?? -1]?.url ?? '') : '';
      // A suffix within URL_MAX alongside the whole template URL passes urlProblem's first test.
      const limit = Math.min(slot.maxLength ?? Infinity, slot.part === 'url_suffix' ? URL_MAX - url.length : Infinity);
      if (limit < 1) return null;
      const maxChars = Number.isFinite(limit) ? limit : null;
      out.push({ key: slot.key, kind: 'attribute', attribute: source.attribute, maxChars });
      continue;
    }
    const fixed = resolveSlot(slot, source, { name: null, attributes: {} }, def, options);
    if (fixed === null) continue;
    if ('reason' in fixed) return null;
    out.push({ key: slot.key, kind: 'fixed', value: fixed.kind === 'text' ? fixed.text : fixed.media });
  }
  return out;
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

/** Values as an outbox row keeps them: text as a string, media as its source. */
export type FrozenValues = Record<string, string | MediaSource>;

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

type Resolved = ResolvedValue | { reason: ParameterProblemReason; detail: string } | null;

function resolveSlot(
  slot: TemplateSlot,
  source: SlotSource | undefined,
  fields: RecipientFields,
  def: TemplateDefinition,
  options: RenderOptions,
): Resolved {
  // Worded only when something is wrong: this runs for every recipient of a campaign.
  const what = (): string => describeSlot(slot);
  if (source === undefined) {
    if (slot.part !== 'quick_reply') return { reason: 'missing_parameter', detail: `${what()} has no value` };
    return isStopButton(slot, def, options) ? { kind: 'text', text: STOP_PROMOTIONS_PAYLOAD } : null;
  }
  if (isMediaSource(source)) return { kind: 'media', media: source };
  let text: string;
  let origin: string;
  if ('value' in source) {
    text = source.value;
    origin = 'the value';
  } else {
    origin = source.attribute;
    const read = attributeText(fields, source.attribute);
    if ('problem' in read && source.fallback === undefined) {
      return {
        reason: read.problem === 'is not text' ? 'invalid_parameter' : 'missing_parameter',
        detail: `${what()}: ${origin} ${read.problem}`,
      };
    }
    text = 'text' in read ? read.text : (source.fallback as string);
    if (!('text' in read)) origin = `the fallback for ${source.attribute}`;
  }
  if (slot.part === 'header_media') {
    const problem = linkProblem(text, slot);
    return problem === null ? { kind: 'media', media: { link: text } } : { reason: 'invalid_parameter', detail: problem };
  }
  if (slot.part === 'url_suffix') text = encodeUrlSuffix(text);
  const problem = valueProblem(slot, text) ?? urlProblem(slot, def, text);
  if (problem !== null)
    return { reason: problem === 'is empty' ? 'missing_parameter' : 'invalid_parameter', detail: `${what()}: ${origin} ${problem}` };
  return { kind: 'text', text };
}

const STOP_BUTTON = new WeakMap<TemplateSlot, boolean>();

/** Whether a quick-reply button reads as "stop promotions"; worked out once per slot, not per recipient. */
function isStopButton(slot: TemplateSlot, def: TemplateDefinition, options: RenderOptions): boolean {
  let stop = STOP_BUTTON.get(slot);
  if (stop === undefined) {
    stop = matchesAny(def.buttons[slot.buttonIndex ?? -1]?.text ?? null, options.stopButtons);
    STOP_BUTTON.set(slot, stop);
  }
  return stop;
}

function urlProblem(slot: TemplateSlot, def: TemplateDefinition, suffix: string): string | null {
  if (slot.part !== 'url_suffix') return null;
  const url = def.buttons[slot.buttonIndex ?? -1]?.url ?? '';
  if (url.length + suffix.length <= URL_MAX) return null;
  const length = url.replace(/\{\{[^{}]*\}\}$/, '').length + suffix.length;
  return length > URL_MAX ? `makes the URL ${length} characters; Meta allows ${URL_MAX}` : null;
}

/** Percent-encodes what a URL cannot carry (space, `|`, `:`, non-ASCII) and keeps escapes already there. */
export function encodeUrlSuffix(value: string): string {
  if (/^[A-Za-z0-9_.~-]*$/.test(value)) return value;
  return value
    .split(/(%[0-9A-Fa-f]{2})/)
    .map((part, i) => (i % 2 === 1 ? part : encodeURIComponent(part)))
    .join('');
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
