import type { ContactStore } from '../ports/store.js';
import type { FieldError } from './contact-row.js';
import type { ContactWrite } from './import-contact-records.js';

const KEYS = [
  ['phoneE164', 'phone'],
  ['waId', 'waId'],
  ['bsuid', 'bsuid'],
] as const;

/**
 * Why the database refused a record: most often its identifiers belong to two different contacts
 * (the phone to one, the business-scoped id to another), which one upsert cannot merge. Names each
 * field and whose it is; any other refusal is reported as the database gave it, as an import does.
 */
export async function explainRefusal(store: Pick<ContactStore, 'findContact'>, record: ContactWrite, error: Error): Promise<FieldError[]> {
  const owners: Array<{ field: string; id: number }> = [];
  for (const [key, field] of KEYS) {
    const value = record[key];
    if (value === undefined || value === null) continue;
    const found = await store.findContact(key === 'phoneE164' ? { phoneE164: value } : key === 'waId' ? { waId: value } : { bsuid: value });
    if (found !== null) owners.push({ field, id: found.id });
  }
  const ids = new Set(owners.map((o) => o.id));
  if (ids.size < 2) return [{ field: null, reason: `the database refused this row: ${error.message}` }];
  return owners.map(({ field, id }) => ({
    field,
    reason:
      `belongs to contact ${id}, while ${owners
        .filter((o) => o.id !== id)
        .map((o) => `${o.field} belongs to contact ${o.id}`)
        .join(' and ')}: ` + 'one contact cannot take an identifier another holds; send the identifiers of one contact only',
  }));
}
