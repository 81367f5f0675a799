import type { TemplateCategory, TemplateDefinition } from './template-definition.js';

/**
 * The values a template needs at send time, one slot each, named the way a campaign's mapping names
 * them: `header.1` or `header.order_id` (a text header's placeholder), `header` (a media header),
 * `body.1` or `body.first_name`, and `button.0` (a button's value, by its zero-based index).
 */
export type SlotPart = 'header_text' | 'header_media' | 'body' | 'url_suffix' | 'copy_code' | 'quick_reply';
export type MediaKind = 'image' | 'video' | 'document';

export interface TemplateSlot {
  key: string;
  part: SlotPart;
  /** The placeholder's name in its text (`1`, `first_name`); null for media and buttons without one. */
  placeholder: string | null;
  /** Button index, for button slots. */
  buttonIndex: number | null;
  /** Quick-reply payloads may be left out; every other slot needs a value. */
  required: boolean;
  /** Meta's limit on the value, in characters (§2.4); null when Meta gives none beyond the URL's. */
  maxLength: number | null;
  mediaKind: MediaKind | null;
}

/** What a template needs that Pacer cannot fill in yet: such a template is refused by name, not sent to fail. */
export type UnsupportedPart = 'location_header' | 'product_header' | 'carousel' | 'limited_time_offer';

// Meta's limits (reference §2.4): header text 60, body 1024 beside other components (32768 alone), codes 15.
export const HEADER_TEXT_MAX = 60;
export const BODY_PARAMETER_MAX = 1024;
export const BODY_ONLY_PARAMETER_MAX = 32768;
export const CODE_MAX = 15;
export const PAYLOAD_MAX = 256;

const MEDIA: Partial<Record<string, MediaKind>> = { IMAGE: 'image', VIDEO: 'video', DOCUMENT: 'document', GIF: 'video' };

export interface TemplateSlots {
  slots: TemplateSlot[];
  unsupported: UnsupportedPart[];
  /** Authentication templates: the code fills the body and the one-time-password button alike. */
  otpButtonIndex: number | null;
}

export function templateSlots(def: TemplateDefinition, category: TemplateCategory): TemplateSlots {
  const slots: TemplateSlot[] = [];
  const unsupported: UnsupportedPart[] = [];
  const h = def.header;
  if (h !== null) {
    const kind = MEDIA[h.format];
    if (h.format === 'TEXT') {
      for (const p of h.placeholders) slots.push(slot(`header.${p}`, 'header_text', p, null, true, HEADER_TEXT_MAX));
    } else if (kind !== undefined) {
      slots.push({ ...slot('header', 'header_media', null, null, true, null), mediaKind: kind });
    } else {
      unsupported.push(h.format === 'LOCATION' ? 'location_header' : 'product_header');
    }
  }
  const bodyOnly = h === null && def.footer === null && def.buttons.length === 0;
  const bodyMax = category === 'authentication' ? CODE_MAX : bodyOnly ? BODY_ONLY_PARAMETER_MAX : BODY_PARAMETER_MAX;
  for (const p of def.body.placeholders) slots.push(slot(`body.${p}`, 'body', p, null, true, bodyMax));
  let otpButtonIndex: number | null = null;
  for (const b of def.buttons) {
    if (b.otp) otpButtonIndex = b.index;
    else if (b.type === 'URL' && b.urlPlaceholder !== null)
      slots.push(slot(`button.${b.index}`, 'url_suffix', b.urlPlaceholder, b.index, true, null));
    else if (b.type === 'COPY_CODE') slots.push(slot(`button.${b.index}`, 'copy_code', null, b.index, true, CODE_MAX));
    else if (b.type === 'QUICK_REPLY') slots.push(slot(`button.${b.index}`, 'quick_reply', null, b.index, false, PAYLOAD_MAX));
  }
  if (def.carouselCards > 0) unsupported.push('carousel');
  if (def.limitedTimeOffer !== null) unsupported.push('limited_time_offer');
  return { slots, unsupported, otpButtonIndex };
}

function slot(
  key: string,
  part: SlotPart,
  placeholder: string | null,
  buttonIndex: number | null,
  required: boolean,
  maxLength: number | null,
): TemplateSlot {
  return { key, part, placeholder, buttonIndex, required, maxLength, mediaKind: null };
}

/** How a slot reads in messages to people: `body {{1}}`, `button 0 (URL suffix)`. */
export function describeSlot(s: TemplateSlot): string {
  switch (s.part) {
    case 'header_text':
      return `header {{${s.placeholder ?? ''}}}`;
    case 'header_media':
      return `header ${s.mediaKind ?? 'media'}`;
    case 'body':
      return `body {{${s.placeholder ?? ''}}}`;
    case 'url_suffix':
      return `button ${s.buttonIndex ?? ''} (URL suffix)`;
    case 'copy_code':
      return `button ${s.buttonIndex ?? ''} (coupon code)`;
    case 'quick_reply':
      return `button ${s.buttonIndex ?? ''} (quick-reply payload)`;
  }
}
