import { matchesAny } from './keyword.js';
import type { TemplateDefinition } from './template-definition.js';
import { describeSlot, type TemplateSlot } from './template-slots.js';

// A slot's value for one recipient, from its source. Rendering (template-parameters.ts) and freezing
// (template-freeze.ts) both work from it, so it sits below both and neither imports the other back.

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

export type ParameterProblemReason = 'missing_parameter' | 'invalid_parameter';

/** Sent as a "Stop promotions" button's payload, so a tap is recognised whatever the button's language. */
export const STOP_PROMOTIONS_PAYLOAD = 'STOP_PROMOTIONS';

// Exported: plainSlots (template-freeze.ts) holds a URL suffix to the same limit.
export const URL_MAX = 2000;

// Exported: checkMapping (template-parameters.ts) tells media from values with it too.
export function isMediaSource(s: SlotSource): s is MediaSource {
  return 'link' in s || 'mediaId' in s;
}

// Exported: checkMapping, rendering and freezing find a slot's source with it.
export function sourceFor(slot: TemplateSlot, mapping: ParameterMapping): SlotSource | undefined {
  const exact = mapping[slot.key];
  if (exact !== undefined) return exact;
  const bare = (slot.part === 'body' || slot.part === 'header_text') && slot.placeholder !== null;
  return bare ? mapping[slot.placeholder as string] : undefined;
}

// Exported: checkMapping (template-parameters.ts) checks a mapping's links with it before anything is stored.
export function linkProblem(link: string, slot: TemplateSlot): string | null {
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

type Resolved = ResolvedValue | { reason: ParameterProblemReason; detail: string } | null;

// Exported: rendering (template-parameters.ts) and freezing (template-freeze.ts) resolve each slot with it.
export function resolveSlot(
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
