import { describe, expect, it } from 'vitest';
import { createCampaign, NEW_SENDER_DEFAULTS, type NewCampaign } from '../src/app/create-campaign.js';
import { HOUR } from '../src/core/time.js';
import type { Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const campaign = (o: Partial<NewCampaign> = {}): NewCampaign => ({
  name: 'Spring',
  template: { name: 'spring_sale', language: 'en_US' },
  sender: { phoneNumberId: '106540352242922' },
  segment: {},
  ...o,
});

async function templates(store: Store): Promise<void> {
  await store.upsertTemplates(
    [
      { name: 'spring_sale', language: 'en_US', category: 'marketing', status: 'approved', quality: null, pausedUntil: null },
      { name: 'order_update', language: 'en_US', category: 'utility', status: 'approved', quality: null, pausedUntil: null },
    ],
    T0,
  );
}

describe.each(BACKENDS)('createCampaign ($name)', (backend) => {
  it('refuses a template Meta rejected, disabled or deleted, and stores nothing; a paused or pending one may still be approved', async () => {
    const store = await backend.open();
    const statuses = ['rejected', 'disabled', 'deleted', 'paused', 'pending'] as const;
    await store.upsertTemplates(
      statuses.map((status) => ({ name: `t_${status}`, language: 'en_US', category: 'utility', status, quality: null, pausedUntil: null })),
      T0,
    );
    const outcomes = [];
    for (const status of statuses) {
      const r = await createCampaign(store, campaign({ template: { name: `t_${status}`, language: 'en_US' } }), T0);
      outcomes.push(r.ok ? 'created' : r.problem);
    }
    expect(outcomes).toEqual(['template_unavailable', 'template_unavailable', 'template_unavailable', 'created', 'created']);
    expect((await store.listCampaigns({})).map((c) => c.templateId)).toHaveLength(2);
  });

  it('refuses values for a template registered by hand, whose placeholders Pacer does not know', async () => {
    const store = await backend.open();
    await templates(store);
    const r = await createCampaign(store, campaign({ parameters: { 'body.1': { value: 'x' } } }), T0);
    expect(r).toEqual({
      ok: false,
      problem: 'parameters',
      issues: [{ key: '(template)', message: expect.stringContaining('was registered by hand, so Pacer does not know its placeholders') }],
    });
    expect(await store.listCampaigns({})).toEqual([]);
  });

  it('creates a draft from a registered template; marketing needs marketing consent unless the segment names consent', async () => {
    const store = await backend.open();
    expect(await createCampaign(store, campaign(), T0)).toEqual({ ok: false, problem: 'template_not_registered' });
    expect(await store.listCampaigns({})).toEqual([]);
    expect(await store.listSenders()).toEqual([]);
    await templates(store);
    const vip = await createCampaign(store, campaign({ segment: { tagsAll: ['vip'] } }), T0);
    expect(vip).toMatchObject({
      ok: true,
      campaign: {
        name: 'Spring',
        status: 'draft',
        policyPreset: 'meta',
        scheduledAt: null,
        segment: { tagsAll: ['vip'], consent: ['marketing'] },
      },
    });
    expect(await createCampaign(store, campaign({ segment: { consent: ['utility'] } }), T0)).toMatchObject({
      ok: true,
      campaign: { segment: { consent: ['utility'] } },
    });
    const utility = await createCampaign(
      store,
      campaign({ template: { name: 'order_update', language: 'en_US' }, policyPreset: '48h' }),
      T0,
    );
    expect(utility).toMatchObject({ ok: true, campaign: { segment: {}, policyPreset: '48h' } });
    expect(await store.listCampaigns({})).toHaveLength(3);
  });

  it('registers the sender on first use with what the caller knows and the defaults for the rest, then reuses it', async () => {
    const store = await backend.open();
    await templates(store);
    const first = await createCampaign(
      store,
      campaign({ sender: { phoneNumberId: '111', displayNumber: '+1 555-0111', throughputMps: 250, qualityRating: 'GREEN' } }),
      T0,
    );
    const again = await createCampaign(store, campaign({ sender: { phoneNumberId: '111', throughputMps: 1000 } }), T0);
    const other = await createCampaign(store, campaign({ sender: { phoneNumberId: '222' } }), T0);
    if (!first.ok || !again.ok || !other.ok) throw new Error('campaigns refused');
    expect(again.campaign.senderId).toBe(first.campaign.senderId);
    expect(other.campaign.senderId).not.toBe(first.campaign.senderId);
    expect(await store.getSender('111')).toMatchObject({
      id: first.campaign.senderId,
      displayNumber: '+1 555-0111',
      throughputMps: 250,
      qualityRating: 'GREEN',
      messagingLimitTier: null,
      state: 'ok',
    });
    expect(await store.getSender('222')).toMatchObject({ id: other.campaign.senderId, displayNumber: '222', ...NEW_SENDER_DEFAULTS });
    expect(NEW_SENDER_DEFAULTS.throughputMps).toBe(80);
  });

  it('refuses an end at or before the start', async () => {
    const store = await backend.open();
    await templates(store);
    const at = T0 + HOUR;
    expect(await createCampaign(store, campaign({ scheduledAt: at, endsAt: at }), T0)).toEqual({ ok: false, problem: 'ends_before_start' });
    expect(await createCampaign(store, campaign({ endsAt: T0 }), T0)).toEqual({ ok: false, problem: 'ends_before_start' });
    expect(await store.listCampaigns({})).toEqual([]);
    expect(await createCampaign(store, campaign({ scheduledAt: at, endsAt: at + 1 }), T0)).toMatchObject({
      ok: true,
      campaign: { scheduledAt: at, endsAt: at + 1 },
    });
  });
});
