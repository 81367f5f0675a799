import { NO_DISPATCHER_HERE } from '../src/app/work-signal.js';
import { describe, expect, it } from 'vitest';
import { campaignAction } from '../src/app/campaign-actions.js';
import { completeFinishedCampaigns } from '../src/app/complete-campaigns.js';
import { startCampaign } from '../src/app/start-campaign.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

const T0 = Date.UTC(2026, 0, 5, 9);

describe.each(BACKENDS)('campaign lifecycle ($name)', (backend) => {
  it('completes a running campaign once no row can still be sent, and never a paused one', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 2);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [a, b] = await store.claimDue({ owner: 'w', now: T0, leaseMs: 60_000, limit: 2 });
    if (!a || !b) throw new Error('two rows expected');
    await store.complete(a.id, 'w', 'skipped', T0);
    expect(await completeFinishedCampaigns(store, T0)).toEqual([]); // one row is still leased
    await store.reschedule(b.id, 'w', { status: 'queued', until: T0 + 86_400_000, capAttempt: true, errorCode: 131049 }, T0);
    expect(await completeFinishedCampaigns(store, T0)).toEqual([]); // a retry is scheduled
    const [again] = await store.claimDue({ owner: 'w', now: T0 + 86_400_000, leaseMs: 60_000, limit: 1 });
    await store.complete(again?.id ?? -1, 'w', 'capped_exhausted', T0 + 86_400_000);
    expect(await completeFinishedCampaigns(store, T0 + 86_400_000)).toEqual([seed.campaignId]);
    expect((await store.getCampaign(seed.campaignId))?.status).toBe('completed');
  });

  it('keeps a campaign open while an accepted message may still come back failed', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 1);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [row] = await store.claimDue({ owner: 'w', now: T0, leaseMs: 60_000, limit: 1 });
    await store.recordIntent(row?.id ?? -1, 'w', T0);
    await store.recordAccepted(row?.id ?? -1, 'w', 'wamid.1', T0);
    expect(await completeFinishedCampaigns(store, T0 + 3_600_000)).toEqual([]);
    expect(await completeFinishedCampaigns(store, T0 + 25 * 3_600_000)).toEqual([seed.campaignId]);
  });

  it('ends a campaign at its end time, paused or not, skipping the rows still waiting', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 2);
    const endsAt = T0 + 7 * 86_400_000;
    const id = await store.createCampaign(
      {
        name: 'ends',
        templateId: seed.templateId,
        senderId: seed.senderId,
        segment: {},
        scheduledAt: null,
        endsAt,
        policyPreset: 'meta',
        status: 'paused',
      },
      T0,
    );
    await store.insertOutbox(
      seed.rows(() => T0).map((r) => ({ ...r, campaignId: id })),
      T0,
    );
    expect(await store.getCampaign(id)).toMatchObject({ endsAt });
    expect(await completeFinishedCampaigns(store, endsAt - 1)).toEqual([]);
    expect(await completeFinishedCampaigns(store, endsAt)).toEqual([id]);
    expect(await store.getCampaign(id)).toMatchObject({ status: 'completed' });
    expect(await store.campaignCounters(id)).toMatchObject({ skipped: 2, queued: 0 });
  });

  it("resuming says the number is fixed: it may send again, and the rows held for the fix go back in line, the contact's holds stay", async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 3);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [a, b, c] = await store.claimDue({ owner: 'w', now: T0, leaseMs: 60_000, limit: 3 });
    const hold = (errorCode: number) => ({ status: 'held' as const, until: null, capAttempt: false, errorCode });
    await store.reschedule(a?.id ?? -1, 'w', hold(190), T0); // the token: waits for the operator
    await store.reschedule(b?.id ?? -1, 'w', hold(130472), T0); // the contact's window: waits for the contact
    await store.reschedule(c?.id ?? -1, 'w', hold(133010), T0); // the number's registration: waits for the operator
    await store.setSenderState('pn-1', 'stopped', '190 Access token expired', null, T0);
    await store.setCampaignStatus(seed.campaignId, 'paused', 'Meta refused a send with 190 Access token expired.', T0);

    await campaignAction(store, seed.campaignId, 'resume', T0 + 5, NO_DISPATCHER_HERE);
    expect(await store.getSender('pn-1')).toMatchObject({ state: 'ok', stateReason: null });
    expect(await store.getOutbox(a?.id ?? -1)).toMatchObject({ status: 'queued', nextAttemptAt: T0 + 5, lastErrorCode: 190 });
    expect(await store.getOutbox(c?.id ?? -1)).toMatchObject({ status: 'queued', nextAttemptAt: T0 + 5 });
    expect(await store.getOutbox(b?.id ?? -1)).toMatchObject({ status: 'held', lastErrorCode: 130472 });
    expect(await store.nextWorkAt()).toBe(T0 + 5);
  });

  it('starting a paused campaign plans its rows but keeps the pause', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 1, 'paused');
    await store.setCampaignStatus(seed.campaignId, 'paused', 'cap share too high', T0);
    expect(await startCampaign(store, seed.campaignId, { phoneNumberId: 'pn-1' }, T0, NO_DISPATCHER_HERE)).toMatchObject({ inserted: 1 });
    expect(await store.getCampaign(seed.campaignId)).toMatchObject({ status: 'paused', pauseReason: 'cap share too high' });
    expect(await completeFinishedCampaigns(store, T0)).toEqual([]);
  });
});
