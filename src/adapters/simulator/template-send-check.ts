import { z } from 'zod';
import type { Rendered } from './ground-truth.js';
import { renderTemplate, type FilledTemplate } from './template-render.js';
import { isPositional, substitute, type ButtonShape, type MediaKind, type TemplateShape } from './template-shape.js';

/**
 * Meta's synchronous judgement of a template send's `components` against the approved template
 * (reference §2.2–§2.5): the parameter count (132000), their format (132012), forbidden whitespace
 * (132018), missing required parameters (131008) and invalid values (131009). An accepted send
 * yields what the recipient reads and the header media Meta still has to fetch (judged later, §4).
 */

export type SendCheck =
  | { ok: true; rendered: Rendered; headerMedia: HeaderMedia | null }
  | { ok: false; code: 100 | 131008 | 131009 | 132000 | 132012 | 132018; details: string };

/** A media header's file as the send names it: by Meta media id or by link. */
export type HeaderMedia = { kind: MediaKind; link: string } | { kind: MediaKind; id: string };

type Refusal = Extract<SendCheck, { ok: false }>;

const refuse = (code: Refusal['code'], details: string): Refusal => ({ ok: false, code, details });
const refused = (value: unknown): value is Refusal => typeof value === 'object' && value !== null && 'ok' in value;

const parameter = z.looseObject({ type: z.string(), parameter_name: z.string().optional() });
type Parameter = z.infer<typeof parameter>;
const component = z.looseObject({
  type: z.string(),
  sub_type: z.string().optional(),
  index: z.union([z.string(), z.number()]).optional(),
  parameters: z.array(parameter).optional(),
});
type Component = z.infer<typeof component>;

/** Meta refuses a parameter with a newline, a tab or a run of more than four spaces (§2.4). */
const FORBIDDEN_WHITESPACE = /[\n\r\t]| {5,}/;
export const WHITESPACE_DETAILS = 'Param text cannot have new-line/tab characters or more than 4 consecutive spaces';

const LIMITS = { headerText: 60, bodyText: 1024, bodyOnlyText: 32768, code: 15, url: 2000 } as const;

/** Meta's sub_type for each kind of template button (§2.2). */
const SUB_TYPE: Record<ButtonShape['type'], string | null> = {
  URL: 'url',
  OTP: 'url',
  QUICK_REPLY: 'quick_reply',
  COPY_CODE: 'copy_code',
  OTHER: null,
};

export function checkTemplateSend(shape: TemplateShape, raw: readonly unknown[] | undefined): SendCheck {
  const parts = sortComponents(raw ?? []);
  if (refused(parts)) return parts;
  const header = checkHeader(shape, parts.header);
  if (refused(header)) return header;
  const body = checkBody(shape, parts.body);
  if (refused(body)) return body;
  const buttons = checkButtons(shape, parts.buttons);
  if (refused(buttons)) return buttons;
  const filled: FilledTemplate = { header: header.rendered, body, buttons };
  return { ok: true, rendered: renderTemplate(shape, filled), headerMedia: header.media };
}

interface SortedComponents {
  header: Component | undefined;
  body: Component | undefined;
  buttons: Array<{ component: Component; at: string }>;
}

function sortComponents(raw: readonly unknown[]): SortedComponents | Refusal {
  const sorted: SortedComponents = { header: undefined, body: undefined, buttons: [] };
  for (const [i, item] of raw.entries()) {
    const at = `template.components[${i}]`;
    const parsed = component.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return refuse(100, `Invalid parameter at ${[at, ...(issue?.path ?? [])].join('.')}: ${issue?.message ?? 'invalid'}`);
    }
    const c = parsed.data;
    const type = c.type.toLowerCase();
    if (type === 'header' || type === 'body') {
      if (sorted[type] !== undefined) return refuse(100, `${at}: a second ${type} component`);
      sorted[type] = c;
    } else if (type === 'button') {
      sorted.buttons.push({ component: c, at });
    } else if (type === 'limited_time_offer' || type === 'carousel') {
      return refuse(132012, `${type}: the template has no ${type} component`);
    } else {
      return refuse(100, `Invalid parameter at ${at}.type: unknown component type ${JSON.stringify(c.type)}`);
    }
  }
  return sorted;
}

