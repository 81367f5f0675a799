import type { Category } from './category.js';
import type { TemplateStatus } from './decision.js';
import { extractPlaceholders, orderPlaceholders } from './template-placeholders.js';

/**
 * A message template as Meta defines it, in the terms a send needs: which parts take parameters,
 * in what order, and which buttons take a value (by their zero-based index).
 */
export type ParameterFormat = 'positional' | 'named';
export type TemplateCategory = Exclude<Category, 'service'>;
export const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION', 'GIF', 'PRODUCT'] as const;
export type HeaderFormat = (typeof HEADER_FORMATS)[number];

export interface TemplateHeader {
  format: HeaderFormat;
  /** TEXT headers only. */
  text: string | null;
  placeholders: string[];
}

export interface TemplateButton {
  /** Zero-based position in the template's buttons: a send's `index`. */
  index: number;
  /** Meta's type as given (`QUICK_REPLY`, `URL`, `PHONE_NUMBER`, `COPY_CODE`, `OTP`, `FLOW`, …). */
  type: string;
  text: string | null;
  url: string | null;
  /** The one dynamic suffix a URL may end with, e.g. `1` for `https://shop.example/p/{{1}}`. */
  urlPlaceholder: string | null;
  /** A one-time-password button: created as `OTP`, read back as a `URL` on authentication templates. */
  otp: boolean;
}

export interface TemplateDefinition {
  parameterFormat: ParameterFormat;
  subCategory: string | null;
  header: TemplateHeader | null;
  /** Authentication bodies have Meta's fixed text: `*{{1}}* is your verification code.` */
  body: { text: string | null; placeholders: string[] };
  footer: string | null;
  buttons: TemplateButton[];
  /** 0 when the template is no carousel. */
  carouselCards: number;
  limitedTimeOffer: { text: string | null; hasExpiration: boolean } | null;
  messageSendTtlSeconds: number | null;
}

/** What a template's components say; the rest of its definition sits beside them on the template object. */
export type TemplateContent = Omit<TemplateDefinition, 'subCategory' | 'messageSendTtlSeconds'>;

/** One template from `GET /{WABA_ID}/message_templates` or `GET /{TEMPLATE_ID}`. */
export interface MetaTemplate {
  metaId: string;
  name: string;
  language: string;
  category: TemplateCategory;
  /** Meta's status word, and what it means for sending. */
  metaStatus: string;
  status: TemplateStatus;
  quality: string | null;
  /** The components exactly as Meta gave them, kept so later steps need not fetch them again. */
  components: unknown[];
  definition: TemplateDefinition;
}

export type ParsedTemplate = { ok: true; template: MetaTemplate } | { ok: false; reason: string };

const CATEGORY: Record<string, TemplateCategory> = { MARKETING: 'marketing', UTILITY: 'utility', AUTHENTICATION: 'authentication' };

/** Meta's template statuses (§1.3) as the status `decide` reads: only APPROVED sends. */
const STATUS: Record<string, TemplateStatus> = {
  APPROVED: 'approved',
  PENDING: 'pending',
  IN_APPEAL: 'pending',
  PAUSED: 'paused',
  DISABLED: 'disabled',
  ARCHIVED: 'disabled',
  REJECTED: 'rejected',
  LIMIT_EXCEEDED: 'rejected',
  DELETED: 'deleted',
  PENDING_DELETION: 'deleted',
};

class Refusal extends Error {
  constructor(path: string, what: string) {
    super(`${path} ${what}`);
  }
}

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function obj(value: unknown, path: string): Obj {
  if (!isObj(value)) throw new Refusal(path, 'must be an object');
  return value;
}

function str(o: Obj, key: string, path: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') throw new Refusal(`${path}${key}`, `must be a non-empty string, got ${JSON.stringify(v)}`);
  return v;
}

function optStr(o: Obj, key: string, path: string): string | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new Refusal(`${path}${key}`, `must be a string, got ${JSON.stringify(v)}`);
  return v;
}

function placeholdersOf(text: string, format: ParameterFormat, path: string): string[] {
  const ordered = orderPlaceholders(extractPlaceholders(text), format);
  if (!ordered.ok) throw new Refusal(path, ordered.reason);
  return ordered.placeholders;
}

/**
 * Reads one of Meta's template objects. Anything a send would depend on that is missing or
 * malformed refuses the whole template, with the path of the first fault (`components[1].text …`).
 */
export function parseMetaTemplate(input: unknown): ParsedTemplate {
  try {
    return { ok: true, template: readTemplate(input) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message };
    throw error;
  }
}

/** Reads the components a sync stored (as Meta listed them), e.g. when a send fills in their parameters. */
export function parseTemplateComponents(
  components: unknown,
  format: ParameterFormat,
  category: TemplateCategory,
): { ok: true; content: TemplateContent } | { ok: false; reason: string } {
  try {
    if (!Array.isArray(components)) throw new Refusal('components', 'must be an array');
    return { ok: true, content: readComponents(components, format, category) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message };
    throw error;
  }
}

