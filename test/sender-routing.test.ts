import { describe, expect, it } from 'vitest';
import { parseWebhook } from '../src/adapters/webhook/parse-webhook.js';
import { createCampaign, NEW_SENDER_DEFAULTS } from '../src/app/create-campaign.js';
import { processInbox } from '../src/app/process-inbox.js';
import { queueOneOffMessage } from '../src/app/queue-one-off-message.js';
import { startCampaign } from '../src/app/start-campaign.js';
import { NO_DISPATCHER_HERE } from '../src/app/work-signal.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { OutboxRow, SenderProfile, Store } from '../src/ports/store.js';
import { outboxIds } from './engine-rig.js';
import { BACKENDS, type Place } from './store-backends.js';

const T0 = Date.UTC(2026, 5, 1, 9, 0, 0);
// Two accounts: A with two numbers (one portfolio), B with one.
const WABA_A = '102290129340398';
const WABA_B = '203390129340399';
const A1 = '106540352242922';
const A2 = '106540352242933';
const B1 = '209871350014557';

async function senders(store: Store): Promise<void> {
  const base = { ...NEW_SENDER_DEFAULTS, qualityRating: 'GREEN' };
  await store.upsertSenders(
    [
      { ...base, phoneNumberId: A1, displayNumber: '+44 7700 900001' },
      { ...base, phoneNumberId: A2, displayNumber: '+49 1512 3456789' },
      { ...base, phoneNumberId: B1, displayNumber: '+1 555-010-0001' },
    ],
    T0,
  );
  const profile = (businessAccountId: string): SenderProfile => ({
    businessAccountId,
    portfolioId: businessAccountId,
    verifiedName: null,
    metaStatus: 'CONNECTED',
    nameStatus: 'APPROVED',
    throughputLevel: 'STANDARD',
    syncedAt: T0,
  });
  await store.setSenderProfile(A1, profile(WABA_A));
  await store.setSenderProfile(A2, profile(WABA_A));
  await store.setSenderProfile(B1, profile(WABA_B));
}

async function marketingTemplate(store: Store): Promise<void> {
  await store.upsertTemplates(
    [{ name: 'promo', language: 'en', category: 'marketing', status: 'approved', quality: null, pausedUntil: null }],
    T0,
  );
}

async function deliver(store: Store, body: unknown): Promise<{ quarantined: number; reason: string | null }> {
  const id = await store.appendInbox({ raw: Buffer.from(JSON.stringify(body)), receivedAt: T0, signatureOk: true });
  const result = await processInbox({ store, policy: DEFAULT_POLICY, clock: { now: () => T0 }, random: () => 0.5, parse: parseWebhook });
  const quarantined = (await store.listQuarantinedInbox(0, 10)).find((r) => r.id === id);
  return { quarantined: result.quarantined, reason: quarantined?.quarantineReason ?? null };
}

async function outboxOf(place: Place, store: Store, campaignId: number | null): Promise<OutboxRow[]> {
  const rows = await Promise.all((await outboxIds(place, campaignId)).map((id) => store.getOutbox(id)));
  return rows.filter((r): r is OutboxRow => r !== null);
}

async function opened(backend: (typeof BACKENDS)[number]): Promise<{ place: Place; store: Store }> {
  const place = backend.place();
  const store = place.open();
  await store.migrate();
  return { place, store };
}

const accountChange = (waba: string, field: string, value: Record<string, unknown>) => ({
  object: 'whatsapp_business_account',
  entry: [{ id: waba, time: Math.floor(T0 / 1000), changes: [{ field, value }] }],
});

const inbound = (phoneNumberId: string, from: string, wamid: string) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: WABA_A,
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '447700900001', phone_number_id: phoneNumberId },
            contacts: [{ profile: { name: 'Ana' }, wa_id: from }],
            messages: [{ from, id: wamid, timestamp: String(Math.floor(T0 / 1000)), type: 'text', text: { body: 'hello' } }],
          },
        },
      ],
    },
  ],
});

