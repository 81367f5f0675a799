import type { CountryCode } from 'libphonenumber-js/max';
import type { Category } from '../core/category.js';
import type { JsonObject, JsonValue } from '../ports/store.js';
import type { ContactRecord } from './import-contact-records.js';
import { columnResolver, type ColumnResolver } from './import-columns.js';
import { describeValue as describe, hasNul, normaliseTags, NUL_REASON } from './contact-fields.js';
import { maskPhone, normalisePhone } from './normalise-phone.js';

export interface FieldError {
  /** The column or key at fault, or null for the row as a whole. */
  field: string | null;
  reason: string;
}

/** A refused row carries its phone number masked (or null), so reports can name the row without exposing it. */
export type RowCheck = { ok: true; record: ContactRecord } | { ok: false; errors: FieldError[]; phone: string | null };

const CONSENT_COLUMNS: ReadonlyArray<readonly [string, Category]> = [
  ['consent_marketing', 'marketing'],
  ['consent_utility', 'utility'],
];
const BY_NAME = columnResolver({});
const YES = new Set(['yes', 'y', 'true', '1']);
const NO = new Set(['no', 'n', 'false', '0']);

/**
 * One import row to a contact record: `phone` (required, normalised to E.164), `name`,
 * `consent_marketing` / `consent_utility` (yes/no and the usual spellings; empty means not stated),
 * `tags` (separated by `;`, or a JSON array); every other column becomes an attribute, but the errors
 * file's `pacer_error`. `resolve` says which column is which field (see `--map`). Every problem of
 * the row is listed, not only the first. Text with a NUL character is refused, on every backend: the
 * store would keep it only as U+FFFD, and an import's source can be fixed, unlike a webhook.
 */
export function checkContactRow(
  values: ReadonlyMap<string, JsonValue>,
  defaultCountry: CountryCode | null,
  resolve: ColumnResolver = BY_NAME,
): RowCheck {
  const errors: FieldError[] = [];
  const known = new Map<string, { column: string; value: JsonValue }>();
  const attributes: Array<[string, JsonValue]> = [];
  for (const [column, value] of values) {
    if (hasNul(column) || hasNul(value)) {
      errors.push({ field: column, reason: NUL_REASON });
      continue;
    }
    const field = resolve(column);
    if (field === 'ignored') continue;
    if (field !== null) {
      if (!known.has(field)) known.set(field, { column, value });
    } else {
      const v = typeof value === 'string' ? value.trim() : value;
      if (v !== '' && v !== null) attributes.push([column, v]);
    }
  }

  let phoneE164: string | null = null;
  const phone = known.get('phone');
  if (phone === undefined || phone.value === null || (typeof phone.value === 'string' && phone.value.trim() === '')) {
    errors.push({ field: 'phone', reason: 'missing phone number' });
  } else if (typeof phone.value !== 'string' && typeof phone.value !== 'number') {
    errors.push({ field: phone.column, reason: `must be text or a number, got ${describe(phone.value)}` });
  } else {
    const checked = normalisePhone(String(phone.value), defaultCountry);
    if (checked.ok) phoneE164 = checked.e164;
    else errors.push({ field: phone.column, reason: checked.reason });
  }

  const consent: Partial<Record<Category, boolean>> = {};
  for (const [key, category] of CONSENT_COLUMNS) {
    const entry = known.get(key);
    if (entry === undefined) continue;
    const parsed = parseConsent(entry.value);
    if (parsed === 'bad')
      errors.push({
        field: entry.column,
        reason: `${quote(entry.value)} is not a consent value: use yes or no (or true/false, 1/0, y/n), or leave it empty`,
      });
    else if (parsed !== undefined) consent[category] = parsed;
  }

  const nameEntry = known.get('name');
  let name: string | null = null;
  if (nameEntry !== undefined && nameEntry.value !== null) {
    if (typeof nameEntry.value === 'string') name = nameEntry.value.trim() || null;
    else errors.push({ field: nameEntry.column, reason: `must be text, got ${describe(nameEntry.value)}` });
  }

  const tagsEntry = known.get('tags');
  let tags: string[] = [];
  if (tagsEntry !== undefined && tagsEntry.value !== null) {
    const list =
      typeof tagsEntry.value === 'string'
        ? tagsEntry.value.split(';')
        : Array.isArray(tagsEntry.value) && tagsEntry.value.every((t) => typeof t === 'string')
          ? tagsEntry.value
          : null;
    if (list === null)
      errors.push({
        field: tagsEntry.column,
        reason: `must be text separated by ";" or a list of strings, got ${describe(tagsEntry.value)}`,
      });
    else tags = normaliseTags(list);
  }

  if (errors.length > 0 || phoneE164 === null) {
    const raw = phoneE164 ?? (typeof phone?.value === 'string' || typeof phone?.value === 'number' ? String(phone.value) : '');
    return { ok: false, errors, phone: /\d/.test(raw) ? maskPhone(raw) : null };
  }
  // fromEntries defines own properties, so a column named __proto__ stays a plain attribute.
  const attrs: JsonObject = Object.fromEntries(attributes);
  return { ok: true, record: { phoneE164, name, consent, tags, attributes: attrs } };
}

function parseConsent(value: JsonValue): boolean | undefined | 'bad' {
  if (value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : 'bad';
  if (typeof value !== 'string') return 'bad';
  const v = value.trim().toLowerCase();
  if (v === '') return undefined;
  return YES.has(v) ? true : NO.has(v) ? false : 'bad';
}

/** The offending value, short, for the report (consent values are not personal data, but may be long). */
function quote(value: JsonValue): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