const countMismatch = (where: string, got: number, expected: number): Refusal =>
  refuse(132000, `${where}: number of localizable_params (${got}) does not match the expected number of params (${expected})`);

const formatMismatch = (where: string, expected: string, received: string): Refusal =>
  refuse(132012, `${where}: Format mismatch, expected ${expected.toUpperCase()}, received ${received.toUpperCase()}`);

interface HeaderResult {
  rendered: string | null;
  media: HeaderMedia | null;
}

function checkHeader(shape: TemplateShape, sent: Component | undefined): HeaderResult | Refusal {
  const h = shape.header;
  const params = sent?.parameters ?? [];
  if (h === null) {
    return sent === undefined ? { rendered: null, media: null } : refuse(132012, 'header: the template has no header component');
  }
  switch (h.format) {
    case 'TEXT': {
      if (params.length !== h.placeholders.length) return countMismatch('header', params.length, h.placeholders.length);
      const values = textValues(shape, 'header', params, h.placeholders, LIMITS.headerText);
      return refused(values) ? values : { rendered: substitute(h.text, values), media: null };
    }
    case 'MEDIA': {
      if (sent === undefined) return refuse(131008, `header: the template's ${h.kind} header needs a parameter`);
      if (params.length !== 1) return countMismatch('header', params.length, 1);
      return mediaValue(h.kind, params[0]!);
    }
    case 'LOCATION': {
      if (sent === undefined) return refuse(131008, "header: the template's location header needs a parameter");
      if (params.length !== 1) return countMismatch('header', params.length, 1);
      const p = params[0]!;
      if (p.type !== 'location') return formatMismatch('header', 'location', p.type);
      const loc = LOCATION_PARAMETER.safeParse(p['location']);
      if (!loc.success || loc.data.latitude === undefined || loc.data.longitude === undefined) {
        return refuse(131008, 'header: the location parameter needs latitude and longitude');
      }
      const name = loc.data.name === undefined ? '' : ` ${loc.data.name}`;
      return { rendered: `[location ${String(loc.data.latitude)},${String(loc.data.longitude)}${name}]`, media: null };
    }
  }
}

// Built once: a schema built per call costs more than the check itself.
const LOCATION_PARAMETER = z.looseObject({ latitude: z.unknown(), longitude: z.unknown(), name: z.string().optional() });
const MEDIA_PARAMETER = z.looseObject({ id: z.union([z.string(), z.number()]).optional(), link: z.string().optional() });
const FALLBACK_PARAMETER = z.object({ fallback_value: z.string().min(1) });

function mediaValue(kind: MediaKind, p: Parameter): HeaderResult | Refusal {
  if (p.type !== kind) return formatMismatch('header', kind, p.type);
  const media = MEDIA_PARAMETER.safeParse(p[kind]);
  if (!media.success) return refuse(131008, `header: the ${kind} parameter needs an object with id or link`);
  const { id, link } = media.data;
  if (id !== undefined && link !== undefined) return refuse(131009, `header: the ${kind} parameter has both id and link; send one`);
  if (link !== undefined) return { rendered: `[${kind} ${link}]`, media: { kind, link } };
  if (id !== undefined && String(id) !== '') return { rendered: `[${kind} id ${String(id)}]`, media: { kind, id: String(id) } };
  return refuse(131008, `header: the ${kind} parameter needs id or link`);
}

