import { describe, expect, it } from 'vitest';
import { applyContactEventsBatch } from '../src/app/apply-contact-events-batch.js';
import type { ConsentStatement, ContactWrite } from '../src/app/import-contact-records.js';
import { withEvents } from '../src/app/record-events.js';
import { applyContactEvents } from '../src/app/update-contact-state.js';
import { writeContactBatch } from '../src/app/write-contact-batch.js';
import type { Category } from '../src/core/category.js';
import type { ContactEvent } from '../src/core/contact-event.js';
import { EMPTY_CONTACT_STATE } from '../src/core/contact-state.js';
import type { NewOutboundEvent } from '../src/core/outbound-event.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const HOUR = 3_600_000;
const SOURCE = 'import:contacts.csv';
const SECRET = `whsec_${Buffer.from('import-batched-as-per-row-secret-0').toString('base64')}`;

function statementOf(stated: boolean | ConsentStatement): ConsentStatement {
  return typeof stated === 'boolean' ? { status: stated ? 'granted' : 'revoked', source: SOURCE, evidence: null } : stated;
}

/**
 * The per-contact way, one record at a time in its own transaction: upsert it, record each consent
 * that differs from the current one (history and current value), and apply the consent events to
 * its state one contact at a time.
 */
async function perRow(store: Store, records: readonly ContactWrite[], now: number): Promise<void> {
  for (const r of records) {
    await withEvents(store, now, async (tx, emit) => {
      const waId = r.phoneE164 === null ? null : r.phoneE164.slice(1);
      const [id = -1] = (
        await tx.upsertContacts([{ phoneE164: r.phoneE164, waId, bsuid: null, name: r.name, tags: r.tags, attributes: r.attributes }], now)
      ).ids;
      const known = await tx.getConsent(id);
      const events: ContactEvent[] = [];
      for (const [category, stated] of Object.entries(r.consent) as Array<[Category, boolean | ConsentStatement]>) {
        const c = statementOf(stated);
        if (known[category]?.status === c.status) continue;
        await tx.setConsent(id, { category, ...c, at: now }, now);
        known[category] = { contactId: id, category, ...c, at: now };
        events.push({ type: 'consent', id: `consent:${c.source}:${category}:${c.status}:${now}`, at: now, category, ...c });
      }
      if (events.length > 0) await applyContactEvents(tx, id, events, DEFAULT_POLICY, now, emit);
    });
  }
}

function contact(i: number, consent: ContactWrite['consent'], extra: Partial<ContactWrite> = {}): ContactWrite {
  return {
    phoneE164: `+4479110000${String(i).padStart(2, '0')}`,
    name: `P${i}`,
    consent,
    tags: [`t${i % 3}`],
    attributes: { n: i },
    ...extra,
  };
}

/**
 * An import, then a re-import with consent changed, withdrawn, restated and given with evidence, and
 * new contacts. The first batch is big enough for PostgreSQL to write its new contacts, their consent
 * and their states by COPY; the second changes known contacts, which goes by the upserts.
 */
const ROUNDS: Array<{ now: number; records: ContactWrite[] }> = [
  {
    now: T0,
    records: [
      ...Array.from({ length: 90 }, (_, i) =>
        contact(i, i % 4 === 0 ? {} : { marketing: i % 2 === 0, ...(i % 3 === 0 ? { utility: true } : {}) }),
      ),
      // The same contact twice in a batch: the second statement changes its consent again.
      contact(5, { marketing: false, utility: false }),
      contact(7, { marketing: true }),
    ],
  },
  {
    now: T0 + HOUR,
    records: [
      ...Array.from({ length: 100 }, (_, i) =>
        contact(
          i,
          i % 5 === 0 ? { marketing: true } : i % 5 === 1 ? { marketing: false, utility: true } : i % 5 === 2 ? {} : { utility: false },
          {
            tags: [`t${i % 3}`, 're'],
          },
        ),
      ),
      contact(3, { marketing: { status: 'granted', source: 'crm-sync', evidence: 'crm:3' } }),
    ],
  },
  { now: T0 + 2 * HOUR, records: reimportedAgain() },
];

/** The second file imported once more: nothing new. */
function reimportedAgain(): ContactWrite[] {
  return Array.from({ length: 100 }, (_, i) => contact(i, i % 5 === 0 ? { marketing: true } : {}, { tags: [`t${i % 3}`, 're'] }));
}

