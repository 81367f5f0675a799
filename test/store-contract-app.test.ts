import { RECENT_EVENTS } from '../src/core/campaign-outcome-window.js';
import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../src/core/time.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign, seedClaimed } from './store-seed.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

describe.each(BACKENDS)('Store contract: lists, requeue after a webhook, campaign window ($name)', (backend) => {
  it('lists senders, templates and campaigns and finds them by id', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 0);
    const other = await store.createCampaign(
      {
        name: 'draft',
        templateId: seed.templateId,
        senderId: seed.senderId,
        segment: {},
        scheduledAt: null,
        policyPreset: 'meta',
        status: 'draft',
      },
      T0,
    );
    expect((await store.listSenders()).map((s) => s.phoneNumberId)).toEqual(['pn-1']);
    expect(await store.getSenderById(seed.senderId)).toMatchObject({ id: seed.senderId, phoneNumberId: 'pn-1', throughputMps: 80 });
    expect(await store.getSenderById(seed.senderId + 100)).toBeNull();
    expect(await store.getTemplateById(seed.templateId)).toMatchObject({ name: 'promo', language: 'en', status: 'approved' });
    expect(await store.getTemplateById(seed.templateId + 100)).toBeNull();
    expect((await store.listTemplates()).map((t) => t.id)).toEqual([seed.templateId]);
    expect((await store.listCampaigns({})).map((c) => c.id)).toEqual([seed.campaignId, other]);
    expect((await store.listCampaigns({ status: 'running' })).map((c) => c.id)).toEqual([seed.campaignId]);
  });

  it('requeues a row failed by a later webhook and settles one whose attempts ran out', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 2);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    expect(await store.nextWorkAt()).toBe(T0);
    const [a, b] = await store.claimDue({ owner: 'w', now: T0, leaseMs: HOUR, limit: 2 });
    const [idA, idB] = [a?.id ?? -1, b?.id ?? -1];
    // Nothing queued; the leases run out in an hour, when a sweep must look at them.
    expect(await store.nextWorkAt()).toBe(T0 + HOUR);
    // A leased row belongs to its worker.
    expect(await store.requeue(idA, { status: 'queued', until: T0, capAttempt: false, errorCode: null }, T0)).toBe(false);
    for (const [id, wamid] of [
      [idA, 'wamid.a'],
      [idB, 'wamid.b'],
    ] as const) {
      await store.recordIntent(id, 'w', T0);
      await store.recordAccepted(id, 'w', wamid, T0);
      await store.recordDelivery({ wamid, outboxId: id }, 'failed', 131049, T0 + MINUTE);
    }
    const until = T0 + 24 * HOUR;
    expect(await store.requeue(idA, { status: 'queued', until, capAttempt: true, errorCode: 131049 }, T0 + MINUTE)).toBe(true);
    expect(await store.getOutbox(idA)).toMatchObject({
      status: 'queued',
      capAttempts: 1,
      wamid: null,
      outcome: null,
      nextAttemptAt: until,
    });
    expect(await store.nextWorkAt()).toBe(until);
    // The requeued row lost its wamid; its events still show on the contact's timeline.
    await store.appendMessageEvent(
      { wamid: 'wamid.a', status: 'failed', at: T0 + MINUTE, errorCode: 131049, inboxId: null, outboxId: idA },
      T0,
    );
    expect(await store.contactTimeline(a?.contactId ?? -1, 5)).toMatchObject([
      { type: 'message_event', outboxId: idA, wamid: 'wamid.a', errorCode: 131049 },
    ]);
    expect(await store.settle(idB, 'capped_exhausted', 131049, T0 + MINUTE)).toBe(true);
    expect(await store.getOutbox(idB)).toMatchObject({ status: 'done', outcome: 'capped_exhausted', lastErrorCode: 131049 });
    expect(await store.campaignCounters(seed.campaignId)).toMatchObject({ queued: 1, done: 1, capped_exhausted: 1 });
  });

  it("finds the next work among the rows a worker could claim (not a paused campaign's) and the leases", async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 3);
    const [oneOffContact] = seed.contactIds;
    await store.insertOutbox(
      seed.rows((i) => T0 + (i + 1) * MINUTE),
      T0,
    );
    expect(await store.nextWorkAt()).toBe(T0 + MINUTE);
    await store.setCampaignStatus(seed.campaignId, 'paused', 'operator', T0);
    // Due or not, a paused campaign's rows are never claimed, so they wake nobody.
    expect(await store.nextWorkAt()).toBeNull();
    expect(await store.claimDue({ owner: 'w', now: T0 + HOUR, leaseMs: HOUR, limit: 10 })).toEqual([]);
    await store.insertOutbox(
      [{ ...seed.rows(() => T0 + 2 * MINUTE)[0]!, campaignId: null, contactId: oneOffContact ?? -1, idempotencyKey: 'one-off' }],
      T0,
    );
    expect(await store.nextWorkAt()).toBe(T0 + 2 * MINUTE);
    await store.setCampaignStatus(seed.campaignId, 'running', null, T0);
    expect(await store.nextWorkAt()).toBe(T0 + MINUTE);
    // A claimed row's lease running out is work too: the sweep must requeue it or mark it unknown.
    const claimed = await store.claimDue({ owner: 'w', now: T0 + 2 * MINUTE, leaseMs: 5000, limit: 10 });
    expect(claimed).toHaveLength(3);
    expect(await store.nextWorkAt()).toBe(T0 + 2 * MINUTE + 5000);
    await store.recordIntent(claimed[0]?.id ?? -1, 'w', T0 + 2 * MINUTE);
    expect(await store.sweepExpiredLeases(T0 + 2 * MINUTE + 5000)).toEqual({ requeued: 2, unknown: 1 });
    expect(await store.nextWorkAt()).toBe(T0 + 2 * MINUTE);
  });

  it("reads a campaign's final outcomes after an event id: ours only, in id order", async () => {
    const store = await backend.open();
    const seed = await seedClaimed(store, T0, 5);
    const rows = seed.claimed;
    const finals = [
      ['delivered', null],
      ['failed', 131049],
      ['failed', 131049],
      ['failed', 131031],
      ['read', null],
    ] as const;
    for (const [i, row] of rows.entries()) {
      const [status, errorCode] = finals[i] ?? ['delivered', null];
      const wamid = `wamid.${i}`;
      await store.appendMessageEvent({ wamid, status: 'sent', at: T0 + i, errorCode: null, inboxId: null, outboxId: row.id }, T0);
      await store.appendMessageEvent({ wamid, status, at: T0 + i, errorCode, inboxId: null, outboxId: row.id }, T0);
    }
    // An event of a message that is not ours never counts.
    await store.appendMessageEvent(
      { wamid: 'wamid.foreign', status: 'failed', at: T0, errorCode: 131049, inboxId: null, outboxId: null },
      T0,
    );
    const all = await store.campaignOutcomesAfter(-1);
    // `sent` is not an outcome; every final one is, oldest first.
    expect(all.map((o) => [o.campaignId, o.wamid, o.status, o.errorCode])).toEqual(
      finals.map(([status, code], i) => [seed.campaignId, `wamid.${i}`, status, code]),
    );
    expect(all.map((o) => o.eventId)).toEqual([...all.map((o) => o.eventId)].sort((a, b) => a - b));
    // After an id: what came later, and (where ids can become visible out of order) some of what
    // came shortly before, read again; never anything else.
    const third = all[2]?.eventId ?? -1;
    const later = await store.campaignOutcomesAfter(third);
    expect(later.filter((o) => o.eventId > third).map((o) => o.wamid)).toEqual(['wamid.3', 'wamid.4']);
    for (const o of later.filter((e) => e.eventId <= third)) expect(all).toContainEqual(o);
    const latest = await store.latestMessageEventId();
    expect((await store.campaignOutcomesAfter(latest)).filter((o) => o.eventId > latest)).toEqual([]);
    // The read never reaches further back than the newest RECENT_EVENTS events of all traffic: wamid.4's
    // read is the 10th of 11 events so far; with RECENT_EVENTS - 2 more it is the oldest still inside.
    const others = Array.from({ length: RECENT_EVENTS - 2 }, (_, i) => ({
      wamid: `wamid.other-${i}`,
      status: 'delivered' as const,
      at: T0,
      errorCode: null,
      inboxId: null,
      outboxId: null,
    }));
    await store.appendMessageEvents(others, T0);
    expect((await store.campaignOutcomesAfter(-1)).map((o) => o.wamid)).toEqual(['wamid.4']);
  });

  it('leaves retries out of the campaign window: only first attempts show the audience is saturated', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 2);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [first, second] = await store.claimDue({ owner: 'w', now: T0, leaseMs: HOUR, limit: 2 });
    if (!first || !second) throw new Error('two rows expected');
    await store.recordIntent(first.id, 'w', T0);
    await store.recordAccepted(first.id, 'w', 'wamid.first-1', T0);
    await store.appendMessageEvent(
      { wamid: 'wamid.first-1', status: 'failed', at: T0, errorCode: 131049, inboxId: null, outboxId: first.id },
      T0,
    );
    await store.recordIntent(second.id, 'w', T0);
    await store.recordAccepted(second.id, 'w', 'wamid.second', T0);
    await store.appendMessageEvent(
      { wamid: 'wamid.second', status: 'delivered', at: T0, errorCode: null, inboxId: null, outboxId: second.id },
      T0,
    );
    expect((await store.campaignOutcomesAfter(-1)).map((o) => o.wamid)).toEqual(['wamid.first-1', 'wamid.second']);
    const seen = await store.latestMessageEventId();

    // The capped row is retried a day later and capped again: the retry's outcome is not read.
    expect(await store.requeue(first.id, { status: 'queued', until: T0 + 24 * HOUR, capAttempt: true, errorCode: 131049 }, T0)).toBe(true);
    const [retry] = await store.claimDue({ owner: 'w', now: T0 + 24 * HOUR, leaseMs: HOUR, limit: 1 });
    expect(retry?.id).toBe(first.id);
    await store.recordIntent(first.id, 'w', T0 + 24 * HOUR);
    await store.recordAccepted(first.id, 'w', 'wamid.first-2', T0 + 24 * HOUR);
    await store.appendMessageEvent(
      { wamid: 'wamid.first-2', status: 'failed', at: T0 + 24 * HOUR, errorCode: 131049, inboxId: null, outboxId: first.id },
      T0,
    );
    expect(await store.latestMessageEventId()).toBeGreaterThan(seen);
    expect((await store.campaignOutcomesAfter(seen)).filter((o) => o.eventId > seen)).toEqual([]);
  });
});
