import { describe, expect, it } from 'vitest';
import { pruneEvents, PRUNE_BATCH } from '../src/app/prune-events.js';
import type { NewOutboundEvent } from '../src/core/outbound-event.js';
import { DAY, MINUTE, SECOND } from '../src/core/time.js';
import type { ClaimedDelivery, EventSubscriptionInput, Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const SUB: EventSubscriptionInput = {
  url: 'https://crm.example.com/pacer',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  eventTypes: ['*'],
  campaignId: null,
  phoneNumberId: null,
  description: null,
};

const event = (contactId: number, n: number, occurredAt: number): NewOutboundEvent => ({
  type: 'message.delivered',
  occurredAt,
  contactId,
  campaignId: 7,
  phoneNumberId: '1001',
  data: { n },
});

const claimAll = (store: Store, now: number) => store.claimEventDeliveries({ owner: 'w1', now, leaseMs: MINUTE, limit: 1000 });

function settle(store: Store, c: ClaimedDelivery, at: number, kind: 'delivered' | 'failed') {
  const attempt = { at, durationMs: 5, statusCode: kind === 'delivered' ? 200 : 500, error: kind === 'delivered' ? null : 'HTTP 500' };
  return store.settleEventDelivery({ deliveryId: c.delivery.id, owner: 'w1', attempt, outcome: { kind } }, at);
}

/** The events kept, by their `n`. */
async function keptNumbers(store: Store, ids: readonly number[]): Promise<unknown[]> {
  const kept = await Promise.all(ids.map((id) => store.getOutboundEvent(id)));
  return kept.filter((e) => e !== null).map((e) => e?.data['n']);
}

describe.each(BACKENDS)('Store contract: pruning outbound events ($name)', (backend) => {
  it('deletes old events whose deliveries are done or failed for good, with their attempts; keeps pending and newer ones', async () => {
    const store = await backend.open();
    const a = await store.createEventSubscription(SUB, T0);
    const b = await store.createEventSubscription({ ...SUB, url: 'https://other.example.com/hook' }, T0);
    // Contacts 1-4 each have one old event; contact 5 a recent one.
    await store.recordOutboundEvents([event(1, 1, T0), event(2, 2, T0), event(3, 3, T0), event(4, 4, T0), event(5, 5, T0 + 40 * DAY)], T0);
    const claimed = await claimAll(store, T0);
    const by = (n: number, sub: number) => claimed.find((c) => c.event.data['n'] === n && c.subscription.id === sub);
    const must = (c: ClaimedDelivery | undefined): ClaimedDelivery => {
      if (c === undefined) throw new Error('not claimed');
      return c;
    };
    // 1: delivered to both. 2: delivered to one, failed for good at the other. 3: one still pending
    // (claimed, in flight). 4: one retried and still pending. 5: recent, delivered.
    for (const sub of [a.id, b.id]) await settle(store, must(by(1, sub)), T0 + SECOND, 'delivered');
    await settle(store, must(by(2, a.id)), T0 + SECOND, 'delivered');
    await settle(store, must(by(2, b.id)), T0 + SECOND, 'failed');
    await settle(store, must(by(3, a.id)), T0 + SECOND, 'delivered');
    await settle(store, must(by(4, a.id)), T0 + SECOND, 'delivered');
    const retry = must(by(4, b.id));
    await store.settleEventDelivery(
      {
        deliveryId: retry.delivery.id,
        owner: 'w1',
        attempt: { at: T0 + SECOND, durationMs: 5, statusCode: 503, error: 'HTTP 503' },
        outcome: { kind: 'retry', at: T0 + DAY },
      },
      T0 + SECOND,
    );
    for (const sub of [a.id, b.id]) await settle(store, must(by(5, sub)), T0 + 40 * DAY, 'delivered');
    const eventIds = [...new Set(claimed.map((c) => c.event.id))];
    const failedDelivery = must(by(2, b.id)).delivery.id;

    const pruned = await store.pruneOutboundEvents(T0 + 30 * DAY, 100);
    expect(pruned).toEqual({ events: 2, deliveries: 4, attempts: 4 });
    expect(await keptNumbers(store, eventIds)).toEqual([3, 4, 5]);
    expect(await store.getEventDelivery(failedDelivery)).toBeNull();
    expect(await store.listDeliveryAttempts(failedDelivery)).toEqual([]);
    // What stays is intact: the pending ones are still owed and still claimable in order.
    expect(await store.getEventDelivery(retry.delivery.id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(await store.listDeliveryAttempts(must(by(3, a.id)).delivery.id)).toHaveLength(1);
    // Nothing more to do at the same cut-off.
    expect(await store.pruneOutboundEvents(T0 + 30 * DAY, 100)).toEqual({ events: 0, deliveries: 0, attempts: 0 });
    await store.close();
  });

  it('keeps an event a replay made pending again, however old', async () => {
    const store = await backend.open();
    await store.createEventSubscription(SUB, T0);
    await store.recordOutboundEvents([event(1, 1, T0), event(2, 2, T0)], T0);
    const claimed = await claimAll(store, T0);
    for (const c of claimed) await settle(store, c, T0 + SECOND, 'failed');
    const first = claimed.find((c) => c.event.data['n'] === 1);
    if (first === undefined) throw new Error('not claimed');
    expect(await store.replayEventDeliveries({ eventIds: [first.event.id] }, T0 + 2 * DAY)).toBe(1);
    expect(await store.pruneOutboundEvents(T0 + 30 * DAY, 100)).toMatchObject({ events: 1, deliveries: 1 });
    expect(
      await keptNumbers(
        store,
        claimed.map((c) => c.event.id),
      ),
    ).toEqual([1]);
    await store.close();
  });

  it('deletes events left with no delivery (their subscription was deleted), oldest first, at most the limit per call', async () => {
    const store = await backend.open();
    const sub = await store.createEventSubscription(SUB, T0);
    const n = 7;
    await store.recordOutboundEvents(
      Array.from({ length: n }, (_, i) => event(i + 1, i + 1, T0 + i * MINUTE)),
      T0,
    );
    const ids = (await claimAll(store, T0)).map((c) => c.event.id);
    await store.deleteEventSubscription(sub.id);
    expect(await store.pruneOutboundEvents(T0 + DAY, 3)).toEqual({ events: 3, deliveries: 0, attempts: 0 });
    expect(await keptNumbers(store, ids)).toEqual([4, 5, 6, 7]);
    // The cut-off is on when they occurred: only those before it go.
    expect(await store.pruneOutboundEvents(T0 + 5 * MINUTE, 100)).toEqual({ events: 2, deliveries: 0, attempts: 0 });
    expect(await keptNumbers(store, ids)).toEqual([6, 7]);
    await store.close();
  });

  it('pruneEvents goes batch by batch until nothing old is left', async () => {
    const store = await backend.open();
    await store.createEventSubscription(SUB, T0);
    const total = PRUNE_BATCH * 2 + 5;
    await store.recordOutboundEvents(
      Array.from({ length: total }, (_, i) => event(i + 1, i + 1, T0)),
      T0,
    );
    for (let claimed = await claimAll(store, T0); claimed.length > 0; claimed = await claimAll(store, T0 + SECOND)) {
      await store.settleEventDeliveries(
        claimed.map((c) => ({
          deliveryId: c.delivery.id,
          owner: 'w1',
          attempt: { at: T0 + SECOND, durationMs: 1, statusCode: 200, error: null },
          outcome: { kind: 'delivered' as const },
        })),
        T0 + SECOND,
      );
    }
    const calls: number[] = [];
    const counting = {
      pruneOutboundEvents: async (before: number, limit: number) => {
        const r = await store.pruneOutboundEvents(before, limit);
        calls.push(r.events);
        return r;
      },
    };
    expect(await pruneEvents(counting, T0 + 31 * DAY, 30 * DAY)).toEqual({ events: total, deliveries: total, attempts: total });
    expect(calls).toEqual([PRUNE_BATCH, PRUNE_BATCH, 5]);
    expect((await store.eventDeliveryTotals(T0)).reduce((s, t) => s + t.delivered, 0)).toBe(0);
    await store.close();
  });
});