async function subscribe(store: Store): Promise<number> {
  const s = await store.createEventSubscription(
    { url: 'http://127.0.0.1:9/unused', secret: SECRET, eventTypes: ['*'], campaignId: null, phoneNumberId: null, description: null },
    0,
  );
  return s.id;
}

/** Everything an import leaves, keyed by phone number rather than by id. */
async function snapshot(store: Store, subscriptionId: number, phones: readonly string[]): Promise<unknown> {
  const phoneOf = new Map<number, string>();
  const contacts: Record<string, unknown> = {};
  for (const phone of phones) {
    const c = await store.findContact({ phoneE164: phone });
    if (c === null) continue;
    phoneOf.set(c.id, phone);
    const stored = await store.loadContactState(c.id);
    contacts[phone] = {
      contact: { waId: c.waId, name: c.name, attributes: c.attributes, tags: c.tags, updatedAt: c.updatedAt },
      history: (await store.consentHistory(c.id)).map(({ contactId: _, ...r }) => r),
      current: Object.fromEntries(Object.entries(await store.getConsent(c.id)).map(([k, { contactId: _, ...r }]) => [k, r])),
      state: stored,
    };
  }
  const events: unknown[] = [];
  for (const d of await store.listEventDeliveries({ subscriptionId, afterId: 0, limit: 1000 })) {
    const e = await store.getOutboundEvent(d.eventId);
    if (e === null) continue;
    events.push({ type: e.type, phone: phoneOf.get(e.contactId ?? -1), occurredAt: e.occurredAt, data: { ...e.data, contactId: null } });
  }
  return { contacts, events };
}

describe.each(BACKENDS)('a batch written as the per-contact way writes it ($name)', (backend) => {
  it('leaves the same contacts, consent history, current consent, states and subscriber events, re-imports included', async () => {
    const batched = await backend.open();
    const single = await backend.open();
    const subs = [await subscribe(batched), await subscribe(single)] as const;
    for (const { now, records } of ROUNDS) {
      const writes = await writeContactBatch(batched, records, SOURCE, DEFAULT_POLICY, now);
      expect(writes.every((w) => w.ok)).toBe(true);
      await perRow(single, records, now);
    }
    const phones = [...new Set(ROUNDS.flatMap((r) => r.records.map((c) => c.phoneE164!)))];
    const expected = await snapshot(single, subs[1], phones);
    expect(await snapshot(batched, subs[0], phones)).toEqual(expected);
    // Not vacuous: consent was changed, restated and withdrawn, and states were saved more than once.
    const seen = JSON.stringify(expected);
    expect(seen).toContain('"version":3');
    expect(seen).toContain('contact.consent_changed');
    expect(seen).toContain('crm:3');
  });

  it('re-applies, the per-contact way, a contact whose state another writer saved in between', async () => {
    const store = await backend.open();
    const [id = -1, other = -1] = (await store.upsertContacts([{ waId: '447911000001' }, { waId: '447911000002' }], T0)).ids;
    await store.saveContactState(id, EMPTY_CONTACT_STATE, 0, T0);
    // Another writer (an inbound message, say) saves the first contact between the load and the save.
    const racing: Store = {
      ...store,
      saveContactStates: async (saves, now) => {
        await store.saveContactState(id, { ...EMPTY_CONTACT_STATE, lastInboundAt: T0 + 5 }, 1, T0 + 5);
        return store.saveContactStates(saves, now);
      },
    };
    const consent = (category: Category): ContactEvent => ({
      type: 'consent',
      id: `consent:${SOURCE}:${category}:granted:${T0 + 10}`,
      at: T0 + 10,
      category,
      status: 'granted',
      source: SOURCE,
      evidence: null,
    });
    const emitted: NewOutboundEvent[] = [];
    await applyContactEventsBatch(
      racing,
      [
        [id, [consent('marketing')]],
        [other, [consent('utility')]],
      ],
      DEFAULT_POLICY,
      T0 + 10,
      (e) => emitted.push(e),
    );
    const raced = await store.loadContactState(id);
    expect(raced?.version).toBe(3);
    expect(raced?.state.lastInboundAt).toBe(T0 + 5);
    expect(raced?.state.consent.marketing.status).toBe('granted');
    expect((await store.loadContactState(other))?.state.consent.utility.status).toBe('granted');
    expect(emitted.map((e) => [e.type, e.contactId]).sort()).toEqual(
      [
        ['contact.consent_changed', id],
        ['contact.consent_changed', other],
      ].sort(),
    );
  });
});
