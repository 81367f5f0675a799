import { describe, expect, it } from 'vitest';
import { Dispatcher } from '../src/app/dispatcher.js';
import { importContactRecords } from '../src/app/import-contact-records.js';
import { EMPTY_CONTACT_STATE, type ContactState } from '../src/core/contact-state.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { reduceContact } from '../src/core/reduce-contact.js';
import type { SendResult } from '../src/ports/cloud-api.js';
import { VirtualClock } from '../src/ports/clock.js';
import type { Store } from '../src/ports/store.js';
import { accepted, ScriptedApi } from './scripted-cloud-api.js';
import { seedSenderAndTemplate } from './seed-sender.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
const NUMBER = '106540352242922';
const PEOPLE = 5;

/** Five contacts who accept marketing, a marketing template, the number, and one marketing row each, due now. */
async function seed(store: Store): Promise<number[]> {
  const { ids } = await importContactRecords(
    store,
    Array.from({ length: PEOPLE }, (_, i) => ({
      phoneE164: `+4479111234${String(i).padStart(2, '0')}`,
      name: `P${i}`,
      tags: [],
      attributes: {},
      consent: { marketing: true, utility: true },
    })),
    'test',
    DEFAULT_POLICY,
    T0,
  );
  const senderId = await seedSenderAndTemplate(store, NUMBER, { name: 'spring_sale', category: 'marketing' }, T0);
  const { inserted } = await store.insertOutbox(
    ids.map((contactId, i) => ({
      campaignId: null,
      contactId,
      senderId,
      category: 'marketing' as const,
      intent: { phoneNumberId: NUMBER, template: { name: 'spring_sale', language: 'en_US' } },
      idempotencyKey: `row-${i}`,
      nextAttemptAt: T0,
    })),
    T0,
  );
  if (inserted !== PEOPLE) throw new Error(`seed: ${inserted} rows inserted`);
  return ids;
}

const capped: SendResult = {
  kind: 'rejected',
  code: 131049,
  errorClass: 'per_user_marketing_cap',
  message: 'This message was not delivered to maintain healthy ecosystem engagement.',
  type: 'OAuthException',
  details: null,
  fbtraceId: null,
  isTransient: false,
  httpStatus: 400,
};

/** A contact-state save as the store saw it: one contact alone, or many in one statement. */
type StateSave = { one: number } | { many: number[] };

/** The store with its transactions' contact-state saves noted, in the order they were made. */
function noting(store: Store, saves: StateSave[]): Store {
  return {
    ...store,
    transaction: (work) =>
      store.transaction((tx) =>
        work({
          ...tx,
          saveContactState: (contactId, state, expected, now) => {
            saves.push({ one: contactId });
            return tx.saveContactState(contactId, state, expected, now);
          },
          saveContactStates: (many, now) => {
            saves.push({ many: many.map((s) => s.contactId) });
            return tx.saveContactStates(many, now);
          },
        }),
      ),
  };
}

describe.each(BACKENDS)('dispatcher: accepted marketing sends and their contacts’ states ($name)', (backend) => {
  it('saves a run of accepted sends’ states together, ends the run before any other answer, and stores what one at a time would', async () => {
    const store = await backend.open();
    const ids = await seed(store);
    const before = new Map<number, ContactState>();
    for (const id of ids) before.set(id, (await store.loadContactState(id))?.state ?? EMPTY_CONTACT_STATE);
    const versions = new Map<number, number>();
    for (const id of ids) versions.set(id, (await store.loadContactState(id))?.version ?? 0);
    const saves: StateSave[] = [];
    // The third send is capped; the others are accepted.
    const api = new ScriptedApi((_, n) => (n === 3 ? capped : accepted(n)));
    const d = new Dispatcher(
      { store: noting(store, saves), api, policy: DEFAULT_POLICY, clock: new VirtualClock(T0), random: () => 0.5 },
      { owner: 'states', phoneNumberId: NUMBER, mps: 80, leaseMs: 60_000, batchSize: 80 },
    );
    const result = await d.tick();
    expect(result).toMatchObject({ claimed: PEOPLE, sent: 4 });
    expect(api.requests).toHaveLength(PEOPLE);

    // Which contact each request went to, in order: the rows are claimed by id.
    const inOrder = await Promise.all(ids.map(async (_, i) => (await store.getOutbox(i + 1))!)); // a fresh store's rows
    const cappedContact = inOrder[2]!.contactId;
    // Two runs of accepted answers, the first saved before the capped answer is recorded, the second after it.
    expect(saves).toEqual([
      { many: [inOrder[0]!.contactId, inOrder[1]!.contactId] },
      { one: cappedContact },
      { many: [inOrder[3]!.contactId, inOrder[4]!.contactId] },
    ]);

    for (const [k, row] of inOrder.entries()) {
      const stored = await store.loadContactState(row.contactId);
      expect(stored?.version).toBe((versions.get(row.contactId) ?? 0) + 1);
      if (k === 2) {
        expect(stored?.state.marketing.coolOffUntil).toBeGreaterThan(T0);
        continue;
      }
      // What applying the one event to the state before would store.
      const expected = reduceContact(
        before.get(row.contactId)!,
        {
          type: 'send_accepted',
          id: `acc:${row.id}:${row.attempts - 1}`, // the attempts as the row was claimed
          at: T0,
          messageId: row.wamid!,
          category: 'marketing',
          path: 'cloud',
        },
        DEFAULT_POLICY,
      );
      expect(stored?.state).toEqual(expected);
      expect(stored?.state.marketing.recentSends).toEqual([{ messageId: row.wamid, at: T0 }]);
    }
  });
});
