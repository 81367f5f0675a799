import { describe, expect, it } from 'vitest';
import type { NewOutboundEvent } from '../src/core/outbound-event.js';
import { DAY, HOUR, MINUTE, SECOND } from '../src/core/time.js';
import type { ClaimedDelivery, DeliveryOutcome, EventSubscriptionInput, Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const LEASE = MINUTE;
const ALL: EventSubscriptionInput = {
  url: 'https://crm.example.com/pacer',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  eventTypes: ['*'],
  campaignId: null,
  phoneNumberId: null,
  description: null,
};

const event = (contactId: number | null, n: number, occurredAt = T0): NewOutboundEvent => ({
  type: contactId === null ? 'campaign.paused' : 'message.delivered',
  occurredAt,
  contactId,
  campaignId: 7,
  phoneNumberId: '1001',
  data: { n },
});

const claim = (store: Store, now: number, limit = 100, owner = 'w1') => store.claimEventDeliveries({ owner, now, leaseMs: LEASE, limit });
const numbers = (claimed: readonly ClaimedDelivery[]) => claimed.map((c) => c.event.data['n']);

function settle(store: Store, c: ClaimedDelivery | undefined, at: number, outcome: DeliveryOutcome, owner = 'w1') {
  if (c === undefined) throw new Error('nothing claimed');
  const ok = outcome.kind === 'delivered';
  const attempt = { at, durationMs: 12, statusCode: ok ? 200 : 503, error: ok ? null : 'HTTP 503' };
  return store.settleEventDelivery({ deliveryId: c.delivery.id, owner, attempt, outcome }, at);
}

describe.each(BACKENDS)('Store contract: event deliveries ($name)', (backend) => {
  it('claims the earliest pending delivery of each contact, with its event and where it goes', async () => {
    const store = await backend.open();
    const sub = await store.createEventSubscription(ALL, T0);
    await store.recordOutboundEvents([event(1, 1), event(2, 2), event(1, 3), event(null, 4), event(null, 5), event(2, 6)], T0);
    const first = await claim(store, T0);
    expect(numbers(first)).toEqual([1, 2, 4]);
    expect(first[0]).toMatchObject({
      delivery: { subscriptionId: sub.id, status: 'pending', attempts: 0, nextAttemptAt: T0 + LEASE },
      event: { type: 'message.delivered', contactId: 1, occurredAt: T0, data: { n: 1 } },
      subscription: { id: sub.id, url: ALL.url, secret: ALL.secret },
    });
    // The others wait behind them, claimed by nobody, however often a worker asks.
    expect(await claim(store, T0 + 1, 100, 'w2')).toEqual([]);
    expect(await claim(store, T0 + 30 * SECOND, 100, 'w2')).toEqual([]);
    // Done: the contact's next goes at once. Retried: the contact's next still waits.
    expect(await settle(store, first[0], T0 + SECOND, { kind: 'delivered' })).toBe(true);
    expect(await settle(store, first[1], T0 + SECOND, { kind: 'retry', at: T0 + 10 * SECOND })).toBe(true);
    expect(await settle(store, first[2], T0 + SECOND, { kind: 'failed' })).toBe(true);
    const second = await claim(store, T0 + 2 * SECOND);
    expect(numbers(second)).toEqual([3, 5]);
    expect(numbers(await claim(store, T0 + 10 * SECOND))).toEqual([2]);
  });

  it('keeps each attempt and the outcome: delivered, retried with the count, failed for good', async () => {
    const store = await backend.open();
    await store.createEventSubscription(ALL, T0);
    await store.recordOutboundEvents([event(1, 1), event(2, 2)], T0);
    const [a, b] = await claim(store, T0);
    await settle(store, b, T0 + SECOND, { kind: 'retry', at: T0 + 5 * SECOND });
    expect(await store.getEventDelivery(b?.delivery.id ?? -1)).toMatchObject({
      status: 'pending',
      attempts: 1,
      nextAttemptAt: T0 + 5 * SECOND,
      lastAttemptAt: T0 + SECOND,
      lastStatusCode: 503,
      lastError: 'HTTP 503',
      deliveredAt: null,
    });
    const [again] = await claim(store, T0 + 5 * SECOND);
    await settle(store, again, T0 + 6 * SECOND, { kind: 'failed' });
    await settle(store, a, T0 + 2 * SECOND, { kind: 'delivered' });
    expect(await store.getEventDelivery(a?.delivery.id ?? -1)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      deliveredAt: T0 + 2 * SECOND,
    });
    expect(await store.getEventDelivery(b?.delivery.id ?? -1)).toMatchObject({ status: 'failed', attempts: 2 });
    expect(await store.listDeliveryAttempts(b?.delivery.id ?? -1)).toEqual([
      { id: expect.any(Number) as number, deliveryId: b?.delivery.id, at: T0 + SECOND, durationMs: 12, statusCode: 503, error: 'HTTP 503' },
      {
        id: expect.any(Number) as number,
        deliveryId: b?.delivery.id,
        at: T0 + 6 * SECOND,
        durationMs: 12,
        statusCode: 503,
        error: 'HTTP 503',
      },
    ]);
    expect(await store.listDeliveryAttempts(a?.delivery.id ?? -1)).toHaveLength(1);
    expect(await store.getEventDelivery(9999)).toBeNull();
  });

  it("gives a delivery whose claim ran out to another worker; the first one's late answer is kept as an attempt only", async () => {
    const store = await backend.open();
    await store.createEventSubscription(ALL, T0);
    await store.recordOutboundEvents([event(1, 1)], T0);
    const [mine] = await claim(store, T0, 10, 'crashed');
    expect(await claim(store, T0 + LEASE - 1, 10, 'w2')).toEqual([]);
    const [theirs] = await claim(store, T0 + LEASE, 10, 'w2');
    expect(theirs?.delivery.id).toBe(mine?.delivery.id);
    expect(await settle(store, mine, T0 + LEASE + 1, { kind: 'delivered' }, 'crashed')).toBe(false);
    expect(await store.getEventDelivery(mine?.delivery.id ?? -1)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await settle(store, theirs, T0 + LEASE + 2, { kind: 'delivered' }, 'w2')).toBe(true);
    expect(await store.getEventDelivery(mine?.delivery.id ?? -1)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(await store.listDeliveryAttempts(mine?.delivery.id ?? -1)).toHaveLength(2);
  });

  it('never hands one delivery to two workers claiming at once', async () => {
    const place = backend.place();
    const a = place.open();
    await a.migrate();
    const b = place.open();
    await a.createEventSubscription(ALL, T0);
    await a.recordOutboundEvents(
      Array.from({ length: 300 }, (_, i) => event(i + 1, i)),
      T0,
    );
    const got: number[] = [];
    await Promise.all(
      [a, b, a, b].map(async (store, w) => {
        for (;;) {
          const claimed = await claim(store, T0, 7, `w${w}`);
          if (claimed.length === 0) return;
          got.push(...claimed.map((c) => c.delivery.id));
        }
      }),
    );
    expect(got).toHaveLength(300);
    expect(new Set(got).size).toBe(300);
  });

  it('sends nothing of a disabled subscription, and all it kept once enabled again', async () => {
    const store = await backend.open();
    const off = await store.createEventSubscription(ALL, T0);
    const on = await store.createEventSubscription({ ...ALL, url: 'https://other.example.com/' }, T0);
    await store.recordOutboundEvents([event(1, 1)], T0);
    await store.setEventSubscriptionEnabled(off.id, false, T0);
    const [sent, ...others] = await claim(store, T0);
    expect([sent?.subscription.id, others]).toEqual([on.id, []]);
    await settle(store, sent, T0, { kind: 'delivered' });
    expect(await claim(store, T0 + HOUR)).toEqual([]);
    await store.setEventSubscriptionEnabled(off.id, true, T0 + HOUR);
    expect((await claim(store, T0 + HOUR)).map((c) => c.subscription.id)).toEqual([off.id]);
  });

  it('replays chosen events or a time range, for one subscription or all, never a delivery in flight', async () => {
    const store = await backend.open();
    const s1 = await store.createEventSubscription(ALL, T0);
    const s2 = await store.createEventSubscription(ALL, T0);
    await store.recordOutboundEvents([event(1, 1, T0 - 2 * HOUR), event(2, 2, T0 - HOUR), event(3, 3, T0)], T0);
    for (const c of await claim(store, T0))
      await settle(store, c, T0 + 1, c.event.contactId === 3 ? { kind: 'failed' } : { kind: 'delivered' });
    const [e1, e2, e3] = [1, 2, 3];
    expect(await store.replayEventDeliveries({ eventIds: [e1], subscriptionId: s2.id }, T0 + DAY)).toBe(1);
    const replayed = await claim(store, T0 + DAY);
    expect(replayed.map((c) => [c.event.id, c.subscription.id])).toEqual([[e1, s2.id]]);
    expect(replayed[0]?.delivery).toMatchObject({ attempts: 0, createdAt: T0 + DAY });
    // In flight: left alone. The range [T0 - 1 h, T0 + 1 ms) holds events 2 and 3, on both subscriptions.
    expect(await store.replayEventDeliveries({ eventIds: [e1] }, T0 + DAY)).toBe(1);
    expect(await store.replayEventDeliveries({ from: T0 - HOUR, to: T0 + 1 }, T0 + DAY)).toBe(4);
    const ranged = await claim(store, T0 + DAY);
    expect(ranged.map((c) => [c.event.id, c.subscription.id]).sort()).toEqual([
      [e1, s1.id],
      [e2, s1.id],
      [e2, s2.id],
      [e3, s1.id],
      [e3, s2.id],
    ]);
    expect(await store.replayEventDeliveries({ eventIds: [999] }, T0)).toBe(0);
  });

  it('counts deliveries per subscription, with the oldest pending and recent give-ups, and knows when the next is due', async () => {
    const store = await backend.open();
    expect(await store.eventDeliveryTotals(T0)).toEqual([]);
    expect(await store.nextEventDeliveryAt()).toBeNull();
    const s1 = await store.createEventSubscription(ALL, T0);
    const s2 = await store.createEventSubscription({ ...ALL, eventTypes: ['campaign.paused'] }, T0);
    await store.recordOutboundEvents([event(1, 1), event(2, 2), event(3, 3)], T0);
    await store.recordOutboundEvents([event(null, 4)], T0 + MINUTE);
    expect(await store.nextEventDeliveryAt()).toBe(T0);
    const claimed = await claim(store, T0 + MINUTE);
    const byContact = (id: number | null) => claimed.find((c) => c.event.contactId === id && c.subscription.id === s1.id);
    await settle(store, byContact(1), T0 + MINUTE, { kind: 'delivered' });
    await settle(store, byContact(2), T0 + MINUTE, { kind: 'failed' });
    await settle(store, byContact(3), T0 + MINUTE, { kind: 'retry', at: T0 + HOUR });
    expect(await store.eventDeliveryTotals(T0 + MINUTE)).toEqual([
      { subscriptionId: s1.id, pending: 2, delivered: 1, failed: 1, failedRecently: 1, oldestPendingAt: T0 },
      { subscriptionId: s2.id, pending: 1, delivered: 0, failed: 0, failedRecently: 0, oldestPendingAt: T0 + MINUTE },
    ]);
    expect((await store.eventDeliveryTotals(T0 + HOUR))[0]).toMatchObject({ failed: 1, failedRecently: 0 });
    // The same for one subscription, from the indexes /healthz reads.
    expect(await store.eventDeliveryBacklog(s1.id, T0 + MINUTE)).toEqual({ failedRecently: 1, oldestPendingAt: T0 });
    expect(await store.eventDeliveryBacklog(s1.id, T0 + HOUR)).toEqual({ failedRecently: 0, oldestPendingAt: T0 });
    expect(await store.eventDeliveryBacklog(s2.id, T0)).toEqual({ failedRecently: 0, oldestPendingAt: T0 + MINUTE });
    expect(await store.eventDeliveryBacklog(999, T0)).toEqual({ failedRecently: 0, oldestPendingAt: null });
    expect(await store.nextEventDeliveryAt()).toBe(T0 + 2 * MINUTE); // the claims of event 4, until their lease runs out
  });

  it('loses nothing when a subscription is deleted while its delivery is in flight', async () => {
    const store = await backend.open();
    const sub = await store.createEventSubscription(ALL, T0);
    await store.recordOutboundEvents([event(1, 1)], T0);
    const [c] = await claim(store, T0);
    await store.deleteEventSubscription(sub.id);
    expect(await settle(store, c, T0 + 1, { kind: 'delivered' })).toBe(false);
    expect(await store.listDeliveryAttempts(c?.delivery.id ?? -1)).toEqual([]);
  });

  it('settles a group of answers at once: each kept where its claim holds, and finished lanes woken', async () => {
    const store = await backend.open();
    await store.createEventSubscription(ALL, T0);
    await store.recordOutboundEvents([event(1, 1), event(2, 2), event(3, 3), event(1, 4), event(2, 5)], T0);
    const [a, b, c] = await claim(store, T0);
    const answer = (x: ClaimedDelivery | undefined, owner: string, outcome: DeliveryOutcome, statusCode: number | null) => ({
      deliveryId: x?.delivery.id ?? -1,
      owner,
      attempt: { at: T0 + 1, durationMs: 5, statusCode, error: statusCode === 204 ? null : 'x'.repeat(600) },
      outcome,
    });
    const kept = await store.settleEventDeliveries(
      [
        answer(a, 'w1', { kind: 'delivered' }, 204),
        answer(b, 'w1', { kind: 'retry', at: T0 + HOUR }, null),
        answer(c, 'someone else', { kind: 'delivered' }, 204),
      ],
      T0 + 2,
    );
    expect(kept).toEqual([true, true, false]);
    expect(await store.getEventDelivery(a?.delivery.id ?? -1)).toMatchObject({ status: 'delivered', attempts: 1, deliveredAt: T0 + 1 });
    expect(await store.getEventDelivery(b?.delivery.id ?? -1)).toMatchObject({
      status: 'pending',
      nextAttemptAt: T0 + HOUR,
      lastStatusCode: null,
    });
    expect((await store.getEventDelivery(b?.delivery.id ?? -1))?.lastError).toHaveLength(500);
    expect(await store.getEventDelivery(c?.delivery.id ?? -1)).toMatchObject({ status: 'pending', attempts: 0 });
    expect((await store.listDeliveryAttempts(c?.delivery.id ?? -1)).map((x) => x.statusCode)).toEqual([204]);
    // Contact 1's next event goes at once; contact 2's waits behind the retry.
    expect(numbers(await claim(store, T0 + 3))).toEqual([4]);
    expect(await store.settleEventDeliveries([], T0)).toEqual([]);
  });
});
