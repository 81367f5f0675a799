import type { CountryCode } from 'libphonenumber-js/max';
import type { Category } from '../core/category.js';
import type { JsonObject, JsonValue } from '../ports/store.js';
import { hasNul, normaliseTags, NUL_REASON } from './contact-fields.js';
import type { FieldError } from './contact-row.js';
import type { ConsentStatement, ContactWrite } from './import-contact-records.js';
import { normalisePhone } from './normalise-phone.js';

/** A wa_id as Meta writes it: the user's phone number as digits. */
export const WA_ID_PATTERN = /^\d{1,20}$/;
/** A business-scoped user id: country code, a dot, alphanumerics (`US.13491208655302741918`, parent `US.ENT.…`). */
export const BSUID_PATTERN = /^[A-Z]{2}(\.[A-Za-z0-9]{1,128}){1,2}$/;

/** Consent stated for one category: its source is required, its evidence optional. */
export interface ConsentInput {
  status: 'granted' | 'revoked';
  source: string;
  evidence?: string | null;
}

/** One contact as an API caller sends it, already of the right types (the edge parsed it). */
export interface ContactUpsertInput {
  /** Any common format, normalised to E.164 as an import does. */
  phone?: string;
  waId?: string;
  bsuid?: string;
  /** Absent or null: the stored name stays. */
  name?: string | null;
  /** Merged key by key into the stored attributes. */
  attributes?: JsonObject;
  /** Added to the stored tags. */
  tags?: readonly string[];
  consent?: Partial<Record<Category, ConsentInput>>;
}

export type ContactInputCheck = { ok: true; record: ContactWrite } | { ok: false; errors: FieldError[] };

/**
 * An API contact to the record the import writes, with the import's checks and reasons: the phone
 * number normalised the same way (`countryOption` names where the caller gives the default
 * country), text with a NUL refused, tags trimmed and deduplicated. Every problem is listed, each
 * with its field (`phone`, `attributes.city`, `consent.marketing.source`).
 */
export function checkContactInput(input: ContactUpsertInput, defaultCountry: CountryCode | null, countryOption: string): ContactInputCheck {
  const errors: FieldError[] = [];
  const nul = (field: string, value: JsonValue | undefined): boolean => {
    if (value === undefined || !hasNul(value)) return false;
    errors.push({ field, reason: NUL_REASON });
    return true;
  };
  if (input.phone === undefined && input.waId === undefined && input.bsuid === undefined) {
    errors.push({ field: null, reason: 'a contact needs phone, waId or bsuid (the business-scoped user id)' });
  }
  let phoneE164: string | null = null;
  if (input.phone !== undefined && !nul('phone', input.phone)) {
    const checked = normalisePhone(input.phone, defaultCountry, countryOption);
    if (checked.ok) phoneE164 = checked.e164;
    else errors.push({ field: 'phone', reason: checked.reason });
  }
  nul('name', input.name);
  for (const [key, value] of Object.entries(input.attributes ?? {})) {
    if (!nul(`attributes.${key}`, key)) nul(`attributes.${key}`, value);
  }
  (input.tags ?? []).forEach((tag, i) => nul(`tags.${i}`, tag));
  const consent: Partial<Record<Category, ConsentStatement>> = {};
  for (const [category, stated] of Object.entries(input.consent ?? {}) as Array<[Category, ConsentInput | undefined]>) {
    if (stated === undefined) continue;
    const bad = nul(`consent.${category}.source`, stated.source) || nul(`consent.${category}.evidence`, stated.evidence ?? undefined);
    if (!bad) consent[category] = { status: stated.status, source: stated.source.trim(), evidence: stated.evidence ?? null };
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    record: {
      phoneE164,
      // Without a wa_id given, the phone's digits stand for it (as an import does); without either, none.
      waId: input.waId ?? (phoneE164 === null ? null : phoneE164.slice(1)),
      bsuid: input.bsuid ?? null,
      name: input.name?.trim() || null,
      attributes: { ...input.attributes },
      tags: normaliseTags(input.tags ?? []),
      consent,
    },
  };
}