function checkBody(shape: TemplateShape, sent: Component | undefined): Map<string, string> | Refusal {
  const params = sent?.parameters ?? [];
  const expected = shape.body.placeholders.length;
  if (params.length !== expected) return countMismatch('body', params.length, expected);
  const limit = shape.authentication ? LIMITS.code : shape.bodyOnly ? LIMITS.bodyOnlyText : LIMITS.bodyText;
  return textValues(shape, 'body', params, shape.body.placeholders, limit);
}

/**
 * The values of a header's or body's parameters by placeholder: positional ones by their order,
 * named ones by `parameter_name`, which a named template needs on each and a positional one forbids.
 */
function textValues(
  shape: TemplateShape,
  where: string,
  params: readonly Parameter[],
  placeholders: readonly string[],
  limit: number,
): Map<string, string> | Refusal {
  const map = new Map<string, string>();
  for (const [i, p] of params.entries()) {
    const at = `${where}: parameter ${i + 1}`;
    let placeholder: string;
    if (shape.parameterFormat === 'NAMED') {
      if (p.parameter_name === undefined) return refuse(132012, `${at} has no parameter_name; the template's parameters are named`);
      if (!placeholders.includes(p.parameter_name)) {
        return refuse(132012, `${at} names ${JSON.stringify(p.parameter_name)}, which is not a parameter of the ${where}`);
      }
      if (map.has(p.parameter_name)) return refuse(132012, `${at} names ${JSON.stringify(p.parameter_name)} a second time`);
      placeholder = p.parameter_name;
    } else {
      if (p.parameter_name !== undefined) return refuse(132012, `${at} has a parameter_name; the template's parameters are positional`);
      placeholder = placeholders[i]!;
    }
    const value = textOf(at, p, limit);
    if (refused(value)) return value;
    map.set(placeholder, value);
  }
  return map;
}

/** A text, currency or date_time parameter's value (the last two show their `fallback_value`). */
function textOf(at: string, p: Parameter, limit: number): string | Refusal {
  switch (p.type) {
    case 'text': {
      const text = p['text'];
      if (text === undefined || text === '') return refuse(131008, `${at}: text is required`);
      if (typeof text !== 'string') return refuse(131009, `${at}: text must be a string`);
      if (FORBIDDEN_WHITESPACE.test(text)) return refuse(132018, WHITESPACE_DETAILS);
      if (text.length > limit) return refuse(131009, `${at}: text is ${text.length} characters long, at most ${limit} allowed`);
      return text;
    }
    case 'currency':
    case 'date_time': {
      const fallback = FALLBACK_PARAMETER.safeParse(p[p.type]);
      if (!fallback.success) return refuse(131008, `${at}: ${p.type}.fallback_value is required`);
      return fallback.data.fallback_value;
    }
    default:
      return formatMismatch(at, 'text', p.type);
  }
}

function checkButtons(shape: TemplateShape, sent: SortedComponents['buttons']): Map<number, string> | Refusal {
  const values = new Map<number, string>();
  const seen = new Set<number>();
  for (const { component: c, at } of sent) {
    if (c.index === undefined) return refuse(131008, `${at}: a button component needs index`);
    const index = typeof c.index === 'number' ? c.index : /^\d+$/.test(c.index) ? Number(c.index) : NaN;
    const where = `buttons: button at index ${String(c.index)}`;
    if (!Number.isInteger(index) || index < 0) return refuse(131009, `${where}: index must be a button position (0, 1, …)`);
    const button = shape.buttons[index];
    if (button === undefined) return refuse(131009, `${where}: the template has ${shape.buttons.length} button(s)`);
    if (seen.has(index)) return refuse(131009, `${where}: a second component for the same button`);
    seen.add(index);
    if (c.sub_type === undefined) return refuse(131008, `${where}: sub_type is required`);
    const expected = SUB_TYPE[button.type] ?? (button.type === 'OTHER' ? button.metaType.toLowerCase() : '');
    if (c.sub_type.toLowerCase() !== expected) {
      return refuse(131009, `${where}: sub_type ${c.sub_type} does not match the template's ${metaTypeOf(button)} button`);
    }
    const value = buttonValue(shape, where, button, c.parameters ?? []);
    if (refused(value)) return value;
    if (value !== null) values.set(index, value);
  }
  for (const [index, button] of shape.buttons.entries()) {
    if (!seen.has(index) && needsParameter(button)) {
      return refuse(131008, `buttons: Button at index ${index} of type ${metaTypeOf(button)} requires a parameter`);
    }
  }
  return values;
}

