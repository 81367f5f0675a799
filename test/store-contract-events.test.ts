import { describe, expect, it } from 'vitest';
import type { NewOutboundEvent } from '../src/core/outbound-event.js';
import { MINUTE } from '../src/core/time.js';
import type { EventSubscriptionInput, Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const ALL: EventSubscriptionInput = {
  url: 'https://crm.example.com/pacer',
  secret: SECRET,
  eventTypes: ['*'],
  campaignId: null,
  phoneNumberId: null,
  description: null,
};

function event(overrides: Partial<NewOutboundEvent> = {}): NewOutboundEvent {
  return {
    type: 'message.delivered',
    occurredAt: T0 - MINUTE,
    contactId: 1,
    campaignId: 7,
    phoneNumberId: '1001',
    data: { message_id: 'm1', wamid: 'wamid.X', nested: { list: [1, 'two', null] } },
    ...overrides,
  };
}

async function deliveriesOf(store: Store, subscriptionId: number): Promise<number[]> {
  return (await store.listEventDeliveries({ subscriptionId, limit: 10_000 })).map((d) => d.eventId);
}

describe.each(BACKENDS)('Store contract: outbound events ($name)', (backend) => {
  it('keeps nothing when no subscription exists', async () => {
    const store = await backend.open();
    await store.recordOutboundEvents([event(), event({ contactId: null })], T0);
    expect(await store.getOutboundEvent(1)).toBeNull();
    expect(await store.listEventDeliveries({ limit: 10 })).toEqual([]);
  });

  it('records events as given and queues one pending delivery per matching subscription, in order', async () => {
    const store = await backend.open();
    const all = await store.createEventSubscription(ALL, T0);
    const failedOnly = await store.createEventSubscription({ ...ALL, eventTypes: ['message.failed'] }, T0);
    const campaign8 = await store.createEventSubscription({ ...ALL, campaignId: 8 }, T0);
    const number2 = await store.createEventSubscription({ ...ALL, phoneNumberId: '1002', eventTypes: ['message.failed'] }, T0);
    await store.recordOutboundEvents(
      [
        event(),
        event({ type: 'message.failed', contactId: 2, data: {} }),
        event({ type: 'campaign.paused', contactId: null, campaignId: 8, phoneNumberId: null }),
        event({ type: 'message.failed', phoneNumberId: '1002', campaignId: null }),
      ],
      T0,
    );
    const deliveries = await store.listEventDeliveries({ limit: 100 });
    const [e1, e2, e3, e4] = [...new Set(deliveries.map((d) => d.eventId))].sort((a, b) => a - b);
    expect(await deliveriesOf(store, all.id)).toEqual([e1, e2, e3, e4]);
    expect(await deliveriesOf(store, failedOnly.id)).toEqual([e2, e4]);
    expect(await deliveriesOf(store, campaign8.id)).toEqual([e3]);
    expect(await deliveriesOf(store, number2.id)).toEqual([e4]);
    expect(deliveries[0]).toEqual({
      id: deliveries[0]?.id,
      eventId: e1,
      subscriptionId: all.id,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: T0,
      lastAttemptAt: null,
      lastStatusCode: null,
      lastError: null,
      deliveredAt: null,
      createdAt: T0,
    });
    expect(await store.getOutboundEvent(e1 ?? -1)).toEqual({ id: e1, recordedAt: T0, ...event() });
    expect(await store.getOutboundEvent(e3 ?? -1)).toMatchObject({ type: 'campaign.paused', contactId: null, phoneNumberId: null });
  });

  it('keeps only the events some subscription takes', async () => {
    const store = await backend.open();
    const sub = await store.createEventSubscription({ ...ALL, eventTypes: ['contact.replied'] }, T0);
    await store.recordOutboundEvents([event(), event({ type: 'contact.replied' })], T0);
    const [only] = await store.listEventDeliveries({ subscriptionId: sub.id, limit: 10 });
    expect(await store.getOutboundEvent(only?.eventId ?? -1)).toMatchObject({ type: 'contact.replied' });
    expect(await store.listEventDeliveries({ limit: 10 })).toHaveLength(1);
    expect(only?.eventId).toBe(1); // the message.delivered before it was not kept and took no id
  });

  it('gives a disabled subscription no deliveries, and new ones again once enabled', async () => {
    const store = await backend.open();
    const sub = await store.createEventSubscription(ALL, T0);
    expect(await store.setEventSubscriptionEnabled(sub.id, false, T0 + 1)).toBe(true);
    await store.recordOutboundEvents([event()], T0 + 2);
    expect(await deliveriesOf(store, sub.id)).toEqual([]);
    expect(await store.setEventSubscriptionEnabled(sub.id, true, T0 + 3)).toBe(true);
    await store.recordOutboundEvents([event()], T0 + 4);
    expect(await deliveriesOf(store, sub.id)).toHaveLength(1);
    expect(await store.setEventSubscriptionEnabled(sub.id + 100, true, T0)).toBe(false);
  });

  it('records with the change or not at all: a transaction that fails leaves no event and no delivery', async () => {
    const store = await backend.open();
    await store.createEventSubscription(ALL, T0);
    const failed = store.transaction(async (tx) => {
      await tx.recordOutboundEvents([event(), event({ contactId: 2 })], T0);
      throw new Error('the change failed');
    });
    await expect(failed).rejects.toThrow('the change failed');
    expect(await store.listEventDeliveries({ limit: 10 })).toEqual([]);
    await store.transaction((tx) => tx.recordOutboundEvents([event({ contactId: 3 })], T0));
    const [kept] = await store.listEventDeliveries({ limit: 10 });
    expect(await store.getOutboundEvent(kept?.eventId ?? -1)).toMatchObject({ contactId: 3 });
  });

  it('keeps a large batch in the order given across statements', async () => {
    const store = await backend.open();
    const a = await store.createEventSubscription(ALL, T0);
    const b = await store.createEventSubscription(ALL, T0);
    const events = Array.from({ length: 1_234 }, (_, i) => event({ contactId: i + 1, data: { n: i } }));
    await store.recordOutboundEvents(events, T0);
    const ids = await deliveriesOf(store, a.id);
    expect(ids).toHaveLength(1_234);
    expect(await deliveriesOf(store, b.id)).toEqual(ids);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    for (const at of [0, 499, 500, 1_233]) {
      expect(await store.getOutboundEvent(ids[at] ?? -1)).toMatchObject({ contactId: at + 1, data: { n: at } });
    }
  });

  it('creates, lists, finds and deletes subscriptions; deleting one removes its deliveries, not the events', async () => {
    const store = await backend.open();
    const a = await store.createEventSubscription({ ...ALL, description: 'CRM', eventTypes: ['message.read', 'contact.replied'] }, T0);
    const b = await store.createEventSubscription(
      { ...ALL, url: 'http://127.0.0.1:9000/hook', campaignId: 7, phoneNumberId: '1001' },
      T0 + 1,
    );
    expect(a).toEqual({
      ...ALL,
      id: a.id,
      description: 'CRM',
      eventTypes: ['message.read', 'contact.replied'],
      enabled: true,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(await store.getEventSubscription(b.id)).toEqual(b);
    expect(await store.getEventSubscription(b.id + 100)).toBeNull();
    expect((await store.listEventSubscriptions()).map((s) => s.id)).toEqual([a.id, b.id]);
    await store.recordOutboundEvents([event({ type: 'message.read' })], T0);
    const [owed] = await store.listEventDeliveries({ subscriptionId: a.id, limit: 10 });
    expect(await store.deleteEventSubscription(a.id)).toBe(true);
    expect(await store.deleteEventSubscription(a.id)).toBe(false);
    expect(await store.listEventDeliveries({ subscriptionId: a.id, limit: 10 })).toEqual([]);
    expect(await store.getOutboundEvent(owed?.eventId ?? -1)).toMatchObject({ type: 'message.read' });
    expect((await store.listEventSubscriptions()).map((s) => s.id)).toEqual([b.id]);
  });

  it('lists deliveries by event, status and page', async () => {
    const store = await backend.open();
    const a = await store.createEventSubscription(ALL, T0);
    const b = await store.createEventSubscription(ALL, T0);
    await store.recordOutboundEvents([event(), event({ contactId: 2 })], T0);
    const all = await store.listEventDeliveries({ limit: 10 });
    expect(all.map((d) => [d.subscriptionId, d.eventId])).toEqual([
      [a.id, 1],
      [b.id, 1],
      [a.id, 2],
      [b.id, 2],
    ]);
    expect((await store.listEventDeliveries({ eventId: 2, limit: 10 })).map((d) => d.subscriptionId)).toEqual([a.id, b.id]);
    expect(await store.listEventDeliveries({ status: 'delivered', limit: 10 })).toEqual([]);
    expect(await store.listEventDeliveries({ afterId: all[1]?.id ?? -1, limit: 1 })).toEqual([all[2]]);
  });
});
