import type { Category } from '../core/category.js';
import type { ConsentStatus, ContactEvent } from '../core/contact-event.js';
import type { EmitEvent } from '../core/outbound-event.js';
import type { Policy } from '../core/policy.js';
import type { Millis } from '../core/time.js';
import type { ConsentEntry, ConsentStore, ContactStateStore, ContactStore, JsonObject, Store, UpsertOutcome } from '../ports/store.js';
import { withEvents } from './record-events.js';
import { applyContactEventsBatch } from './apply-contact-events-batch.js';

/** Consent as a caller states it: its own source and evidence, or (a boolean) the batch's source and none. */
export interface ConsentStatement {
  status: 'granted' | 'revoked';
  source: string;
  evidence: string | null;
}

/** One validated contact to write: at least one identifier, the phone already in E.164. */
export interface ContactWrite {
  phoneE164: string | null;
  /** Absent: the phone's digits, as Meta names the user. */
  waId?: string | null;
  bsuid?: string | null;
  name: string | null;
  consent: Partial<Record<Category, boolean | ConsentStatement>>;
  tags: readonly string[];
  attributes: JsonObject;
}

/** One validated import row: always a phone number, consent as yes/no. */
export interface ContactRecord extends ContactWrite {
  phoneE164: string;
  consent: Partial<Record<Category, boolean>>;
}

export interface ContactRecordsResult {
  ids: number[];
  created: number;
  updated: number;
  /** Per record: `updated` when a field or a consent changed, `unchanged` when the record stated only what was stored. */
  outcomes: UpsertOutcome[];
}

/**
 * Upserts contacts and records their consent (history and contact state) in batches. Idempotent:
 * importing the same file twice changes nothing the second time: a consent already current is not recorded again.
 */
export function importContactRecords(
  store: Pick<Store, 'transaction'>,
  records: readonly ContactWrite[],
  source: string,
  policy: Policy,
  now: Millis,
): Promise<ContactRecordsResult> {
  // One transaction per batch: a batch lands whole or not at all, and commits are few.
  return withEvents(store, now, (tx, emit) => importBatch(tx, records, source, policy, now, emit));
}

function statementOf(stated: boolean | ConsentStatement, source: string): ConsentStatement {
  return typeof stated === 'boolean' ? { status: stated ? 'granted' : 'revoked', source, evidence: null } : stated;
}

async function importBatch(
  store: ContactStore & ConsentStore & ContactStateStore,
  records: readonly ContactWrite[],
  source: string,
  policy: Policy,
  now: Millis,
  emit: EmitEvent,
): Promise<ContactRecordsResult> {
  const { ids, created, updated, outcomes } = await store.upsertContacts(
    records.map((r) => ({
      phoneE164: r.phoneE164,
      waId: r.waId !== undefined ? r.waId : r.phoneE164 === null ? null : r.phoneE164.replace(/^\+/, ''),
      bsuid: r.bsuid ?? null,
      name: r.name,
      tags: r.tags,
      attributes: r.attributes,
    })),
    now,
  );
  const consents: ConsentEntry[] = [];
  const eventsOf: Array<[number, ContactEvent[]]> = [];
  // Contacts created just now have no consent and no state yet (contacts are never deleted, so an id is never reused).
  const fresh = new Set(ids.filter((_, i) => outcomes[i] === 'created'));
  const existing = ids.filter((id) => !fresh.has(id));
  // A file imported again states what is already recorded: that is no new consent event.
  const current =
    existing.length === 0 ? new Map<number, Partial<Record<Category, ConsentStatus>>>() : await store.currentConsents(existing);
  for (const [i, record] of records.entries()) {
    const contactId = ids[i];
    if (contactId === undefined) continue;
    const events: ContactEvent[] = [];
    for (const [category, stated] of Object.entries(record.consent) as [Category, boolean | ConsentStatement | undefined][]) {
      if (stated === undefined) continue;
      const consent = statementOf(stated, source);
      const known = current.get(contactId) ?? {};
      if (known[category] === consent.status) continue;
      // The same contact twice in a batch: its second statement of the same consent is no change either.
      current.set(contactId, { ...known, [category]: consent.status });
      consents.push({ contactId, consent: { category, ...consent, at: now } });
      events.push({ type: 'consent', id: `consent:${consent.source}:${category}:${consent.status}:${now}`, at: now, category, ...consent });
    }
    if (events.length > 0) {
      eventsOf.push([contactId, events]);
      if (outcomes[i] === 'unchanged') outcomes[i] = 'updated';
    }
  }
  // The whole batch's consent history, current values and states in a few statements.
  await store.setConsents(consents, now, fresh);
  await applyContactEventsBatch(store, eventsOf, policy, now, emit, fresh);
  return { ids, created, updated, outcomes };
}