function metaTypeOf(button: ButtonShape): string {
  return button.type === 'OTHER' ? button.metaType : button.type === 'OTP' ? 'URL' : button.type;
}

function needsParameter(button: ButtonShape): boolean {
  return (button.type === 'URL' && button.placeholder !== null) || button.type === 'OTP' || button.type === 'COPY_CODE';
}

/** The value a button's parameter carries (URL suffix, code, payload), null when it has none. */
function buttonValue(shape: TemplateShape, where: string, button: ButtonShape, params: readonly Parameter[]): string | null | Refusal {
  switch (button.type) {
    case 'URL': {
      const expected = button.placeholder === null ? 0 : 1;
      if (params.length !== expected) return countMismatch(where, params.length, expected);
      if (expected === 0) return null;
      const p = params[0]!;
      const named = shape.parameterFormat === 'NAMED';
      if (!named && p.parameter_name !== undefined) {
        return refuse(132012, `${where} has a parameter_name; the template's parameters are positional`);
      }
      // A named placeholder in the URL is filled by name; a numbered one in a named template needs none.
      if (named && !isPositional(button.placeholder!) && p.parameter_name !== button.placeholder) {
        return refuse(132012, `${where}: parameter_name must be ${JSON.stringify(button.placeholder)}`);
      }
      if (p.type !== 'text') return formatMismatch(where, 'text', p.type);
      const suffix = textOf(where, p, LIMITS.url);
      if (refused(suffix)) return suffix;
      const full = button.url.length - `{{${button.placeholder!}}}`.length + suffix.length;
      if (full > LIMITS.url) return refuse(131009, `${where}: the URL would be ${full} characters long, at most ${LIMITS.url} allowed`);
      return suffix;
    }
    case 'OTP':
      return codeValue(where, params, 'text');
    case 'COPY_CODE':
      return codeValue(where, params, 'coupon_code');
    case 'QUICK_REPLY': {
      // The payload is optional: without one, a tap comes back with the button's text.
      if (params.length > 1) return countMismatch(where, params.length, 1);
      const p = params[0];
      if (p === undefined) return null;
      if (p.type !== 'payload') return formatMismatch(where, 'payload', p.type);
      const payload = p['payload'];
      if (typeof payload !== 'string' || payload === '') return refuse(131008, `${where}: payload is required`);
      if (FORBIDDEN_WHITESPACE.test(payload)) return refuse(132018, WHITESPACE_DETAILS);
      return null;
    }
    case 'OTHER':
      return null;
  }
}

/** An authentication code (`text`) or an offer code (`coupon_code`): one parameter, at most 15 characters. */
function codeValue(where: string, params: readonly Parameter[], type: 'text' | 'coupon_code'): string | Refusal {
  if (params.length !== 1) return countMismatch(where, params.length, 1);
  const p = params[0]!;
  if (p.type !== type) return formatMismatch(where, type, p.type);
  const code = p[type];
  if (code === undefined || code === '') return refuse(131008, `${where}: ${type} is required`);
  if (typeof code !== 'string') return refuse(131009, `${where}: ${type} must be a string`);
  if (FORBIDDEN_WHITESPACE.test(code)) return refuse(132018, WHITESPACE_DETAILS);
  if (code.length > LIMITS.code)
    return refuse(131009, `${where}: ${type} is ${code.length} characters long, at most ${LIMITS.code} allowed`);
  return code;
}
