import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebhookSender } from '../src/adapters/event-webhooks/webhook-sender.js';
import { startEventDeliveryLoop } from '../src/app/event-delivery-loop.js';
import { wakeOnRecord } from '../src/app/event-delivery-wake.js';
import { DEFAULT_DELIVERY_RETRY } from '../src/core/event-retry.js';
import type { NewOutboundEvent } from '../src/core/outbound-event.js';
import { systemClock } from '../src/ports/clock.js';
import { silentLogger } from '../src/ports/logger.js';
import { eventually } from './await-state.js';
import { startEventReceiver } from './event-receiver.js';
import { BACKENDS } from './store-backends.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const event = (n: number): NewOutboundEvent => ({
  type: 'contact.replied',
  occurredAt: Date.now(),
  contactId: n,
  campaignId: null,
  phoneNumberId: null,
  data: { n },
});
const SUBSCRIPTION = { secret: SECRET, eventTypes: ['*' as const], campaignId: null, phoneNumberId: null, description: null };

describe.each(BACKENDS)('recording wakes the delivery loop ($name)', (backend) => {
  it('after each commit that recorded events, and not for one that failed or recorded none', async () => {
    const store = await backend.open();
    await store.createEventSubscription({ url: 'https://crm.example.com/', ...SUBSCRIPTION }, Date.now());
    let kicks = 0;
    const woken = wakeOnRecord(store, () => void kicks++);
    await woken.transaction(async (tx) => {
      await tx.recordOutboundEvents([event(1)], Date.now());
      expect(kicks).toBe(0); // not before the commit
    });
    expect(kicks).toBe(1);
    await woken.recordOutboundEvents([event(2)], Date.now());
    expect(kicks).toBe(2);
    await woken.transaction((tx) => tx.recordOutboundEvents([], Date.now()));
    await woken.transaction((tx) => tx.listEventSubscriptions());
    await expect(
      woken.transaction(async (tx) => {
        await tx.recordOutboundEvents([event(3)], Date.now());
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(kicks).toBe(2);
    expect((await store.listEventDeliveries({ limit: 10 })).map((d) => d.eventId)).toEqual([1, 2]);
  });

  it('delivers at once what this process records, without waiting for the idle look', async () => {
    const store = await backend.open();
    const receiver = await startEventReceiver(SECRET);
    onTestFinished(() => receiver.close());
    await store.createEventSubscription({ url: receiver.url, ...SUBSCRIPTION }, Date.now());
    const sender = createWebhookSender({ timeoutMs: 5000 });
    // An idle look once an hour: only the wake-up can bring the event out within the test.
    const loop = startEventDeliveryLoop(
      { store, sender, scheduler: systemClock, logger: silentLogger, random: Math.random },
      { owner: 'test', concurrency: 2, leaseMs: 30_000, pollMs: 3_600_000, retry: DEFAULT_DELIVERY_RETRY },
    );
    onTestFinished(async () => {
      await loop.stop();
      await sender.close();
    });
    await eventually(() => loop.inFlight() === 0, Date.now() + 5000);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the first look is over: asleep for an hour
    await wakeOnRecord(store, () => loop.kick()).transaction((tx) => tx.recordOutboundEvents([event(7)], Date.now()));
    expect(await eventually(() => receiver.received.length === 1, Date.now() + 10_000)).toBe(true);
    expect(receiver.received[0]?.data).toEqual({ n: 7 });
  });
});
