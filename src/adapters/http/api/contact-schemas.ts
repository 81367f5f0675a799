import { z } from 'zod';
import { BSUID_PATTERN, WA_ID_PATTERN } from '../../../app/contact-input.js';
import { isCountryCode } from '../../../app/normalise-phone.js';
import { CATEGORIES, type Category } from '../../../core/category.js';
import { iso } from '../../../core/time.js';
import type { ConsentRecord, ConsentStore, Contact, JsonValue } from '../../../ports/store.js';
import { categorySchema, contactJson, contactSchema, isoTime } from './schemas.js';

/** Request and response shapes of the contact routes. Limits keep one row of a 10,000-row request small. */

/** How the API names the default country in a reason that asks for one. */
export const COUNTRY_PARAMETER = 'the default_country parameter';

export const consentSchema = z.object({
  category: categorySchema,
  status: z.enum(['granted', 'revoked', 'unknown']),
  source: z.string(),
  evidence: z.string().nullable(),
  at: isoTime,
});

export const consentJson = (r: ConsentRecord): z.output<typeof consentSchema> => ({
  category: r.category,
  status: r.status,
  source: r.source,
  evidence: r.evidence,
  at: iso(r.at),
});

export const contactDetailSchema = contactSchema.extend({ consent: z.partialRecord(categorySchema, consentSchema) });

/** A contact with its current consent per category: what GET /contacts/:id and every write answer. */
export async function contactDetail(
  store: Pick<ConsentStore, 'getConsent'>,
  contact: Contact,
): Promise<z.output<typeof contactDetailSchema>> {
  const consent = await store.getConsent(contact.id);
  return {
    ...contactJson(contact),
    consent: Object.fromEntries(CATEGORIES.flatMap((c) => (consent[c] ? [[c, consentJson(consent[c])]] : []))),
  };
}

const source = z.string().trim().min(1).max(200).describe('where the consent was given or withdrawn, e.g. checkout-form');
const evidence = z.string().max(2000).describe('what proves it, e.g. a form submission id');

/** A consent change for one category, as POST /contacts/:id/consent takes it. */
export const consentChangeBody = z.strictObject({
  category: categorySchema,
  status: z.enum(['granted', 'revoked']),
  source,
  evidence: evidence.optional(),
});

// A bare "yes" is the likely mistake: the answer shows the shape wanted instead of "expected object".
const consentStatement = z.strictObject(
  { status: z.enum(['granted', 'revoked']), source, evidence: evidence.optional() },
  {
    error: (issue) =>
      issue.code === 'invalid_type'
        ? `expected an object such as {"status": "granted", "source": "checkout-form"}, got ${JSON.stringify(issue.input)}`
        : undefined,
  },
);

/** Consent per category, each with its source and evidence; a category left out keeps what it has. */
const consentByCategory = z
  .strictObject(
    Object.fromEntries(CATEGORIES.map((c) => [c, consentStatement.optional()])) as Record<Category, z.ZodOptional<typeof consentStatement>>,
  )
  .describe('consent per category (marketing, utility, authentication, service), each with its source and evidence');

const tag = z.string().max(100);
const attributeName = z.string().min(1).max(100);
const MAX_ATTRIBUTES = 200;

/** Attributes as JSON values: a body is parsed JSON, so nothing else can arrive (and `z.json()` would put a `$ref` in the document). */
function attributes(description: string) {
  return z
    .record(attributeName, z.unknown().describe('any JSON value') as z.ZodType<JsonValue>)
    .refine((o) => Object.keys(o).length <= MAX_ATTRIBUTES, `at most ${MAX_ATTRIBUTES} attributes`)
    .describe(description);
}

/** One contact to create or update: at least one of phone, waId, bsuid (checked with the import's reasons). */
export const contactUpsertBody = z.strictObject({
  phone: z.string().max(64).optional().describe('any common format, normalised to E.164 as `pacer import` does'),
  waId: z
    .string()
    .regex(WA_ID_PATTERN, 'expected a wa_id: the phone number as digits')
    .optional()
    .describe("WhatsApp id (digits); default: the phone's digits"),
  bsuid: z
    .string()
    .regex(BSUID_PATTERN, 'expected a business-scoped user id such as US.13491208655302741918')
    .optional()
    .describe('business-scoped user id, for users known by username'),
  name: z.string().max(200).nullable().optional().describe('absent or null: the stored name stays'),
  attributes: attributes('merged key by key into the stored attributes').optional(),
  tags: z.array(tag).max(100).optional().describe('added to the stored tags'),
  consent: consentByCategory.optional(),
});

/** A change to one contact: what is absent stays as it is. */
export const contactPatchBody = z.strictObject({
  name: z.string().max(200).nullable().optional().describe('a name, or null to clear it'),
  attributes: attributes('merged key by key; a null value removes the key').optional(),
  tags: z
    .strictObject({ add: z.array(tag).max(100).optional(), remove: z.array(tag).max(100).optional() })
    .optional()
    .describe('tags to add and to remove (removal wins for a tag in both)'),
});

/** `?default_country=GB`: how numbers without a country code are read, as `pacer import --default-country`. */
export const defaultCountryQuery = z
  .string()
  .transform((s) => s.toUpperCase())
  .refine(isCountryCode, 'not a known two-letter country code (e.g. GB, US, IN)')
  .optional()
  .describe('ISO country of numbers written without a country code, e.g. GB');
