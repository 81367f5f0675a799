import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { processInbox } from '../src/app/process-inbox.js';
import { applyContactEvents, loadContactState } from '../src/app/update-contact-state.js';
import { parseWebhook } from '../src/adapters/webhook/parse-webhook.js';
import { signBody } from '../src/adapters/http/webhook-signature.js';
import { decide } from '../src/core/decide.js';
import type { SendIntent } from '../src/core/decision.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { silentLogger } from '../src/ports/logger.js';
import type { Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';
import { SECRET, startServer, WEBHOOK } from './webhook-endpoint-server.js';

// Real payloads go through the real edge: signed POST → inbox → processor → contact state → decide.
const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/meta-webhooks');
const fixture = (file: string, key: string): Record<string, unknown> =>
  (JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as Record<string, Record<string, unknown>>)[key] as Record<string, unknown>;
const NOW = Date.UTC(2026, 0, 5, 9, 0, 0);
const NOW_TS = `"timestamp":"${NOW / 1000}"`;
const FIXTURE_TS = '"timestamp":"1689380458"';
/** The user in the fixtures (`recipient_id`, `from`). */
const RECIPIENT = '972987654321';
const clock = { now: () => NOW };

/** Rewrites placeholders and values inside a fixture body without changing its shape. */
function edit(body: Record<string, unknown>, replace: Record<string, string>): string {
  let text = JSON.stringify(body);
  for (const [from, to] of Object.entries(replace)) text = text.split(from).join(to);
  return text;
}

async function post(app: FastifyInstance, body: string): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: WEBHOOK,
    payload: body,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, SECRET) },
  });
  return res.statusCode;
}

const intent = (category: SendIntent['category']): SendIntent => ({
  category,
  kind: 'template',
  recipientRegion: 'GB',
  template: { status: 'approved', pausedUntil: null },
  sender: { state: 'ok' },
  capAttempts: 0,
  marketingApiRefused: false,
});

async function contactWith(store: Store, waId: string): Promise<number> {
  const { ids } = await store.upsertContacts([{ waId, phoneE164: `+${waId}` }], NOW);
  for (const category of ['marketing', 'utility'] as const) {
    await store.setConsent(ids[0] as number, { category, status: 'granted', source: 'test', evidence: null, at: NOW - 1 }, NOW);
  }
  await applyContactEvents(
    store,
    ids[0] as number,
    [
      { type: 'consent', id: 'c1', at: NOW - 1, category: 'marketing', status: 'granted', source: 'test', evidence: null },
      { type: 'consent', id: 'c2', at: NOW - 1, category: 'utility', status: 'granted', source: 'test', evidence: null },
    ],
    DEFAULT_POLICY,
    NOW,
    () => undefined,
  );
  return ids[0] as number;
}

