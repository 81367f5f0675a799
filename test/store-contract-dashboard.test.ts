import { describe, expect, it } from 'vitest';
import { applyAccountUpdate, applyBusinessCapability, applyPhoneQuality } from '../src/app/apply-account-signals.js';
import { DAY, HOUR, MINUTE } from '../src/core/time.js';
import type { Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const SOURCE = { wabaId: 'waba-1', phoneNumberId: 'pn-1' };

/**
 * Seven recipients, one in each place the dashboard shows: delivered on the first send, read and
 * replied, delivered on the first retry, failed (131026), skipped, held, and a pending cap retry.
 */
async function seedOutcomes(store: Store) {
  const seed = await seedCampaign(store, T0, 7);
  await store.insertOutbox(
    seed.rows(() => T0),
    T0,
  );
  const claimed = await store.claimDue({ owner: 'w', now: T0, leaseMs: HOUR, limit: 7 });
  const ids = claimed.map((r) => r.id);
  const [r0, r1, r2, r3, r4, r5, r6] = ids.map((id) => id);
  const send = async (id: number | undefined, wamid: string, at: number) => {
    await store.recordIntent(id ?? -1, 'w', at);
    await store.recordAccepted(id ?? -1, 'w', wamid, at);
  };
  await send(r0, 'wamid.0', T0);
  await store.recordDelivery({ wamid: 'wamid.0', outboxId: r0 ?? -1 }, 'delivered', null, T0 + MINUTE);
  await send(r1, 'wamid.1', T0);
  await store.recordDelivery({ wamid: 'wamid.1', outboxId: r1 ?? -1 }, 'read', null, T0 + MINUTE);
  await send(r2, 'wamid.2a', T0);
  await store.recordDelivery({ wamid: 'wamid.2a', outboxId: r2 ?? -1 }, 'failed', 131049, T0 + MINUTE);
  await store.requeue(r2 ?? -1, { status: 'queued', until: T0 + HOUR, capAttempt: true, errorCode: 131049 }, T0 + MINUTE);
  await store.recordIntent(r3 ?? -1, 'w', T0);
  await store.fail(r3 ?? -1, 'w', 131026, T0);
  await store.complete(r4 ?? -1, 'w', 'skipped', T0);
  await store.reschedule(r5 ?? -1, 'w', { status: 'held', until: null, capAttempt: false, errorCode: null }, T0);
  await send(r6, 'wamid.6', T0);
  await store.recordDelivery({ wamid: 'wamid.6', outboxId: r6 ?? -1 }, 'failed', 131049, T0 + MINUTE);
  await store.requeue(r6 ?? -1, { status: 'queued', until: T0 + 2 * DAY, capAttempt: true, errorCode: 131049 }, T0 + MINUTE);
  // The first retry of r2 is delivered.
  const [again] = await store.claimDue({ owner: 'w', now: T0 + HOUR, leaseMs: HOUR, limit: 7 });
  expect(again?.id).toBe(r2);
  await send(r2, 'wamid.2b', T0 + HOUR);
  await store.recordDelivery({ wamid: 'wamid.2b', outboxId: r2 ?? -1 }, 'delivered', null, T0 + HOUR + MINUTE);
  // Contact of r1 replies after the campaign queued it; contact of r0 wrote only before.
  const contactOf = (id: number | undefined) => claimed.find((r) => r.id === id)?.contactId ?? -1;
  await store.recordInbound({ contactId: contactOf(r1), wamid: 'in.1', type: 'text', text: 'Yes please', at: T0 + 2 * MINUTE }, T0);
  await store.recordInbound({ contactId: contactOf(r0), wamid: 'in.0', type: 'text', text: 'earlier', at: T0 - DAY }, T0);
  return { seed, ids, contactOf };
}

describe.each(BACKENDS)('Store contract: dashboard history and aggregates ($name)', (backend) => {
  it('counts the delivery funnel of one campaign and of all campaigns', async () => {
    const store = await backend.open();
    const { seed } = await seedOutcomes(store);
    const expected = { audience: 7, eligible: 6, attempted: 5, accepted: 3, held: 1, delivered: 3, read: 1, replied: 1 };
    expect(await store.deliveryFunnel(seed.campaignId)).toEqual(expected);
    expect(await store.deliveryFunnel(null)).toEqual(expected);
    expect(await store.deliveryFunnel(seed.campaignId + 100)).toEqual({
      audience: 0,
      eligible: 0,
      attempted: 0,
      accepted: 0,
      held: 0,
      delivered: 0,
      read: 0,
      replied: 0,
    });
  });

  it('groups settled failures by time bucket and code', async () => {
    const store = await backend.open();
    const { seed } = await seedOutcomes(store);
    expect(await store.failuresByCode(null, T0 - DAY, HOUR)).toEqual([{ bucketStart: T0, code: 131026, count: 1 }]);
    expect(await store.failuresByCode(seed.campaignId, T0 - DAY, DAY)).toEqual([
      { bucketStart: Math.floor(T0 / DAY) * DAY, code: 131026, count: 1 },
    ]);
    expect(await store.failuresByCode(seed.campaignId + 100, T0 - DAY, HOUR)).toEqual([]);
    expect(await store.failuresByCode(null, T0 + 1, HOUR)).toEqual([]);
    await expect(store.failuresByCode(null, T0, 0)).rejects.toThrow(/bucketMs must be a positive/);
  });

  it('breaks a campaign down by status, outcome and code, and reads the retry recovery curve', async () => {
    const store = await backend.open();
    const { seed } = await seedOutcomes(store);
    const breakdown = await store.outboxBreakdown(seed.campaignId);
    expect(breakdown).toEqual(
      expect.arrayContaining([
        { status: 'done', outcome: 'failed', code: 131026, count: 1 },
        { status: 'done', outcome: 'skipped', code: null, count: 1 },
        { status: 'held', outcome: null, code: null, count: 1 },
        { status: 'queued', outcome: null, code: 131049, count: 1 },
        { status: 'sent', outcome: 'delivered', code: null, count: 2 },
        { status: 'sent', outcome: 'read', code: null, count: 1 },
      ]),
    );
    expect(breakdown.reduce((n, r) => n + r.count, 0)).toBe(7);
    expect(await store.retryRecovery(seed.campaignId)).toEqual({
      deliveredByAttempt: [
        { attempts: 1, count: 2 },
        { attempts: 2, count: 1 },
      ],
      exhausted: 0,
    });
    await store.settle(
      (await store.listOutboxRows({ campaignId: seed.campaignId, kind: 'retry', afterId: 0, limit: 5 }))[0]?.id ?? -1,
      'capped_exhausted',
      131049,
      T0 + 2 * DAY,
    );
    expect((await store.retryRecovery(seed.campaignId)).exhausted).toBe(1);
  });

  it('names why skipped rows were skipped, from their skip decision only', async () => {
    const store = await backend.open();
    const { seed, ids, contactOf } = await seedOutcomes(store);
    expect(await store.skipReasons(seed.campaignId)).toEqual([]);
    const [, , , r3, r4] = ids;
    const decision = (id: number | undefined, kind: 'skip' | 'send', reason: string) => ({
      outboxId: id ?? -1,
      contactId: contactOf(id),
      kind,
      reason,
      explanation: 'x',
      until: null,
      at: T0,
    });
    await store.appendDecisions([decision(r4, 'skip', 'marketing_stopped'), decision(r3, 'send', 'eligible')]);
    expect(await store.skipReasons(seed.campaignId)).toEqual([{ reason: 'marketing_stopped', count: 1 }]);
    expect(await store.skipReasons(seed.campaignId + 100)).toEqual([]);
  });

  it('counts attempted rows per template by outcome and code', async () => {
    const store = await backend.open();
    const { seed } = await seedOutcomes(store);
    expect(await store.templateOutcomes()).toEqual([
      { templateId: seed.templateId, outcome: null, code: 131049, count: 1 },
      { templateId: seed.templateId, outcome: 'delivered', code: null, count: 2 },
      { templateId: seed.templateId, outcome: 'failed', code: 131026, count: 1 },
      { templateId: seed.templateId, outcome: 'read', code: null, count: 1 },
    ]);
  });

  it('pages pending retries and held rows by id with the contact name', async () => {
    const store = await backend.open();
    const { seed, ids } = await seedOutcomes(store);
    await store.upsertContacts([{ waId: '15550000005', name: 'Ana <b>' }], T0);
    const held = await store.listOutboxRows({ campaignId: seed.campaignId, kind: 'held', afterId: 0, limit: 10 });
    expect(held).toMatchObject([{ id: ids[5], status: 'held', attempts: 0, contactName: 'Ana <b>' }]);
    const retries = await store.listOutboxRows({ campaignId: seed.campaignId, kind: 'retry', afterId: 0, limit: 10 });
    expect(retries).toMatchObject([
      { id: ids[6], status: 'queued', attempts: 1, capAttempts: 1, nextAttemptAt: T0 + 2 * DAY, lastErrorCode: 131049 },
    ]);
    expect(await store.listOutboxRows({ campaignId: seed.campaignId, kind: 'held', afterId: ids[5] ?? 0, limit: 10 })).toEqual([]);
  });

  it('keeps inbound messages once per wamid, newest first', async () => {
    const store = await backend.open();
    const { contactOf, ids } = await seedOutcomes(store);
    const contactId = contactOf(ids[1]);
    expect(await store.recordInbound({ contactId, wamid: 'in.1', type: 'text', text: 'again', at: T0 }, T0)).toEqual({ inserted: false });
    expect(await store.recordInbound({ contactId, wamid: 'in.2', type: 'button', text: 'Stop promotions', at: T0 + HOUR }, T0)).toEqual({
      inserted: true,
    });
    expect((await store.contactInbound(contactId, 10)).map((m) => [m.wamid, m.type, m.text])).toEqual([
      ['in.2', 'button', 'Stop promotions'],
      ['in.1', 'text', 'Yes please'],
    ]);
    expect(await store.contactInbound(contactId, 1)).toHaveLength(1);
  });

  it('records sender changes from account signals, only when something changed', async () => {
    const store = await backend.open();
    const { seed } = await seedOutcomes(store);
    const quality = (event: string, at: number) => ({
      kind: 'phone_quality' as const,
      source: SOURCE,
      path: 'entry[0]',
      at,
      displayPhoneNumber: null,
      event,
      currentLimit: null,
      oldLimit: null,
      maxDailyConversations: null,
    });
    expect(await applyPhoneQuality(store, quality('FLAGGED', T0 + HOUR), T0 + HOUR, () => undefined)).toMatchObject({ id: seed.senderId });
    await applyPhoneQuality(store, quality('FLAGGED', T0 + 2 * HOUR), T0 + 2 * HOUR, () => undefined); // no change: no row
    await applyPhoneQuality(store, quality('UNFLAGGED', T0 + 3 * HOUR), T0 + 3 * HOUR, () => undefined);
    await applyAccountUpdate(
      store,
      {
        kind: 'account_update',
        source: SOURCE,
        path: 'entry[0]',
        at: T0 + 4 * HOUR,
        event: 'ACCOUNT_RESTRICTION',
        restrictions: [{ type: 'RESTRICTED_ADD_PHONE_NUMBER_ACTION', expiresAt: null, remediation: null }],
        violationType: null,
        banState: null,
        banDate: null,
        details: {},
      },
      T0 + 4 * HOUR,
      () => undefined,
    );
    const capability = {
      kind: 'business_capability' as const,
      source: SOURCE,
      path: 'entry[0]',
      at: T0 + 5 * HOUR,
      maxDailyConversations: 'TIER_10K',
      maxDailyConversationsPerPhone: null,
      maxPhoneNumbers: null,
    };
    await applyBusinessCapability(store, capability, T0 + 5 * HOUR, () => undefined);
    await applyBusinessCapability(store, { ...capability, at: T0 + 6 * HOUR }, T0 + 6 * HOUR, () => undefined); // same limit: no row
    const changes = await store.senderChanges(seed.senderId, 0, 10);
    expect(changes.map((c) => [c.at, c.qualityRating, c.messagingLimitTier, c.state, c.source])).toEqual([
      [T0 + HOUR, 'FLAGGED', null, 'ok', 'phone_quality FLAGGED'],
      [T0 + 3 * HOUR, 'GREEN', null, 'ok', 'phone_quality UNFLAGGED'],
      [T0 + 4 * HOUR, 'GREEN', null, 'stopped', 'account_update ACCOUNT_RESTRICTION'],
      [T0 + 5 * HOUR, 'GREEN', 'TIER_10K', 'stopped', 'business_capability_update'],
    ]);
    expect(changes[2]?.stateReason).toMatch(/ACCOUNT_RESTRICTION/);
    // The latest two, oldest first; and nothing before `since`.
    expect((await store.senderChanges(seed.senderId, 0, 2)).map((c) => c.at)).toEqual([T0 + 4 * HOUR, T0 + 5 * HOUR]);
    expect(await store.senderChanges(seed.senderId, T0 + 6 * HOUR, 10)).toEqual([]);
  });
});
