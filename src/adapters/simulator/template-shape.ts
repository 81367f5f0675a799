import type { JsonValue } from '../../ports/json.js';
import type { SimTemplateConfig } from './config.js';

/**
 * A simulator template read the way Meta reads its own approved template at send time: which header
 * it has, which placeholders its header, body and buttons carry, and what each button needs. It is
 * read from the config's `components` (Meta's shape, as the template API lists them), on its own,
 * so the simulator judges sends without borrowing Pacer's reading of templates.
 */

export type MediaKind = 'image' | 'video' | 'document';

export type HeaderShape =
  { format: 'TEXT'; text: string; placeholders: string[] } | { format: 'MEDIA'; kind: MediaKind } | { format: 'LOCATION' };

export type ButtonShape =
  | { type: 'URL'; text: string; url: string; placeholder: string | null }
  /** An authentication template's code button: created as `OTP`, listed as `URL`; its parameter is the code. */
  | { type: 'OTP'; text: string; url: string | null }
  | { type: 'QUICK_REPLY'; text: string }
  | { type: 'COPY_CODE'; text: string }
  | { type: 'OTHER'; metaType: string; text: string };

export interface TemplateShape {
  parameterFormat: 'POSITIONAL' | 'NAMED';
  authentication: boolean;
  header: HeaderShape | null;
  body: { text: string; placeholders: string[] };
  footer: string | null;
  buttons: ButtonShape[];
  /** The body is the template's only component (Meta then allows longer body parameters). */
  bodyOnly: boolean;
}

/** Meta's fixed text for an authentication body; the template carries no text of its own. */
export const AUTHENTICATION_BODY = '*{{1}}* is your verification code.';

/** The components of a template configured without any: one plain body, no placeholders. */
export function componentsOf(config: SimTemplateConfig): JsonValue[] {
  return config.components ?? [{ type: 'BODY', text: `A message from the ${config.name.replace(/_/g, ' ')} template.` }];
}

const PLACEHOLDER = /\{\{\s*([a-z0-9_]+)\s*\}\}/g;

/**
 * The distinct placeholders of a text: for a positional text `1`, `2`, … in number order (a value
 * fills `{{i}}` by its position), for a named one the names in order of first appearance.
 */
export function placeholdersOf(text: string): string[] {
  const found = [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ''))];
  return found.every((p) => /^\d+$/.test(p)) ? found.sort((a, b) => Number(a) - Number(b)) : found;
}

export function isPositional(placeholder: string): boolean {
  return /^\d+$/.test(placeholder);
}

/** `text` with each placeholder replaced by its value (a placeholder without one stays as written). */
export function substitute(text: string, values: ReadonlyMap<string, string>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => values.get(name) ?? whole);
}

type JsonObject = { [key: string]: JsonValue };

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOf(value: JsonValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

const shapes = new WeakMap<SimTemplateConfig, { key: readonly unknown[]; shape: TemplateShape }>();

/** The shape of a template as configured now (an edit or a new category reads it again). */
export function shapeOf(config: SimTemplateConfig): TemplateShape {
  const key = [config.components, config.category, config.parameterFormat, config.name];
  const cached = shapes.get(config);
  if (cached !== undefined && cached.key.every((k, i) => k === key[i])) return cached.shape;
  const shape = templateShape(config);
  shapes.set(config, { key, shape });
  return shape;
}

export function templateShape(config: SimTemplateConfig): TemplateShape {
  const components = componentsOf(config).filter(isObject);
  const byType = (type: string): JsonObject | undefined => components.find((c) => stringOf(c['type'])?.toUpperCase() === type);
  const authentication = config.category === 'AUTHENTICATION';
  const headerComponent = byType('HEADER');
  const bodyComponent = byType('BODY');
  const bodyText = stringOf(bodyComponent?.['text']) ?? (authentication ? AUTHENTICATION_BODY : '');
  const buttons = byType('BUTTONS')?.['buttons'];
  return {
    parameterFormat: config.parameterFormat ?? 'POSITIONAL',
    authentication,
    header: headerComponent === undefined ? null : headerShape(headerComponent),
    body: { text: bodyText, placeholders: placeholdersOf(bodyText) },
    footer: stringOf(byType('FOOTER')?.['text']),
    buttons: Array.isArray(buttons) ? buttons.filter(isObject).map((b) => buttonShape(b, authentication)) : [],
    bodyOnly: components.length === 1 && bodyComponent !== undefined,
  };
}

function headerShape(c: JsonObject): HeaderShape {
  const format = stringOf(c['format'])?.toUpperCase() ?? 'TEXT';
  switch (format) {
    case 'IMAGE':
    case 'VIDEO':
    case 'DOCUMENT':
      return { format: 'MEDIA', kind: format.toLowerCase() as MediaKind };
    case 'LOCATION':
      return { format: 'LOCATION' };
    default: {
      const text = stringOf(c['text']) ?? '';
      return { format: 'TEXT', text, placeholders: placeholdersOf(text) };
    }
  }
}

function buttonShape(b: JsonObject, authentication: boolean): ButtonShape {
  const type = stringOf(b['type'])?.toUpperCase() ?? '';
  const text = stringOf(b['text']) ?? '';
  const url = stringOf(b['url']);
  if (type === 'OTP' || (authentication && type === 'URL')) return { type: 'OTP', text: text || 'Copy code', url };
  switch (type) {
    case 'URL':
      return { type: 'URL', text, url: url ?? '', placeholder: placeholdersOf(url ?? '')[0] ?? null };
    case 'QUICK_REPLY':
      return { type: 'QUICK_REPLY', text };
    case 'COPY_CODE':
      // WhatsApp labels the button itself; the template gives only an example code.
      return { type: 'COPY_CODE', text: text || 'Copy offer code' };
    default:
      return { type: 'OTHER', metaType: type, text };
  }
}