describe.each(BACKENDS)('webhooks applied to contact state ($name)', (backend) => {
  async function rig() {
    const store = await backend.open();
    const server = await startServer(store);
    const process = () => processInbox({ store, policy: DEFAULT_POLICY, clock, random: () => 0.5, parse: parseWebhook });
    return { store, app: server.app, process };
  }

  it('a failed status with 131049 cools marketing off and leaves utility sendable', async () => {
    const { store, app, process } = await rig();
    const id = await contactWith(store, RECIPIENT);
    // The real failed status, re-coded as the per-user cap, timed now, with a field Meta might add later.
    const body = edit(fixture('message_status.json', 'failed'), {
      '"code":130472': '"code":131049',
      [FIXTURE_TS]: NOW_TS,
      '"recipient_id":"': '"x_added_later":{"a":1},"recipient_id":"',
    });
    expect(await post(app, body)).toBe(200);
    expect(await process()).toMatchObject({ rows: 1, quarantined: 0 });
    const state = await loadContactState(store, id);
    expect(decide(state, intent('marketing'), NOW + 3_600_000, DEFAULT_POLICY)).toMatchObject({
      kind: 'defer',
      reason: 'marketing_cool_off',
    });
    expect(decide(state, intent('utility'), NOW + 3_600_000, DEFAULT_POLICY)).toMatchObject({ kind: 'send' });
  });

  it('a failed status whose code stops the number (131048) stops it, pauses its campaigns, holds the row, and says so at warn', async () => {
    const { store, app } = await rig();
    const contactId = await contactWith(store, RECIPIENT);
    // The number and the message of the fixture, sent by a running campaign.
    const phoneNumberId = '1122334455667';
    const [senderId = -1] = await store.upsertSenders(
      [
        {
          phoneNumberId,
          displayNumber: '+972 12-345-6789',
          qualityRating: 'GREEN',
          throughputMps: 80,
          messagingLimitTier: null,
          state: 'ok',
          stateReason: null,
          stateUntil: null,
        },
      ],
      NOW,
    );
    const [templateId = -1] = await store.upsertTemplates(
      [{ name: 'promo', language: 'en', category: 'marketing', status: 'approved', quality: null, pausedUntil: null }],
      NOW,
    );
    const campaignId = await store.createCampaign(
      { name: 'c', templateId, senderId, segment: {}, scheduledAt: null, policyPreset: 'meta', status: 'running' },
      NOW,
    );
    const intent = { phoneNumberId, template: { name: 'promo', language: 'en' } };
    await store.insertOutbox(
      [{ campaignId, contactId, senderId, category: 'marketing', intent, idempotencyKey: null, nextAttemptAt: NOW }],
      NOW,
    );
    const [row] = await store.claimDue({ owner: 'w', now: NOW, leaseMs: 60_000, limit: 1 });
    await store.recordIntent(row?.id ?? -1, 'w', NOW);
    await store.recordAccepted(row?.id ?? -1, 'w', 'wamid.xyzxyz', NOW);

    // The contact wrote in just before: a hold for the window would end at once, a hold for the fix must not.
    const inbound = edit(fixture('message.json', 'text'), {
      '"timestamp":"1697043223"': NOW_TS,
      '"id":"wamid.xyzxyz"': '"id":"wamid.inbound"',
    });
    expect(await post(app, inbound)).toBe(200);
    await processInbox({ store, policy: DEFAULT_POLICY, clock, random: () => 0.5, parse: parseWebhook });
    expect((await loadContactState(store, contactId)).windowOpenUntil).toBeGreaterThan(NOW);
    const warnings: { message: string; fields: unknown }[] = [];
    const logger = { ...silentLogger, warn: (message: string, fields?: unknown) => void warnings.push({ message, fields }) };
    expect(
      await post(app, edit(fixture('message_status.json', 'failed'), { '"code":130472': '"code":131048', [FIXTURE_TS]: NOW_TS })),
    ).toBe(200);
    await processInbox({ store, policy: DEFAULT_POLICY, clock, random: () => 0.5, parse: parseWebhook, logger });

    expect(await store.getSender(phoneNumberId)).toMatchObject({ state: 'stopped', stateReason: '131048 Spam rate limit' });
    const campaign = await store.getCampaign(campaignId);
    expect(campaign?.status).toBe('paused');
    expect(campaign?.pauseReason).toContain('131048 Spam rate limit');
    expect(await store.getOutbox(row?.id ?? -1)).toMatchObject({ status: 'held', lastErrorCode: 131048 });
    expect(warnings).toEqual([
      { message: 'sender cannot send: stopped until an operator fixes it', fields: { phoneNumberId, reason: '131048 Spam rate limit' } },
      { message: 'campaign paused', fields: { campaignId, reason: campaign?.pauseReason } },
    ]);
  });

  it('an account deleted by Meta stops its numbers and pauses their campaigns, and says so at warn', async () => {
    const { store, app } = await rig();
    const seed = await seedCampaign(store, NOW, 0);
    const warnings: { message: string; fields: unknown }[] = [];
    const logger = { ...silentLogger, warn: (message: string, fields?: unknown) => void warnings.push({ message, fields }) };
    expect(await post(app, JSON.stringify(fixture('account_update.json', 'account_deleted')))).toBe(200);
    await processInbox({ store, policy: DEFAULT_POLICY, clock, random: () => 0.5, parse: parseWebhook, logger });
    const reason = 'account_update ACCOUNT_DELETED';
    expect(await store.getCampaign(seed.campaignId)).toMatchObject({ status: 'paused', pauseReason: reason });
    expect(warnings).toEqual([
      { message: 'sender cannot send: stopped until an operator fixes it', fields: { phoneNumberId: 'pn-1', reason } },
      { message: 'campaign paused', fields: { campaignId: seed.campaignId, reason } },
    ]);
  });

  it('the real 130472 failure holds marketing for a window', async () => {
    const { store, app, process } = await rig();
    const id = await contactWith(store, RECIPIENT);
    await post(app, edit(fixture('message_status.json', 'failed'), { [FIXTURE_TS]: NOW_TS }));
    await process();
    expect(decide(await loadContactState(store, id), intent('marketing'), NOW + 1, DEFAULT_POLICY)).toMatchObject({
      kind: 'hold',
      reason: 'experiment_group',
    });
  });

  it('a user_preferences stop, and a "Stop promotions" tap, stop marketing but not utility', async () => {
    const { store, app, process } = await rig();
    // The fixture holds only resume and signup cases; its resume, turned into a stop.
    const a = await contactWith(store, '16505551234');
    await post(
      app,
      edit(fixture('user_marketing_preferences.json', 'resume'), {
        '"value":"resume"': '"value":"stop"',
        'resume marketing': 'stop marketing',
      }),
    );
    // The real quick-reply tap, with the label our templates use.
    const b = await contactWith(store, RECIPIENT);
    await post(app, edit(fixture('callback_button.json', 'quick_reply'), { '"text":"title"': '"text":"Stop promotions"' }));
    expect(await process()).toMatchObject({ quarantined: 0 });
    for (const id of [a, b]) {
      const state = await loadContactState(store, id);
      expect(decide(state, intent('marketing'), NOW + 86_400_000 * 30, DEFAULT_POLICY)).toMatchObject({
        kind: 'skip',
        reason: 'marketing_stopped',
      });
      expect(decide(state, intent('utility'), NOW + 1, DEFAULT_POLICY).kind).toBe('send');
    }
  });

  it('a status for a message whose send was not recorded yet is reconciled through our callback data; duplicates and late statuses change nothing', async () => {
    const { store, app, process } = await rig();
    const id = await contactWith(store, '447700900125');
    await store.insertOutbox(
      [
        {
          campaignId: null,
          contactId: id,
          senderId: null,
          category: 'utility',
          intent: { phoneNumberId: '1', template: { name: 't', language: 'en' } },
          idempotencyKey: 'k1',
          nextAttemptAt: NOW,
        },
      ],
      NOW,
    );
    const [row] = await store.claimDue({ owner: 'w', now: NOW, leaseMs: 60_000, limit: 1 });
    if (!row) throw new Error('row expected');
    await store.recordIntent(row.id, 'w', NOW); // the answer to the send never got recorded
    const status = (s: string, ts: number) =>
      JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '1',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { display_phone_number: '1', phone_number_id: '1' },
                  statuses: [
                    {
                      id: 'wamid.R1',
                      status: s,
                      timestamp: String(ts),
                      recipient_id: '447700900125',
                      biz_opaque_callback_data: `pacer:${row.id}`,
                    },
                  ],
                },
              },
            ],
          },
        ],
      });
    await post(app, status('read', 1767603700));
    await post(app, status('delivered', 1767603650)); // older, arrives later
    await post(app, status('read', 1767603700)); // duplicate
    await process();
    expect(await store.getOutbox(row.id)).toMatchObject({ wamid: 'wamid.R1', outcome: 'read' });
    const before = await store.loadContactState(id);
    await post(app, status('read', 1767603700));
    await process();
    expect((await store.loadContactState(id))?.version).toBe(before?.version);
  });

  it('quarantines a signed but malformed payload with the reason, and still answers 200', async () => {
    const { store, app, process } = await rig();
    expect(
      await post(
        app,
        '{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"messages","value":{"statuses":[{"id":7}]}}]}]}',
      ),
    ).toBe(200);
    expect(await post(app, 'not json at all')).toBe(200);
    expect(await process()).toMatchObject({ rows: 2, quarantined: 2 });
    expect(await store.listUnprocessedInbox(0, 10)).toHaveLength(0);
  });
});
