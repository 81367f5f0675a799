import { describe, expect, it } from 'vitest';
import { EMPTY_CONTACT_STATE } from '../src/core/contact-state.js';
import { DAY, HOUR, MINUTE } from '../src/core/time.js';
import type { DeliveryStatus } from '../src/core/contact-event.js';
import type { DiagnosisScope, OutboxRow, Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign, seedClaimed } from './store-seed.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

async function send(store: Store, row: OutboxRow, wamid: string, at: number): Promise<void> {
  await store.appendDecisions([
    { outboxId: row.id, contactId: row.contactId, kind: 'send', reason: 'ok', explanation: 'sent', until: null, at },
  ]);
  expect(await store.recordIntent(row.id, 'w', at)).toBe(true);
  expect(await store.recordAccepted(row.id, 'w', wamid, at)).toBe(true);
}

async function status(
  store: Store,
  row: OutboxRow,
  wamid: string,
  s: DeliveryStatus,
  at: number,
  errorCode: number | null = null,
): Promise<void> {
  await store.appendMessageEvent({ wamid, status: s, at, errorCode, inboxId: null, outboxId: row.id }, at);
  await store.recordDelivery({ wamid, outboxId: row.id }, s, errorCode, at);
}

/**
 * Six campaign recipients and one one-off: c0 read (and wrote in), c1 delivered (then stopped
 * marketing), c2 capped twice, c3 undeliverable, c4 accepted and never delivered although its order
 * update was, c5 refused at send time with 131048.
 */
async function world(store: Store) {
  const seed = await seedCampaign(store, T0, 6);
  await store.insertOutbox(
    seed.rows(() => T0),
    T0,
  );
  const [c0, c1, c2, c3, c4, c5] = seed.contactIds as [number, number, number, number, number, number];
  await store.insertOutbox(
    [
      {
        campaignId: null,
        contactId: c4,
        senderId: seed.senderId,
        category: 'utility',
        intent: { template: 'order', language: 'en' },
        idempotencyKey: 'order-c4',
        nextAttemptAt: T0,
      },
    ],
    T0,
  );
  const rows = await store.claimDue({ owner: 'w', now: T0, leaseMs: HOUR, limit: 10 });
  expect(rows).toHaveLength(7);
  const byContact = (id: number, campaign: boolean) =>
    rows.find((r) => r.contactId === id && (r.campaignId !== null) === campaign) as OutboxRow;
  const at = T0 + MINUTE;
  for (const [i, c] of [c0, c1, c2, c3, c4].entries()) await send(store, byContact(c, true), `w.${i}`, at);
  await send(store, byContact(c4, false), 'w.order', at);
  await status(store, byContact(c0, true), 'w.0', 'read', at + MINUTE);
  await status(store, byContact(c1, true), 'w.1', 'delivered', at + MINUTE);
  await status(store, byContact(c2, true), 'w.2', 'failed', at + MINUTE, 131049);
  await status(store, byContact(c3, true), 'w.3', 'failed', at + MINUTE, 131026);
  await status(store, byContact(c4, false), 'w.order', 'delivered', at + MINUTE);
  // c5: refused by the send call itself, back in line with the code.
  const r5 = byContact(c5, true);
  await store.appendDecisions([{ outboxId: r5.id, contactId: c5, kind: 'send', reason: 'ok', explanation: 'sent', until: null, at }]);
  await store.recordIntent(r5.id, 'w', at);
  expect(await store.reschedule(r5.id, 'w', { status: 'queued', until: T0 + DAY * 9, capAttempt: false, errorCode: 131048 }, at)).toBe(
    true,
  );
  // c2: retried a day later and capped again.
  const r2 = byContact(c2, true);
  expect(await store.requeue(r2.id, { status: 'queued', until: T0 + DAY, capAttempt: true, errorCode: 131049 }, at + MINUTE)).toBe(true);
  const [again] = await store.claimDue({ owner: 'w', now: T0 + DAY, leaseMs: HOUR, limit: 1 });
  expect(again?.id).toBe(r2.id);
  await send(store, r2, 'w.2b', T0 + DAY);
  await status(store, r2, 'w.2b', 'failed', T0 + DAY + MINUTE, 131049);

  await store.setConsent(c2, { category: 'marketing', status: 'granted', source: 'import', evidence: null, at: T0 - DAY }, T0);
  await store.setConsent(c3, { category: 'marketing', status: 'revoked', source: 'form', evidence: null, at: T0 - DAY }, T0);
  await store.saveContactState(c0, { ...EMPTY_CONTACT_STATE, lastInboundAt: T0 + HOUR }, 0, T0);
  const stop = { eventId: 'pref-1', type: 'preference' as const, at: T0 + HOUR, detail: 'stop' };
  await store.saveContactState(c1, { ...EMPTY_CONTACT_STATE, marketing: { ...EMPTY_CONTACT_STATE.marketing, stopped: stop } }, 0, T0);
  const keyword = { eventId: 'in-1', type: 'inbound' as const, at: T0 - 2 * DAY, detail: 'keyword:stop' };
  await store.saveContactState(c3, { ...EMPTY_CONTACT_STATE, marketing: { ...EMPTY_CONTACT_STATE.marketing, stopped: keyword } }, 0, T0);
  return { seed, contacts: [c0, c1, c2, c3, c4, c5] };
}

