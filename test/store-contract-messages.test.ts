import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../src/core/time.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

describe.each(BACKENDS)('Store contract: messages, recipients and drafts ($name)', (backend) => {
  it("keeps a one-off message's own reference and finds the row by its idempotency key", async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 2);
    const [contactId = -1] = seed.contactIds;
    const oneOff = {
      campaignId: null,
      contactId,
      senderId: null,
      category: 'utility',
      intent: { text: 'hi' },
      idempotencyKey: 'order-42',
      clientReference: 'ORDER-42/ß',
      nextAttemptAt: T0,
    } as const;
    expect(await store.insertOutbox([oneOff], T0)).toEqual({ inserted: 1 });
    // The same key again, with another reference: nothing added, the first row's reference stays.
    expect(await store.insertOutbox([{ ...oneOff, clientReference: 'other' }], T0)).toEqual({ inserted: 0 });
    const found = await store.findOutboxByKey('order-42');
    expect(found).toMatchObject({ contactId, idempotencyKey: 'order-42', clientReference: 'ORDER-42/ß', status: 'queued' });
    expect(await store.getOutbox(found?.id ?? -1)).toMatchObject({ clientReference: 'ORDER-42/ß' });
    expect(await store.findOutboxByKey('order-43')).toBeNull();
    // Rows without one (campaign rows, older callers) read back null.
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const campaignRow = (await store.campaignRecipients({ campaignId: seed.campaignId, afterId: 0, limit: 1 }))[0];
    expect((await store.getOutbox(campaignRow?.id ?? -1))?.clientReference).toBeNull();
  });

  it("gives a message's decisions and statuses oldest first, events by row id or by the wamid it had", async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 2);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [a, b] = await store.claimDue({ owner: 'w', now: T0, leaseMs: MINUTE, limit: 2 });
    if (a === undefined || b === undefined) throw new Error('two rows expected');
    const decision = (id: number, contactId: number, kind: 'send' | 'defer', at: number) => ({
      outboxId: id,
      contactId,
      kind,
      reason: kind === 'send' ? 'ok' : 'frequency_cap',
      explanation: kind === 'send' ? 'it may go' : 'the cap',
      until: kind === 'send' ? null : T0 + HOUR,
      at,
    });
    await store.appendDecisions([decision(a.id, a.contactId, 'defer', T0), decision(b.id, b.contactId, 'send', T0)]);
    await store.appendDecisions([decision(a.id, a.contactId, 'send', T0 + HOUR)]);
    await store.recordIntent(a.id, 'w', T0 + HOUR);
    await store.recordAccepted(a.id, 'w', 'wamid.A', T0 + HOUR);
    await store.appendMessageEvent({ wamid: 'wamid.A', status: 'sent', at: T0 + HOUR, errorCode: null, inboxId: null, outboxId: a.id }, T0);
    await store.appendMessageEvent(
      { wamid: 'wamid.A', status: 'delivered', at: T0 + HOUR + 5, errorCode: null, inboxId: null, outboxId: a.id },
      T0,
    );
    expect(await store.messageHistory(a.id, 50)).toEqual([
      { type: 'decision', at: T0, kind: 'defer', reason: 'frequency_cap', explanation: 'the cap', until: T0 + HOUR },
      { type: 'decision', at: T0 + HOUR, kind: 'send', reason: 'ok', explanation: 'it may go', until: null },
      { type: 'status', at: T0 + HOUR, status: 'sent', errorCode: null },
      { type: 'status', at: T0 + HOUR + 5, status: 'delivered', errorCode: null },
    ]);
    // The newest of each kind when there are more than `limit`.
    expect((await store.messageHistory(a.id, 1)).map((e) => e.at)).toEqual([T0 + HOUR, T0 + HOUR + 5]);
    // An event stored before events named their row is found by the row's wamid.
    await store.recordIntent(b.id, 'w', T0);
    await store.recordAccepted(b.id, 'w', 'wamid.B', T0);
    await store.appendMessageEvent({ wamid: 'wamid.B', status: 'failed', at: T0 + 9, errorCode: 131026, inboxId: null }, T0);
    expect(await store.messageHistory(b.id, 50)).toEqual([
      { type: 'decision', at: T0, kind: 'send', reason: 'ok', explanation: 'it may go', until: null },
      { type: 'status', at: T0 + 9, status: 'failed', errorCode: 131026 },
    ]);
    expect(await store.messageHistory(999_999, 50)).toEqual([]);
  });

  it("pages a campaign's recipients by row id without duplicates or gaps, with filters and each latest decision", async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 7);
    const other = await seedCampaign(store, T0, 0);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    // Another campaign's rows, interleaved by id, never show.
    const [row0] = seed.rows(() => T0);
    if (row0 === undefined) throw new Error('a row expected');
    await store.insertOutbox([{ ...row0, campaignId: other.campaignId }], T0);
    const rows = await store.claimDue({ owner: 'w', now: T0, leaseMs: MINUTE, limit: 3 });
    const [first, second, third] = rows.filter((r) => r.campaignId === seed.campaignId);
    if (first === undefined || second === undefined || third === undefined) throw new Error('three rows expected');
    await store.appendDecisions([
      {
        outboxId: first.id,
        contactId: first.contactId,
        kind: 'defer',
        reason: 'frequency_cap',
        explanation: 'x',
        until: T0 + HOUR,
        at: T0,
      },
    ]);
    await store.appendDecisions([
      { outboxId: first.id, contactId: first.contactId, kind: 'skip', reason: 'no_consent', explanation: 'y', until: null, at: T0 + 1 },
    ]);
    await store.complete(first.id, 'w', 'skipped', T0 + 1);
    await store.reschedule(second.id, 'w', { status: 'held', until: null, capAttempt: false, errorCode: 130472 }, T0);
    const seen: number[] = [];
    for (let after = 0; ;) {
      const page = await store.campaignRecipients({ campaignId: seed.campaignId, afterId: after, limit: 3 });
      if (page.length === 0) break;
      seen.push(...page.map((r) => r.id));
      after = page[page.length - 1]?.id ?? Infinity;
    }
    const all = await store.campaignRecipients({ campaignId: seed.campaignId, afterId: 0, limit: 100 });
    expect(all.map((r) => r.id)).toEqual([...all.map((r) => r.id)].sort((x, y) => x - y));
    expect(seen).toEqual(all.map((r) => r.id));
    expect(new Set(seen).size).toBe(7);
    expect(all.map((r) => r.contactId).sort((x, y) => x - y)).toEqual([...seed.contactIds].sort((x, y) => x - y));
    expect(all.find((r) => r.id === first.id)).toMatchObject({
      status: 'done',
      outcome: 'skipped',
      waId: expect.stringMatching(/^1555000/) as string,
      latestDecision: { kind: 'skip', reason: 'no_consent', until: null, at: T0 + 1 },
    });
    expect(all.find((r) => r.id === second.id)).toMatchObject({
      status: 'held',
      outcome: null,
      lastErrorCode: 130472,
      latestDecision: null,
    });
    expect(
      (await store.campaignRecipients({ campaignId: seed.campaignId, afterId: 0, limit: 100, status: 'held' })).map((r) => r.id),
    ).toEqual([second.id]);
    expect(
      (await store.campaignRecipients({ campaignId: seed.campaignId, afterId: 0, limit: 100, outcome: 'skipped' })).map((r) => r.id),
    ).toEqual([first.id]);
    expect(
      await store.campaignRecipients({ campaignId: seed.campaignId, afterId: 0, limit: 100, status: 'queued', outcome: 'skipped' }),
    ).toEqual([]);
    expect(await store.campaignRecipients({ campaignId: 999_999, afterId: 0, limit: 100 })).toEqual([]);
  });

  it('schedules a draft, clears it, and leaves a campaign that started alone', async () => {
    const store = await backend.open();
    const draft = await seedCampaign(store, T0, 0, 'draft');
    expect(await store.setDraftSchedule(draft.campaignId, T0 + HOUR, T0 + 5)).toBe(true);
    expect(await store.getCampaign(draft.campaignId)).toMatchObject({ scheduledAt: T0 + HOUR, updatedAt: T0 + 5, status: 'draft' });
    expect(await store.setDraftSchedule(draft.campaignId, null, T0 + 6)).toBe(true);
    expect(await store.getCampaign(draft.campaignId)).toMatchObject({ scheduledAt: null });
    const running = await seedCampaign(store, T0, 0, 'running');
    expect(await store.setDraftSchedule(running.campaignId, T0 + HOUR, T0 + 7)).toBe(false);
    expect(await store.getCampaign(running.campaignId)).toMatchObject({ scheduledAt: null, updatedAt: T0 });
    expect(await store.setDraftSchedule(999_999, T0, T0)).toBe(false);
  });
});
