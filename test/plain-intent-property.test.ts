import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCampaign } from '../src/app/create-campaign.js';
import { importContactRecords } from '../src/app/import-contact-records.js';
import { startCampaign } from '../src/app/start-campaign.js';
import { templateShape } from '../src/app/template-mapping.js';
import { NO_DISPATCHER_HERE } from '../src/app/work-signal.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { valueFreezer } from '../src/core/template-parameters.js';
import type { JsonObject, JsonValue, Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';

// A campaign start writes the rows of contacts with plain values in SQL (plain-intent.ts) and the
// others in JavaScript; every row must hold what the JavaScript freezer gives for its contact.
const T0 = Date.UTC(2026, 5, 1, 9);
const PN = 'pn-plain';
const COMPONENTS: JsonValue[] = [
  { type: 'HEADER', format: 'TEXT', text: 'For {{1}}' },
  { type: 'BODY', text: 'Hi {{1}}, your {{2}} coupon is waiting.' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'URL', text: 'Shop', url: 'https://shop.example/c/{{1}}' },
      { type: 'QUICK_REPLY', text: 'Stop promotions' },
    ],
  },
];
const MAPPING = {
  'header.1': { value: 'you' },
  'body.1': { attribute: 'first_name', fallback: 'there' },
  'body.2': { attribute: 'coupon' },
  'button.0': { attribute: 'coupon' },
};

const value: fc.Arbitrary<JsonValue | undefined> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'Ada',
      'SAVE-10',
      'a.b_c~d',
      'Zoë',
      'two words',
      ' padded',
      'tab\there',
      'x'.repeat(61),
      'x'.repeat(1025),
      '',
      '%41',
      'a/b',
    ),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z0-9_.~-]{1,6}$/) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.constant({ nested: 'x' })) },
);

async function seedTemplate(store: Store): Promise<void> {
  await store.upsertSyncedTemplates(
    [
      {
        name: 'plain_drop',
        language: 'en_US',
        category: 'marketing',
        status: 'approved',
        quality: 'GREEN',
        pausedUntil: null,
        metaId: '9002',
        subCategory: null,
        parameterFormat: 'positional',
        components: COMPONENTS,
      },
    ],
    T0,
  );
}

/** Every outbox row of a fresh store (ids from 1), by contact. */
async function intentsByContact(store: Store, campaignId: number): Promise<Map<number, JsonObject>> {
  const out = new Map<number, JsonObject>();
  for (let id = 1, misses = 0; misses < 50; id += 1) {
    const row = await store.getOutbox(id);
    if (row === null) misses += 1;
    else if (row.campaignId === campaignId) out.set(row.contactId, row.intent);
  }
  return out;
}

describe.each(BACKENDS)('plain intents written in SQL ($name)', (backend) => {
  it('hold exactly what the JavaScript freezer gives, for every contact', async () => {
    const store = await backend.open();
    await seedTemplate(store);
    const template = await store.getTemplate('plain_drop', 'en_US');
    if (template === null) throw new Error('no template');
    const shape = templateShape(template);
    if (shape.kind !== 'known') throw new Error('template shape unknown');
    const freeze = valueFreezer(shape.definition, shape.category, MAPPING, { stopButtons: DEFAULT_POLICY.stopButtons });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ first_name: value, coupon: value }), { minLength: 1, maxLength: 8 }), async (people) => {
        run += 1;
        const tag = `run${run}`;
        const attributes = people.map((p) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as JsonObject);
        const { ids } = await importContactRecords(
          store,
          attributes.map((a, i) => ({
            phoneE164: `+4477009${String(run).padStart(3, '0')}${String(i).padStart(2, '0')}`,
            name: null,
            tags: [tag],
            attributes: a,
            consent: { marketing: true },
          })),
          'test',
          DEFAULT_POLICY,
          T0,
        );
        const created = await createCampaign(
          store,
          {
            name: tag,
            template: { name: 'plain_drop', language: 'en_US' },
            sender: { phoneNumberId: PN },
            segment: { tagsAll: [tag] },
            parameters: MAPPING,
          },
          T0,
        );
        if (!created.ok) throw new Error(JSON.stringify(created));
        const started = await startCampaign(store, created.campaign.id, { phoneNumberId: PN }, T0, NO_DISPATCHER_HERE);
        expect(started.inserted).toBe(people.length);
        const rows = await intentsByContact(store, created.campaign.id);
        ids.forEach((contactId, i) => {
          const base = { phoneNumberId: PN, template: { name: 'plain_drop', language: 'en_US' } };
          const r = freeze({ name: null, attributes: attributes[i] ?? {} });
          const expected = r.ok
            ? { ...base, template: { ...base.template, values: r.values } }
            : { ...base, parameterProblem: { reason: r.reason, detail: r.detail } };
          expect(rows.get(contactId)).toEqual(expected);
        });
      }),
      { numRuns: 20 },
    );
  }, 120_000);
});