const scope = (over: Partial<DiagnosisScope> = {}): DiagnosisScope => ({
  campaignId: null,
  since: T0,
  until: T0 + 2 * DAY,
  capCodes: [131049],
  repeatedFailures: 2,
  silentBefore: T0 + DAY,
  ...over,
});

describe.each(BACKENDS)('Store contract: diagnosis facts ($name)', (backend) => {
  it('counts sends, failures by code and how failures spread over recipients', async () => {
    const store = await backend.open();
    await world(store);
    expect(await store.diagnosisSends(scope())).toEqual({
      messages: 7,
      recipients: 6,
      attempts: 8,
      failures: [
        { code: 131026, messages: 1, recipients: 1 },
        { code: 131048, messages: 1, recipients: 1 },
        { code: 131049, messages: 1, recipients: 1 },
      ],
      failing: { recipients: 3, attempts: 4, repeated: 1, worst: 2 },
    });
    // The day before holds nothing; the window's end is exclusive.
    expect(await store.diagnosisSends(scope({ since: T0 - DAY, until: T0 }))).toMatchObject({
      messages: 0,
      recipients: 0,
      attempts: 0,
      failures: [],
      failing: { recipients: 0, attempts: 0, repeated: 0, worst: 0 },
    });
    // Only the retry day: c2's second attempt.
    expect(await store.diagnosisSends(scope({ since: T0 + DAY }))).toMatchObject({
      messages: 1,
      attempts: 1,
      failures: [{ code: 131049, messages: 1, recipients: 1 }],
    });
    expect(await store.sendAttempts(T0, T0 + 2 * DAY)).toBe(8);
    expect(await store.sendAttempts(T0 + DAY, T0 + 2 * DAY)).toBe(1);
  });

  it('scopes to one campaign: one-off messages and other campaigns stay out', async () => {
    const store = await backend.open();
    const { seed } = await world(store);
    expect(await store.diagnosisSends(scope({ campaignId: seed.campaignId }))).toMatchObject({ messages: 6, recipients: 6, attempts: 7 });
    expect(await store.diagnosisSends(scope({ campaignId: seed.campaignId + 1 }))).toMatchObject({ messages: 0, attempts: 0 });
  });

  it('breaks the scope down per template with stops and the block proxy', async () => {
    const store = await backend.open();
    const { seed } = await world(store);
    expect(await store.diagnosisTemplates(scope())).toEqual([
      {
        templateId: seed.templateId,
        category: 'marketing',
        messages: 6,
        recipients: 6,
        delivered: 2,
        read: 1,
        failed: 3,
        capped: 1,
        stopped: 1,
        silent: 1,
      },
      {
        templateId: null,
        category: 'utility',
        messages: 1,
        recipients: 1,
        delivered: 1,
        read: 0,
        failed: 0,
        capped: 0,
        stopped: 0,
        silent: 0,
      },
    ]);
    expect(await store.diagnosisCampaigns(scope())).toEqual([
      {
        campaignId: seed.campaignId,
        category: 'marketing',
        messages: 6,
        recipients: 6,
        delivered: 2,
        read: 1,
        failed: 3,
        capped: 1,
        stopped: 1,
        silent: 1,
      },
    ]);
    // Accepted too recently to call it silent; no cap codes configured means nothing counts as capped.
    expect(await store.diagnosisTemplates(scope({ silentBefore: T0, capCodes: [] }))).toMatchObject([
      { capped: 0, silent: 0, failed: 3 },
      { silent: 0 },
    ]);
  });

  it('counts a stop for the last marketing message the recipient got before it', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 2);
    const [otherTemplate = -1] = await store.upsertTemplates(
      [{ name: 'blast', language: 'en', category: 'marketing', status: 'approved', quality: null, pausedUntil: null }],
      T0,
    );
    const other = await store.createCampaign(
      {
        name: 'blast',
        templateId: otherTemplate,
        senderId: seed.senderId,
        segment: {},
        scheduledAt: null,
        policyPreset: 'meta',
        status: 'running',
      },
      T0,
    );
    await store.insertOutbox([...seed.rows(() => T0), ...seed.rows(() => T0).map((r) => ({ ...r, campaignId: other }))], T0);
    const rows = await store.claimDue({ owner: 'w', now: T0, leaseMs: 3 * HOUR, limit: 4 });
    // Both recipients get promo first and blast an hour later; the first stops after blast, the second between the two.
    for (const [i, row] of rows.entries()) await send(store, row, `w.${i}`, row.campaignId === other ? T0 + HOUR : T0);
    const [first, second] = seed.contactIds as [number, number];
    const stopAt = (at: number) => ({
      ...EMPTY_CONTACT_STATE,
      marketing: { ...EMPTY_CONTACT_STATE.marketing, stopped: { eventId: `s${at}`, type: 'preference' as const, at, detail: 'stop' } },
    });
    await store.saveContactState(first, stopAt(T0 + 2 * HOUR), 0, T0);
    await store.saveContactState(second, stopAt(T0 + 30 * MINUTE), 0, T0);
    const perTemplate = await store.diagnosisTemplates(scope());
    expect(perTemplate.map((t) => [t.templateId, t.messages, t.stopped])).toEqual([
      [seed.templateId, 2, 1],
      [otherTemplate, 2, 1],
    ]);
    // Per campaign the same counts, one-off messages left out.
    expect((await store.diagnosisCampaigns(scope())).map((c) => [c.campaignId, c.messages, c.stopped])).toEqual([
      [seed.campaignId, 2, 1],
      [other, 2, 1],
    ]);
    // Within blast's campaign alone, only the stop that came after a blast message counts.
    expect((await store.diagnosisTemplates(scope({ campaignId: other }))).map((t) => t.stopped)).toEqual([1]);
    expect((await store.diagnosisTemplates(scope({ campaignId: seed.campaignId }))).map((t) => t.stopped)).toEqual([2]);
  });

  it('reads the consent of the recipients that failed and what the audience did', async () => {
    const store = await backend.open();
    await world(store);
    expect(await store.diagnosisAudience(scope())).toEqual({
      consent: { recipients: 3, granted: 1, revoked: 1, unknown: 1, sources: [{ source: 'import', recipients: 1 }] },
      replied: 1,
      stopped: 1,
      stopKinds: [{ kind: 'user_preferences', recipients: 1 }],
    });
    // Stops before the window do not count; with the window widened, c3's keyword stop does.
    expect(await store.diagnosisAudience(scope({ since: T0 - 3 * DAY }))).toMatchObject({
      stopped: 2,
      stopKinds: [
        { kind: 'keyword', recipients: 1 },
        { kind: 'user_preferences', recipients: 1 },
      ],
    });
  });

  it('reads the consent of everyone in scope when nobody failed', async () => {
    const store = await backend.open();
    const seed = await seedClaimed(store, T0, 2);
    const rows = seed.claimed;
    for (const [i, row] of rows.entries()) await send(store, row, `w.${i}`, T0);
    await store.setConsent(
      seed.contactIds[0] ?? -1,
      { category: 'marketing', status: 'granted', source: 'checkout', evidence: 'box ticked', at: T0 - DAY },
      T0,
    );
    expect((await store.diagnosisAudience(scope())).consent).toEqual({
      recipients: 2,
      granted: 1,
      revoked: 0,
      unknown: 1,
      sources: [{ source: 'checkout', recipients: 1 }],
    });
    expect(await store.diagnosisAudience(scope())).toMatchObject({ replied: 0, stopped: 0, stopKinds: [] });
  });
});
