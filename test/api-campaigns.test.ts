import { describe, expect, it } from 'vitest';
import { DAY, iso } from '../src/core/time.js';
import { body, startApi, T0 } from './api-harness.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

interface CampaignJson {
  id: number;
  status: string;
  pauseReason: string | null;
  counters: Record<string, number>;
}

describe.each(BACKENDS)('REST API: campaigns ($name)', (backend) => {
  it('lists campaigns (optionally by status) and shows one with its counters', async () => {
    const rig = await startApi(backend);
    const seed = await seedCampaign(rig.store, T0, 3);
    await rig.store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const draft = await rig.store.createCampaign(
      {
        name: 'later',
        templateId: seed.templateId,
        senderId: seed.senderId,
        segment: {},
        scheduledAt: T0 + 1000,
        policyPreset: 'meta',
        status: 'draft',
      },
      T0,
    );
    const all = await rig.call('GET', '/api/v1/campaigns');
    expect(body<{ items: CampaignJson[] }>(all).items.map((c) => c.id)).toEqual([seed.campaignId, draft]);
    expect(all.json).toMatchObject({
      items: [
        { name: 'c', status: 'running', createdAt: iso(T0), scheduledAt: null },
        { name: 'later', status: 'draft', scheduledAt: iso(T0 + 1000) },
      ],
    });
    expect(body<{ items: CampaignJson[] }>(await rig.call('GET', '/api/v1/campaigns?status=draft')).items.map((c) => c.id)).toEqual([
      draft,
    ]);
    expect(await rig.call('GET', '/api/v1/campaigns?status=sleeping')).toMatchObject({
      status: 400,
      json: { error: 'invalid_query', issues: [{ path: 'status' }] },
    });
    const one = await rig.call('GET', `/api/v1/campaigns/${seed.campaignId}`);
    expect(one.json).toMatchObject({ id: seed.campaignId, status: 'running', counters: { total: 3, queued: 3, done: 0 } });
    // The effective cap: no tier known yet, then a tier Meta names, with the people already reached.
    expect(one.json).toMatchObject({ pace: { tier: null, perDay: null, waiting: 3, daysNeeded: 1 } });
    const sender = await rig.store.getSenderById(seed.senderId);
    if (sender === null) throw new Error('sender expected');
    await rig.store.upsertSenders([{ ...sender, messagingLimitTier: 'TIER_50' }], T0);
    for (const contactId of seed.contactIds) await rig.store.recordConversation(seed.senderId, contactId, T0 - 1000, 86_400_000);
    const paced = await rig.call('GET', `/api/v1/campaigns/${seed.campaignId}`);
    expect(paced.json).toMatchObject({
      pace: { tier: 'TIER_50', perDay: 50, usedLast24h: 3, waiting: 3, daysNeeded: 1, throughputMps: 80 },
    });
    expect(await rig.call('GET', '/api/v1/campaigns/9999')).toMatchObject({ status: 404, json: { error: 'not_found' } });
  });

  it('shows why waiting recipients wait: the reason of their latest decision and until when', async () => {
    const rig = await startApi(backend);
    const seed = await seedCampaign(rig.store, T0, 3);
    await rig.store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [a, b] = await rig.store.claimDue({ owner: 'w', now: T0, leaseMs: 60_000, limit: 2 });
    if (a === undefined || b === undefined) throw new Error('two rows expected');
    for (const [row, until] of [
      [a, T0 + 6 * DAY],
      [b, T0 + 7 * DAY],
    ] as const) {
      await rig.store.appendDecisions([
        { outboxId: row.id, contactId: row.contactId, kind: 'defer', reason: 'frequency_cap', explanation: 'cap', until, at: T0 },
      ]);
      await rig.store.reschedule(row.id, 'w', { status: 'queued', until, capAttempt: false, errorCode: null }, T0);
    }
    const one = await rig.call('GET', `/api/v1/campaigns/${seed.campaignId}`);
    expect(one.json).toMatchObject({
      frequencyCap: null,
      frequencyCapInEffect: { cap: { max: 2, windowMs: 7 * DAY }, from: 'configuration' },
      outcomes: [
        {
          key: 'deferred:frequency_cap',
          outcome: 'deferred',
          label: 'Deferred by your frequency cap',
          count: 2,
          until: { first: iso(T0 + 6 * DAY), last: iso(T0 + 7 * DAY) },
        },
        { key: 'waiting', label: 'Waiting to be sent', count: 1, until: { first: iso(T0), last: iso(T0) } },
      ],
    });
  });

  it('pauses with a reason, resumes clearing it, cancels for good: queued rows end cancelled', async () => {
    const rig = await startApi(backend);
    const seed = await seedCampaign(rig.store, T0, 2);
    await rig.store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const url = `/api/v1/campaigns/${seed.campaignId}`;
    expect(await rig.call('POST', `${url}/pause`, { body: { reason: 'checking the template' } })).toMatchObject({
      status: 200,
      json: { status: 'paused', pauseReason: 'checking the template' },
    });
    expect((await rig.store.getCampaign(seed.campaignId))?.status).toBe('paused');
    expect(await rig.call('POST', `${url}/pause`)).toMatchObject({ status: 409, json: { error: 'invalid_transition' } });
    expect(await rig.call('POST', `${url}/resume`)).toMatchObject({ status: 200, json: { status: 'running', pauseReason: null } });
    expect(await rig.call('POST', `${url}/pause`)).toMatchObject({ status: 200, json: { pauseReason: 'paused by an operator' } });
    const cancelled = await rig.call('POST', `${url}/cancel`);
    expect(cancelled).toMatchObject({ status: 200, json: { status: 'cancelled', counters: { cancelled: 2, queued: 0 } } });
    expect(await rig.call('POST', `${url}/resume`)).toMatchObject({
      status: 409,
      json: { message: expect.stringContaining('cancelled') as string },
    });
    expect(await rig.call('POST', `${url}/cancel`)).toMatchObject({ status: 409 });
    expect(await rig.call('POST', '/api/v1/campaigns/777/cancel')).toMatchObject({ status: 404 });
    expect(await rig.call('POST', `${url}/pause`, { body: { reason: '' } })).toMatchObject({
      status: 400,
      json: { issues: [{ path: 'reason' }] },
    });
  });
});
