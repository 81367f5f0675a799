import type { CountryCode } from 'libphonenumber-js/max';
import { z } from 'zod';
import { BSUID_PATTERN, WA_ID_PATTERN } from '../../../app/contact-input.js';
import { findContacts } from '../../../app/find-contacts.js';
import type { Contact, ContactStore } from '../../../ports/store.js';
import { ApiError } from './api-error.js';
import { COUNTRY_PARAMETER, defaultCountryQuery } from './contact-schemas.js';
import { contactJson, pageQuery, paginate, type contactSchema } from './schemas.js';

/** Contacts one tag-filtered page looks at, at most: a rare tag costs a bounded read per request. */
export const TAG_SCAN_CONTACTS = 10_000;

export const contactListQuery = pageQuery.extend({
  phone: z.string().min(1).max(64).optional().describe('the contact with this phone number (any common format, normalised as import does)'),
  wa_id: z.string().regex(WA_ID_PATTERN, 'expected a wa_id: the phone number as digits').optional().describe('the contact with this wa_id'),
  bsuid: z
    .string()
    .regex(BSUID_PATTERN, 'expected a business-scoped user id such as US.13491208655302741918')
    .optional()
    .describe('the contact with this business-scoped user id'),
  tag: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe(
      `contacts holding this tag; a page looks at ${TAG_SCAN_CONTACTS} contacts at most, so it may be short while next is not null`,
    ),
  default_country: defaultCountryQuery,
});

type Page = { items: Array<z.output<typeof contactSchema>>; next: string | null };

/**
 * A page of contacts: all of them by id; the ones matching every identifier given (a phone number
 * normalised as an import does; a number that is none is a 400 naming `phone`); or, by tag alone,
 * the ones holding it.
 */
export async function listContacts(
  store: Pick<ContactStore, 'findContact' | 'listContacts' | 'listContactsWithTag'>,
  query: z.output<typeof contactListQuery>,
): Promise<Page> {
  const after = query.after === undefined ? 0 : Number(query.after);
  const { phone, wa_id: waId, bsuid, tag } = query;
  if (phone !== undefined || waId !== undefined || bsuid !== undefined) {
    const found = await findContacts(
      store,
      { phone, waId, bsuid },
      (query.default_country ?? null) as CountryCode | null,
      COUNTRY_PARAMETER,
    );
    if (!found.ok) {
      const issues = found.errors.map((e) => ({ path: e.field ?? '(root)', message: e.reason }));
      throw new ApiError(
        400,
        'invalid_query',
        `the request query is not valid: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
        issues,
      );
    }
    const matches = found.contacts.filter((c) => c.id > after && (tag === undefined || c.tags.includes(tag)));
    return pageOf(matches, query.limit);
  }
  if (tag !== undefined) {
    const tagged = await store.listContactsWithTag(tag, after, query.limit, TAG_SCAN_CONTACTS);
    return { items: tagged.contacts.map(contactJson), next: tagged.next === null ? null : String(tagged.next) };
  }
  return paginate(query.limit, query.after, (from, n) => store.listContacts(from, n), contactJson);
}

function pageOf(contacts: readonly Contact[], limit: number): Page {
  const items = contacts.slice(0, limit);
  const last = items[items.length - 1];
  return { items: items.map(contactJson), next: contacts.length > limit && last !== undefined ? String(last.id) : null };
}