describe.each(BACKENDS)('several numbers on one $name store', (backend) => {
  it('a spread pool gives each recipient one number, evenly; a country pool routes by calling code, the rest to otherwise', async () => {
    const { place, store } = await opened(backend);
    await senders(store);
    await marketingTemplate(store);
    const phones = ['+447700900101', '+447700900102', '+4915123456701', '+4915123456702', '+5511987654301', '+5511987654302'];
    await store.upsertContacts(
      phones.map((p) => ({ phoneE164: p, waId: p.slice(1) })),
      T0,
    );
    const spread = await createCampaign(
      store,
      {
        name: 's',
        template: { name: 'promo', language: 'en' },
        sender: { phoneNumberId: A1 },
        segment: { consent: [] },
        pool: { by: 'spread', numbers: [A1, A2] },
      },
      T0,
    );
    if (!spread.ok) throw new Error('spread campaign expected');
    expect(await startCampaign(store, spread.campaign.id, { phoneNumberId: A1 }, T0, NO_DISPATCHER_HERE)).toMatchObject({
      matched: 6,
      inserted: 6,
    });
    const spreadRows = await outboxOf(place, store, spread.campaign.id);
    const from = (r: { intent: unknown }) => (r.intent as { phoneNumberId: string }).phoneNumberId;
    expect(spreadRows.filter((r) => from(r) === A1)).toHaveLength(3);
    expect(spreadRows.filter((r) => from(r) === A2)).toHaveLength(3);
    // The row's sender column agrees with the number in its intent.
    const a2 = await store.getSender(A2);
    for (const r of spreadRows.filter((row) => from(row) === A2)) expect(r.senderId).toBe(a2?.id);

    const byCountry = await createCampaign(
      store,
      {
        name: 'c',
        template: { name: 'promo', language: 'en' },
        sender: { phoneNumberId: A1 },
        segment: { consent: [] },
        pool: { by: 'country', countries: { GB: A1, DE: A2 }, otherwise: B1 },
      },
      T0,
    );
    if (!byCountry.ok) throw new Error('country campaign expected');
    expect(await startCampaign(store, byCountry.campaign.id, { phoneNumberId: A1 }, T0, NO_DISPATCHER_HERE)).toMatchObject({
      scanned: 6,
      matched: 6,
      inserted: 6,
    });
    const rows = await outboxOf(place, store, byCountry.campaign.id);
    const phoneOf = new Map(
      (await store.getContactsWithState(rows.map((r) => r.contactId))).map((k) => [k.contact.id, k.contact.phoneE164]),
    );
    const routed = rows.map((r) => [phoneOf.get(r.contactId)?.slice(0, 3), from(r)]).sort();
    expect(routed).toEqual([
      ['+44', A1],
      ['+44', A1],
      ['+49', A2],
      ['+49', A2],
      ['+55', B1],
      ['+55', B1],
    ]);
    // Starting again adds nothing, whatever the pool.
    expect(await startCampaign(store, byCountry.campaign.id, { phoneNumberId: A1 }, T0, NO_DISPATCHER_HERE)).toMatchObject({
      inserted: 0,
      matched: 6,
    });

    // Countries sharing a calling code cannot go from different numbers.
    const ambiguous = await createCampaign(
      store,
      {
        name: 'x',
        template: { name: 'promo', language: 'en' },
        sender: { phoneNumberId: A1 },
        segment: {},
        pool: { by: 'country', countries: { US: A1, CA: B1 }, otherwise: null },
      },
      T0,
    );
    expect(ambiguous).toEqual({
      ok: false,
      problem: 'sender_pool',
      detail: 'US and CA share the calling code +1, so they cannot go from different numbers',
    });
  });

  it("an account restriction stops that account's numbers and pauses their campaigns only", async () => {
    const store = await backend.open();
    await senders(store);
    await marketingTemplate(store);
    const make = async (phoneNumberId: string) => {
      const r = await createCampaign(
        store,
        { name: phoneNumberId, template: { name: 'promo', language: 'en' }, sender: { phoneNumberId }, segment: {} },
        T0,
      );
      if (!r.ok) throw new Error('campaign expected');
      await store.setCampaignStatus(r.campaign.id, 'running', null, T0);
      return r.campaign.id;
    };
    const [onA1, onA2, onB1] = [await make(A1), await make(A2), await make(B1)];
    const restriction = accountChange(WABA_B, 'account_update', {
      event: 'ACCOUNT_RESTRICTION',
      restriction_info: [{ restriction_type: 'RESTRICTED_BIZ_INITIATED_MESSAGING' }],
    });
    expect(await deliver(store, restriction)).toEqual({ quarantined: 0, reason: null });
    expect((await store.getSender(B1))?.state).toBe('stopped');
    expect((await store.getSender(A1))?.state).toBe('ok');
    expect((await store.getCampaign(onB1))?.status).toBe('paused');
    expect((await store.getCampaign(onA1))?.status).toBe('running');
    expect((await store.getCampaign(onA2))?.status).toBe('running');

    // A quality drop of one number pauses that number's marketing, not its sibling's in the same account.
    const drop = accountChange(WABA_A, 'phone_number_quality_update', { display_phone_number: '4915123456789', event: 'DOWNGRADE' });
    expect(await deliver(store, drop)).toEqual({ quarantined: 0, reason: null });
    expect((await store.getCampaign(onA2))?.status).toBe('paused');
    expect((await store.getCampaign(onA1))?.status).toBe('running');
  });

  it('a webhook for a number or an account Pacer does not know is kept, not applied to another number', async () => {
    const store = await backend.open();
    await senders(store);
    const stranger = await deliver(store, inbound('999000111222333', '447700900555', 'wamid.stranger'));
    expect(stranger.quarantined).toBe(1);
    expect(stranger.reason).toContain('phone number id 999000111222333');
    expect(await store.findContact({ waId: '447700900555' })).toBeNull();
    const otherAccount = await deliver(
      store,
      accountChange('777000111', 'account_update', { event: 'ACCOUNT_RESTRICTION', restriction_info: [] }),
    );
    expect(otherAccount.reason).toContain('business account 777000111');
    for (const id of [A1, A2, B1]) expect((await store.getSender(id))?.state).toBe('ok');
    // Its own number's webhooks apply as ever.
    expect(await deliver(store, inbound(A2, '447700900556', 'wamid.known'))).toEqual({ quarantined: 0, reason: null });
    expect(await store.findContact({ waId: '447700900556' })).not.toBeNull();
  });

  it('a one-off message goes from the number the contact last wrote to, unless the caller names one', async () => {
    const { place, store } = await opened(backend);
    await senders(store);
    expect(await deliver(store, inbound(A2, '447911123456', 'wamid.hello'))).toEqual({ quarantined: 0, reason: null });
    const send = (key: string, number: 'named' | 'default') =>
      queueOneOffMessage(
        store,
        { to: '+447911123456', category: 'service', text: 'Thanks!', phoneNumberId: A1, number, idempotencyKey: key },
        DEFAULT_POLICY,
        T0,
        NO_DISPATCHER_HERE,
      );
    expect(await send('follows', 'default')).toMatchObject({ ok: true, queued: true });
    expect(await send('named', 'named')).toMatchObject({ ok: true, queued: true });
    const rows = await outboxOf(place, store, null);
    const byKey = new Map(rows.map((r) => [r.idempotencyKey, (r.intent as { phoneNumberId: string }).phoneNumberId]));
    expect(byKey.get('follows')).toBe(A2);
    expect(byKey.get('named')).toBe(A1);
  });
});
