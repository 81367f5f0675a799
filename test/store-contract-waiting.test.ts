import { describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE } from '../src/core/time.js';
import type { DecisionAuditInput } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign, seedClaimed } from './store-seed.js';

const T0 = Date.UTC(2026, 11, 1, 9, 0, 0);

describe.each(BACKENDS)('Store contract: why campaign rows wait, and campaign policy ($name)', (backend) => {
  it('groups waiting rows by their latest decision, with when they are next due', async () => {
    const store = await backend.open();
    const seed = await seedClaimed(store, T0, 6);
    const rows = seed.claimed;
    const [a, b, c, d, e] = rows;
    if (e === undefined || a === undefined || b === undefined || c === undefined || d === undefined) throw new Error('six rows expected');
    const audit = (
      row: typeof a,
      kind: DecisionAuditInput['kind'],
      reason: string,
      until: number | null,
      at: number,
    ): DecisionAuditInput => ({ outboxId: row.id, contactId: row.contactId, kind, reason, explanation: reason, until, at });
    // a and b: deferred by the frequency cap, until day 7 and day 8. An older decision of a's does not count.
    await store.appendDecisions([
      audit(a, 'defer', 'pair_rate', T0 + MINUTE, T0 - HOUR),
      audit(a, 'defer', 'frequency_cap', T0 + 7 * DAY, T0),
      audit(b, 'defer', 'frequency_cap', T0 + 8 * DAY, T0),
    ]);
    await store.reschedule(a.id, 'w', { status: 'queued', until: T0 + 7 * DAY, capAttempt: false, errorCode: null }, T0);
    await store.reschedule(b.id, 'w', { status: 'queued', until: T0 + 8 * DAY, capAttempt: false, errorCode: null }, T0);
    // c: held for the experiment group.
    await store.appendDecisions([audit(c, 'hold', 'experiment_group', null, T0)]);
    await store.reschedule(c.id, 'w', { status: 'held', until: null, capAttempt: false, errorCode: 130472 }, T0);
    // d: sent, then capped (131049) and requeued for tomorrow: its latest decision is the send.
    await store.appendDecisions([audit(d, 'send', 'eligible', null, T0)]);
    await store.recordIntent(d.id, 'w', T0);
    await store.recordAccepted(d.id, 'w', 'wamid.d', T0);
    await store.recordDelivery({ wamid: 'wamid.d', outboxId: d.id }, 'failed', 131049, T0 + MINUTE);
    await store.requeue(d.id, { status: 'queued', until: T0 + DAY, capAttempt: true, errorCode: 131049 }, T0 + MINUTE);
    // e: sent and delivered: not waiting. The sixth row is released undecided.
    await store.appendDecisions([audit(e, 'send', 'eligible', null, T0)]);
    await store.recordIntent(e.id, 'w', T0);
    await store.recordAccepted(e.id, 'w', 'wamid.e', T0);
    await store.sweepExpiredLeases(T0 + 2 * HOUR);

    expect(await store.waitingReasons(seed.campaignId)).toEqual([
      {
        status: 'queued',
        code: null,
        decision: { kind: 'defer', reason: 'frequency_cap' },
        count: 2,
        firstAt: T0 + 7 * DAY,
        lastAt: T0 + 8 * DAY,
      },
      { status: 'held', code: 130472, decision: { kind: 'hold', reason: 'experiment_group' }, count: 1, firstAt: null, lastAt: null },
      { status: 'queued', code: null, decision: null, count: 1, firstAt: T0, lastAt: T0 },
      { status: 'queued', code: 131049, decision: { kind: 'send', reason: 'eligible' }, count: 1, firstAt: T0 + DAY, lastAt: T0 + DAY },
    ]);
    expect(await store.waitingReasons(seed.campaignId + 100)).toEqual([]);
  });

  it("keeps a campaign's own frequency cap, or none for the installation's", async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 0);
    const base = {
      name: 'weekly',
      templateId: seed.templateId,
      senderId: seed.senderId,
      segment: {},
      scheduledAt: null,
      policyPreset: 'meta',
      status: 'draft' as const,
    };
    const own = await store.createCampaign({ ...base, frequencyCap: { max: 4, windowMs: 30 * DAY } }, T0);
    const off = await store.createCampaign({ ...base, frequencyCap: { max: 0, windowMs: 0 } }, T0);
    expect((await store.getCampaign(own))?.frequencyCap).toEqual({ max: 4, windowMs: 30 * DAY });
    expect((await store.getCampaign(off))?.frequencyCap).toEqual({ max: 0, windowMs: 0 });
    expect((await store.getCampaign(seed.campaignId))?.frequencyCap).toBeNull();
    expect((await store.listCampaigns({})).map((c) => c.frequencyCap)).toEqual([
      null,
      { max: 4, windowMs: 30 * DAY },
      { max: 0, windowMs: 0 },
    ]);
  });
});
