import { describe, expect, it } from 'vitest';
import { createCampaign } from '../src/app/create-campaign.js';
import { Dispatcher } from '../src/app/dispatcher.js';
import { importContactRecords } from '../src/app/import-contact-records.js';
import { startCampaign } from '../src/app/start-campaign.js';
import { NO_DISPATCHER_HERE } from '../src/app/work-signal.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { VirtualClock } from '../src/ports/clock.js';
import type { CloudApi, TemplateSend } from '../src/ports/cloud-api.js';
import { accepted, ScriptedApi } from './scripted-cloud-api.js';
import type { JsonObject, JsonValue, Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 5, 1, 9);
const PN = 'pn-personal';

const COMPONENTS: JsonValue[] = [
  { type: 'BODY', text: 'Hi {{1}}, your {{2}} coupon is waiting.' },
  { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Shop', url: 'https://shop.example/c/{{1}}' }] },
];

const MAPPING = {
  'body.1': { attribute: 'first_name' },
  'body.2': { attribute: 'coupon' },
  'button.0': { attribute: 'coupon' },
};

const PEOPLE: Array<{ phone: string; attributes: JsonObject }> = [
  { phone: '+447700900101', attributes: { first_name: 'Ada', coupon: 'ADA15' } },
  { phone: '+447700900102', attributes: { first_name: 'Bob', coupon: 'BOB10' } },
  { phone: '+447700900103', attributes: { coupon: 'CY5' } }, // no first name
];

async function seed(store: Store): Promise<{ campaignId: number; contactIds: number[] }> {
  await store.upsertSyncedTemplates(
    [
      {
        name: 'coupon_drop',
        language: 'en_US',
        category: 'marketing',
        status: 'approved',
        quality: 'GREEN',
        pausedUntil: null,
        metaId: '9001',
        subCategory: null,
        parameterFormat: 'positional',
        components: COMPONENTS,
      },
    ],
    T0,
  );
  const { ids } = await importContactRecords(
    store,
    PEOPLE.map((p) => ({ phoneE164: p.phone, name: null, tags: [], attributes: p.attributes, consent: { marketing: true } })),
    'test',
    DEFAULT_POLICY,
    T0,
  );
  const created = await createCampaign(
    store,
    {
      name: 'coupons',
      template: { name: 'coupon_drop', language: 'en_US' },
      sender: { phoneNumberId: PN },
      segment: {},
      parameters: MAPPING,
    },
    T0,
  );
  if (!created.ok) throw new Error(created.problem);
  return { campaignId: created.campaign.id, contactIds: ids };
}

function dispatcher(store: Store, api: CloudApi, clock: VirtualClock): Dispatcher {
  return new Dispatcher(
    { store, api, policy: DEFAULT_POLICY, clock, random: () => 0.5 },
    { owner: 'personal-test', phoneNumberId: PN, mps: 80, leaseMs: 60_000, batchSize: 80 },
  );
}

const digitsOf = (r: TemplateSend): string => (r.to.kind === 'phone' ? r.to.phone.replace(/\D/g, '') : r.to.userId);

const bodyValues = (r: TemplateSend): unknown[] =>
  (r.template.components ?? []).flatMap((c) => (c.parameters ?? []).map((p) => p['text'] ?? p['payload']));

describe.each(BACKENDS)('personalised campaign ($name)', (backend) => {
  it('freezes each recipient’s own values into its row, and skips only the one without a first name, saying why', async () => {
    const store = await backend.open();
    const { campaignId, contactIds } = await seed(store);
    expect(await startCampaign(store, campaignId, { phoneNumberId: PN }, T0, NO_DISPATCHER_HERE)).toEqual({
      scanned: 3,
      matched: 3,
      inserted: 3,
    });
    // Starting twice creates nothing twice.
    expect(await startCampaign(store, campaignId, { phoneNumberId: PN }, T0, NO_DISPATCHER_HERE)).toMatchObject({ inserted: 0 });

    const clock = new VirtualClock(T0);
    const api = new ScriptedApi((_, n) => accepted(n));
    const tick = await dispatcher(store, api, clock).tick();
    expect(tick).toMatchObject({ sent: 2, skipped: 1 });
    expect(api.requests.map((r) => [digitsOf(r), bodyValues(r)])).toEqual([
      ['447700900101', ['Ada', 'ADA15', 'ADA15']],
      ['447700900102', ['Bob', 'BOB10', 'BOB10']],
    ]);
    expect(api.requests[0]?.template.components).toEqual([
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ada' },
          { type: 'text', text: 'ADA15' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'ADA15' }] },
    ]);
    const timeline = await store.contactTimeline(contactIds[2] ?? -1, 10);
    const skip = timeline.find((e) => e.type === 'decision' && e.kind === 'skip');
    expect(skip).toMatchObject({ reason: 'missing_parameter', explanation: expect.stringContaining('body {{1}}: first_name is missing') });
    const outcomes = await store.campaignCounters(campaignId);
    expect(outcomes).toMatchObject({ skipped: 1 });
  });

  it('sends on a retry exactly what the first attempt sent, whatever the contact’s data became', async () => {
    const store = await backend.open();
    const { campaignId, contactIds } = await seed(store);
    await startCampaign(store, campaignId, { phoneNumberId: PN }, T0, NO_DISPATCHER_HERE);
    const clock = new VirtualClock(T0);
    // Ada's first attempt meets a transient Meta error; everything else is accepted.
    const api = new ScriptedApi((r, n) =>
      n === 1
        ? {
            kind: 'rejected',
            code: 131000,
            errorClass: 'transient_server',
            message: 'Something went wrong',
            type: 'OAuthException',
            details: null,
            fbtraceId: null,
            isTransient: true,
            httpStatus: 500,
          }
        : accepted(n),
    );
    const d = dispatcher(store, api, clock);
    await d.tick();
    await store.upsertContacts([{ phoneE164: '+447700900101', attributes: { first_name: 'Changed', coupon: 'NEW99' } }], T0);
    for (let i = 0; i < 20 && api.requests.length < 3; i++) {
      await clock.advance(60_000);
      await d.tick();
    }
    const ada = api.requests.filter((r) => digitsOf(r) === '447700900101');
    expect(ada).toHaveLength(2);
    expect(ada[1]?.template.components).toEqual(ada[0]?.template.components);
    expect(bodyValues(ada[1] as TemplateSend)).toEqual(['Ada', 'ADA15', 'ADA15']);
    expect(contactIds).toHaveLength(3);
  });

  it('refuses a mapping that does not cover the template, listing what is missing, and stores nothing', async () => {
    const store = await backend.open();
    await seed(store);
    const before = await store.listCampaigns({});
    const r = await createCampaign(
      store,
      {
        name: 'half',
        template: { name: 'coupon_drop', language: 'en_US' },
        sender: { phoneNumberId: PN },
        segment: {},
        parameters: { 'body.1': { attribute: 'first_name' }, 'body.7': { value: 'x' } },
      },
      T0,
    );
    expect(r).toEqual({
      ok: false,
      problem: 'parameters',
      issues: [
        { key: 'body.7', message: expect.stringContaining('has no such value') },
        { key: 'body.2', message: 'body {{2}} has no value: map it to an attribute or a constant' },
        { key: 'button.0', message: 'button 0 (URL suffix) has no value: map it to an attribute or a constant' },
      ],
    });
    expect(await store.listCampaigns({})).toEqual(before);
  });

  it('renders constants once and plans the rows inside the store, values frozen all the same', async () => {
    const store = await backend.open();
    await seed(store);
    const created = await createCampaign(
      store,
      {
        name: 'same for all',
        template: { name: 'coupon_drop', language: 'en_US' },
        sender: { phoneNumberId: PN },
        segment: {},
        parameters: { 'body.1': { value: 'friend' }, 'body.2': { value: 'SPRING' }, 'button.0': { value: 'spring sale' } },
      },
      T0,
    );
    if (!created.ok) throw new Error(created.problem);
    expect(await startCampaign(store, created.campaign.id, { phoneNumberId: PN }, T0, NO_DISPATCHER_HERE)).toMatchObject({ inserted: 3 });
    const api = new ScriptedApi((_, n) => accepted(n));
    await dispatcher(store, api, new VirtualClock(T0)).tick();
    expect(api.requests.map(bodyValues)).toEqual([
      ['friend', 'SPRING', 'spring%20sale'],
      ['friend', 'SPRING', 'spring%20sale'],
      ['friend', 'SPRING', 'spring%20sale'],
    ]);
  });

  it('plans the same rows through a store that has no bulk mode', async () => {
    const store = await backend.open();
    const { campaignId } = await seed(store);
    const plain = { ...store, bulkWrites: undefined };
    expect(await startCampaign(plain, campaignId, { phoneNumberId: PN }, T0, NO_DISPATCHER_HERE)).toEqual({
      scanned: 3,
      matched: 3,
      inserted: 3,
    });
    const api = new ScriptedApi((_, n) => accepted(n));
    expect(await dispatcher(store, api, new VirtualClock(T0)).tick()).toMatchObject({ sent: 2, skipped: 1 });
    expect(api.requests.map(bodyValues)).toEqual([
      ['Ada', 'ADA15', 'ADA15'],
      ['Bob', 'BOB10', 'BOB10'],
    ]);
  });
});