function readTemplate(input: unknown): MetaTemplate {
  const t = obj(input, '(template)');
  const metaId = typeof t['id'] === 'number' ? String(t['id']) : str(t, 'id', '');
  const name = str(t, 'name', '');
  const language = str(t, 'language', '');
  const categoryWord = str(t, 'category', '');
  const category = CATEGORY[categoryWord.toUpperCase()];
  if (category === undefined)
    throw new Refusal('category', `must be MARKETING, UTILITY or AUTHENTICATION, got ${JSON.stringify(categoryWord)}`);
  const metaStatus = str(t, 'status', '').toUpperCase();
  const formatWord = optStr(t, 'parameter_format', '') ?? 'POSITIONAL';
  if (formatWord.toUpperCase() !== 'POSITIONAL' && formatWord.toUpperCase() !== 'NAMED') {
    throw new Refusal('parameter_format', `must be POSITIONAL or NAMED, got ${JSON.stringify(formatWord)}`);
  }
  const parameterFormat: ParameterFormat = formatWord.toUpperCase() === 'NAMED' ? 'named' : 'positional';
  const quality = t['quality_score'] === undefined || t['quality_score'] === null ? null : readQuality(t['quality_score']);
  const ttl = t['message_send_ttl_seconds'];
  if (ttl !== undefined && ttl !== null && !Number.isInteger(ttl)) {
    throw new Refusal('message_send_ttl_seconds', `must be an integer, got ${JSON.stringify(ttl)}`);
  }
  const components = t['components'];
  if (!Array.isArray(components)) throw new Refusal('components', 'must be an array');
  const definition = readComponents(components, parameterFormat, category);
  return {
    metaId,
    name,
    language,
    category,
    metaStatus,
    status: STATUS[metaStatus] ?? 'unknown',
    quality,
    components,
    definition: { ...definition, subCategory: optStr(t, 'sub_category', ''), messageSendTtlSeconds: (ttl as number | undefined) ?? null },
  };
}

function readQuality(value: unknown): string | null {
  const q = obj(value, 'quality_score');
  const score = optStr(q, 'score', 'quality_score.');
  return score === null ? null : score.toUpperCase();
}

function readComponents(components: unknown[], format: ParameterFormat, category: TemplateCategory): TemplateContent {
  const out: TemplateContent = {
    parameterFormat: format,
    header: null,
    body: { text: null, placeholders: [] },
    footer: null,
    buttons: [],
    carouselCards: 0,
    limitedTimeOffer: null,
  };
  let sawBody = false;
  components.forEach((raw, i) => {
    const path = `components[${i}]`;
    const c = obj(raw, path);
    const type = str(c, 'type', `${path}.`).toUpperCase();
    switch (type) {
      case 'HEADER':
        out.header = readHeader(c, format, path);
        return;
      case 'BODY': {
        sawBody = true;
        const text = optStr(c, 'text', `${path}.`);
        if (text === null && category !== 'authentication') throw new Refusal(`${path}.text`, 'is missing');
        // Authentication bodies carry Meta's fixed text with the code as {{1}}.
        const placeholders =
          text === null ? ['1'] : placeholdersOf(text, category === 'authentication' ? 'positional' : format, `${path}.text`);
        out.body = { text, placeholders };
        return;
      }
      case 'FOOTER':
        out.footer = optStr(c, 'text', `${path}.`);
        return;
      case 'BUTTONS':
        out.buttons = readButtons(c, category, path);
        return;
      case 'CAROUSEL': {
        const cards = c['cards'];
        if (!Array.isArray(cards) || cards.length === 0) throw new Refusal(`${path}.cards`, 'must be a non-empty array');
        cards.forEach((card, j) => {
          if (!Array.isArray(obj(card, `${path}.cards[${j}]`)['components'])) {
            throw new Refusal(`${path}.cards[${j}].components`, 'must be an array');
          }
        });
        out.carouselCards = cards.length;
        return;
      }
      case 'LIMITED_TIME_OFFER': {
        const lto = obj(c['limited_time_offer'], `${path}.limited_time_offer`);
        out.limitedTimeOffer = {
          text: optStr(lto, 'text', `${path}.limited_time_offer.`),
          hasExpiration: lto['has_expiration'] === true,
        };
        return;
      }
      default:
        // A component type Meta adds later changes nothing a send of today needs.
        return;
    }
  });
  if (!sawBody) throw new Refusal('components', 'has no BODY');
  return out;
}

function readHeader(c: Obj, format: ParameterFormat, path: string): TemplateHeader {
  const word = str(c, 'format', `${path}.`).toUpperCase();
  const headerFormat = HEADER_FORMATS.find((f) => f === word);
  if (headerFormat === undefined)
    throw new Refusal(`${path}.format`, `must be one of ${HEADER_FORMATS.join(', ')}, got ${JSON.stringify(word)}`);
  if (headerFormat !== 'TEXT') return { format: headerFormat, text: null, placeholders: [] };
  const text = str(c, 'text', `${path}.`);
  const placeholders = placeholdersOf(text, format, `${path}.text`);
  if (placeholders.length > 1) throw new Refusal(`${path}.text`, `may hold one parameter, has ${placeholders.length}`);
  return { format: headerFormat, text, placeholders };
}

function readButtons(c: Obj, category: TemplateCategory, path: string): TemplateButton[] {
  const buttons = c['buttons'];
  if (!Array.isArray(buttons)) throw new Refusal(`${path}.buttons`, 'must be an array');
  return buttons.map((raw, index) => {
    const at = `${path}.buttons[${index}]`;
    const b = obj(raw, at);
    const type = str(b, 'type', `${at}.`).toUpperCase();
    const url = optStr(b, 'url', `${at}.`);
    return {
      index,
      type,
      text: optStr(b, 'text', `${at}.`),
      url,
      urlPlaceholder: url === null ? null : urlSuffix(url, `${at}.url`),
      otp: type === 'OTP' || (category === 'authentication' && type === 'URL'),
    };
  });
}

/** A URL takes at most one parameter, and only at its very end. */
function urlSuffix(url: string, path: string): string | null {
  const names = extractPlaceholders(url);
  if (names.length === 0) return null;
  if (names.length > 1 || !/\{\{\s*[^{}\s]+\s*\}\}$/.test(url)) throw new Refusal(path, 'may hold one parameter, only at its end');
  return names[0] as string;
}
