import type { Category } from '../core/category.js';
import type { ContactEvent } from '../core/contact-event.js';
import type { EmitEvent } from '../core/outbound-event.js';
import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import type { ConsentEntry, ConsentStore, ContactStateStore, ContactStore, JsonObject, Store } from '../ports/store.js';
import { withEvents } from './record-events.js';
import { applyContactEvents } from './update-contact-state.js';

/** One validated contact, phone already in E.164. */
export interface ContactRecord {
  phoneE164: string;
  name: string | null;
  consent: Partial<Record<Category, boolean>>;
  tags: readonly string[];
  attributes: JsonObject;
}

/**
 * Upserts contacts and records their consent (history and contact state) in batches. Idempotent:
 * importing the same file twice changes nothing the second time: a consent already current is not recorded again.
 */
export function importContactRecords(
  store: Pick<Store, 'transaction'>,
  records: readonly ContactRecord[],
  source: string,
  policy: Policy,
  now: Millis,
): Promise<{ ids: number[]; created: number; updated: number }> {
  // One transaction per batch: a batch lands whole or not at all, and commits are few.
  return withEvents(store, now, (tx, emit) => importBatch(tx, records, source, policy, now, emit));
}

async function importBatch(
  store: ContactStore & ConsentStore & ContactStateStore,
  records: readonly ContactRecord[],
  source: string,
  policy: Policy,
  now: Millis,
  emit: EmitEvent,
): Promise<{ ids: number[]; created: number; updated: number }> {
  const { ids, created, updated } = await store.upsertContacts(
    records.map((r) => ({
      phoneE164: r.phoneE164,
      waId: r.phoneE164.replace(/^\+/, ''),
      name: r.name,
      tags: r.tags,
      attributes: r.attributes,
    })),
    now,
  );
  const consents: ConsentEntry[] = [];
  const eventsOf: Array<[number, ContactEvent[]]> = [];
  // A file imported again states what is already recorded: that is no new consent event.
  const current = await store.currentConsents(ids);
  for (const [i, record] of records.entries()) {
    const contactId = ids[i];
    if (contactId === undefined) continue;
    const events: ContactEvent[] = [];
    for (const [category, granted] of Object.entries(record.consent) as [Category, boolean | undefined][]) {
      if (granted === undefined) continue;
      const status = granted ? 'granted' : 'revoked';
      if (current.get(contactId)?.[category] === status) continue;
      consents.push({ contactId, consent: { category, status, source, evidence: null, at: now } });
      events.push({
        type: 'consent',
        id: `consent:${source}:${category}:${status}:${now}`,
        at: now,
        category,
        status,
        source,
        evidence: null,
      });
    }
    if (events.length > 0) eventsOf.push([contactId, events]);
  }
  // The whole batch's consent history and current values in a few statements; states one by one.
  await store.setConsents(consents, now);
  for (const [contactId, events] of eventsOf) await applyContactEvents(store, contactId, events, policy, now, emit);
  return { ids, created, updated };
}
