import { parseTemplateComponents } from '../core/template-definition.js';
import { describeSlot, templateSlots, type MediaKind, type SlotPart, type UnsupportedPart } from '../core/template-slots.js';
import type { Template } from '../ports/store.js';

/** One value a template needs at send time, keyed as a campaign's parameter mapping names it. */
export interface TemplateParameter {
  key: string;
  part: SlotPart;
  placeholder: string | null;
  required: boolean;
  maxLength: number | null;
  mediaKind: MediaKind | null;
  /** As messages to people name it: `body {{1}}`, `button 0 (URL suffix)`. */
  label: string;
}

export type TemplateNeeds =
  | { known: true; parameters: TemplateParameter[]; unsupported: UnsupportedPart[] }
  /** Registered by hand, or stored components Pacer cannot read: `reason` says which. */
  | { known: false; reason: string };

/** What a mapping must fill in for this template, from the components its last sync stored. */
export function templateNeeds(template: Template): TemplateNeeds {
  if (template.category === 'service') return { known: false, reason: 'service messages take no template' };
  if (template.components === null)
    return { known: false, reason: 'registered by hand: run `pacer template sync` to read its placeholders' };
  const parsed = parseTemplateComponents(template.components, template.parameterFormat ?? 'positional', template.category);
  if (!parsed.ok) return { known: false, reason: `its stored components cannot be read: ${parsed.reason}` };
  const definition = { ...parsed.content, subCategory: template.subCategory, messageSendTtlSeconds: null };
  const { slots, unsupported } = templateSlots(definition, template.category);
  return {
    known: true,
    parameters: slots.map((s) => ({
      key: s.key,
      part: s.part,
      placeholder: s.placeholder,
      required: s.required,
      maxLength: s.maxLength,
      mediaKind: s.mediaKind,
      label: describeSlot(s),
    })),
    unsupported,
  };
}
