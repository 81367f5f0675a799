import { describe, expect, it } from 'vitest';
import { HOUR } from '../src/core/time.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

describe.each(BACKENDS)('Store contract: webhook inbox, events, audit ($name)', (backend) => {
  it('keeps raw webhook bytes exactly, in order, until processed or quarantined', async () => {
    const store = await backend.open();
    // Not valid UTF-8 and not JSON: the inbox stores bytes, not text.
    const odd = Uint8Array.from([0x7b, 0xff, 0x00, 0xc3, 0x28, 0x7d]);
    const first = await store.appendInbox({ raw: odd, receivedAt: T0, signatureOk: false });
    const batch = await store.appendInboxBatch(
      ['a', 'b', 'c'].map((body, i) => ({ raw: Buffer.from(`{"n":"${body}"}`), receivedAt: T0 + i + 1, signatureOk: true })),
    );
    expect(batch).toHaveLength(3);
    expect([first, ...batch]).toEqual([...[first, ...batch]].sort((x, y) => x - y));
    expect(await store.appendInboxBatch([])).toEqual([]);

    const pending = await store.listUnprocessedInbox(0, 10);
    expect(pending.map((r) => r.id)).toEqual([first, ...batch]);
    expect(Buffer.from(pending[0]?.raw ?? []).equals(Buffer.from(odd))).toBe(true);
    expect(pending[0]).toMatchObject({ signatureOk: false, receivedAt: T0, processedAt: null, quarantineReason: null });
    expect(Buffer.from(pending[2]?.raw ?? []).toString()).toBe('{"n":"b"}');
    expect(pending[2]?.signatureOk).toBe(true);

    await store.markInboxProcessed([batch[0] ?? -1, batch[2] ?? -1], T0 + HOUR);
    await store.quarantineInbox(first, 'entry[0].changes[0].value: unknown field shape', T0 + HOUR);
    expect((await store.listUnprocessedInbox(0, 10)).map((r) => r.id)).toEqual([batch[1]]);
    expect(await store.listUnprocessedInbox(batch[1] ?? 0, 10)).toEqual([]);
  });

  it('pages through unprocessed rows after an id', async () => {
    const store = await backend.open();
    const ids = await store.appendInboxBatch(
      Array.from({ length: 5 }, (_, i) => ({ raw: Buffer.from([i]), receivedAt: T0, signatureOk: true })),
    );
    const page1 = await store.listUnprocessedInbox(0, 2);
    const page2 = await store.listUnprocessedInbox(page1.at(-1)?.id ?? 0, 2);
    const page3 = await store.listUnprocessedInbox(page2.at(-1)?.id ?? 0, 2);
    expect([...page1, ...page2, ...page3].map((r) => r.id)).toEqual(ids);
  });

  it('appends a message event once per (wamid, status) and says whether it was new', async () => {
    const store = await backend.open();
    const inboxId = await store.appendInbox({ raw: Buffer.from('{}'), receivedAt: T0, signatureOk: true });
    const sent = { wamid: 'wamid.X', status: 'sent', at: T0, errorCode: null, inboxId } as const;
    expect(await store.appendMessageEvent(sent, T0)).toEqual({ inserted: true });
    expect(await store.appendMessageEvent({ ...sent, at: T0 + 5 }, T0 + 10)).toEqual({ inserted: false });
    expect(await store.appendMessageEvent({ ...sent, status: 'failed', errorCode: 131049 }, T0)).toEqual({ inserted: true });
    expect(await store.appendMessageEvent({ ...sent, wamid: 'wamid.Y', inboxId: null }, T0)).toEqual({ inserted: true });
  });

  it('builds a contact timeline from consent, decisions and delivery events, newest first', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 1);
    const contactId = seed.contactIds[0] ?? -1;
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [row] = await store.claimDue({ owner: 'w', now: T0 + 2, leaseMs: HOUR, limit: 1 });
    const outboxId = row?.id ?? -1;
    await store.setConsent(contactId, { category: 'marketing', status: 'granted', source: 'import', evidence: null, at: T0 }, T0);
    await store.appendDecisions([
      {
        outboxId,
        contactId,
        kind: 'defer',
        reason: 'marketing_cool_off',
        explanation: 'Cooling off after 131049.',
        until: T0 + 24 * HOUR,
        at: T0 + 1,
      },
      { outboxId, contactId, kind: 'send', reason: 'eligible', explanation: 'Consent granted, no cool-off.', until: null, at: T0 + 2 },
    ]);
    await store.recordIntent(outboxId, 'w', T0 + 2);
    await store.recordAccepted(outboxId, 'w', 'wamid.T', T0 + 3);
    await store.appendMessageEvent({ wamid: 'wamid.T', status: 'delivered', at: T0 + 4, errorCode: null, inboxId: null }, T0 + 4);
    await store.appendMessageEvent({ wamid: 'wamid.other', status: 'delivered', at: T0 + 5, errorCode: null, inboxId: null }, T0 + 5);

    const timeline = await store.contactTimeline(contactId, 10);
    expect(timeline).toEqual([
      { type: 'message_event', at: T0 + 4, outboxId, wamid: 'wamid.T', status: 'delivered', errorCode: null },
      { type: 'decision', at: T0 + 2, outboxId, kind: 'send', reason: 'eligible', explanation: 'Consent granted, no cool-off.' },
      { type: 'decision', at: T0 + 1, outboxId, kind: 'defer', reason: 'marketing_cool_off', explanation: 'Cooling off after 131049.' },
      { type: 'consent', at: T0, category: 'marketing', status: 'granted', source: 'import' },
    ]);
    expect(await store.contactTimeline(contactId, 2)).toHaveLength(2);
    await store.appendDecisions([]);
  });

  it('counts a campaign by status and by outcome', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 4);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const [a, b, c] = await store.claimDue({ owner: 'w', now: T0, leaseMs: HOUR, limit: 3 });
    await store.recordIntent(a?.id ?? -1, 'w', T0);
    await store.recordAccepted(a?.id ?? -1, 'w', 'wamid.1', T0);
    await store.recordDelivery({ wamid: 'wamid.1', outboxId: null }, 'delivered', null, T0);
    await store.complete(b?.id ?? -1, 'w', 'capped_exhausted', T0);
    await store.reschedule(c?.id ?? -1, 'w', { status: 'held', until: null, capAttempt: false, errorCode: 130472 }, T0);
    expect(await store.campaignCounters(seed.campaignId)).toEqual({
      total: 4,
      queued: 1,
      held: 1,
      leased: 0,
      sending: 0,
      sent: 1,
      done: 1,
      unknown: 0,
      accepted: 0,
      delivered: 1,
      read: 0,
      failed: 0,
      skipped: 0,
      capped_exhausted: 1,
      cancelled: 0,
    });
    expect((await store.campaignCounters(seed.campaignId + 99)).total).toBe(0);
  });
});
