import type { TemplateCategory, TemplateDefinition } from './template-definition.js';
import { templateSlots } from './template-slots.js';
import {
  resolveSlot,
  sourceFor,
  URL_MAX,
  type MediaSource,
  type ParameterMapping,
  type ParameterProblemReason,
  type RecipientFields,
  type RenderOptions,
} from './template-slot-values.js';

/** Values as an outbox row keeps them: text as a string, media as its source. */
export type FrozenValues = Record<string, string | MediaSource>;

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
