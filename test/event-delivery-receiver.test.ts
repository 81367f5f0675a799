import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebhookSender } from '../src/adapters/event-webhooks/webhook-sender.js';
import { startEventDeliveryLoop } from '../src/app/event-delivery-loop.js';
import type { NewOutboundEvent } from '../src/core/outbound-event.js';
import { systemClock } from '../src/ports/clock.js';
import { silentLogger } from '../src/ports/logger.js';
import type { Store } from '../src/ports/store.js';
import { eventually } from './await-state.js';
import { firstOfEach, startEventReceiver, type EventReceiver } from './event-receiver.js';
import { BACKENDS } from './store-backends.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const CONTACTS = 8;
// Short gaps so the receiver's outage costs the test little time; the schedule's shape is the default's.
const RETRY = { firstMs: 20, maxMs: 200, giveUpAfterMs: 10 * 60_000 };

let n = 0;
const events = (count: number): NewOutboundEvent[] =>
  Array.from({ length: count }, () => {
    n++;
    return {
      type: n % 3 === 0 ? 'message.read' : 'message.delivered',
      occurredAt: Date.now(),
      contactId: (n % CONTACTS) + 1,
      campaignId: 1,
      phoneNumberId: '1001',
      data: { n, contactId: (n % CONTACTS) + 1 },
    };
  });

async function record(store: Store, count: number): Promise<void> {
  await store.transaction((tx) => tx.recordOutboundEvents(events(count), Date.now()));
}

const until = async (what: string, check: () => boolean | Promise<boolean>) => {
  if (!(await eventually(check, Date.now() + 30_000, 10))) throw new Error(`timed out waiting for ${what}`);
};

describe.each(BACKENDS)('event delivery to a real receiver ($name)', (backend) => {
  it('delivers every event signed, once each after de-duplication, in order per contact, through a 503 spell and an outage', async () => {
    const store = await backend.open();
    const receiver: EventReceiver = await startEventReceiver(SECRET);
    onTestFinished(() => receiver.close());
    await store.createEventSubscription(
      { url: receiver.url, secret: SECRET, eventTypes: ['*'], campaignId: null, phoneNumberId: null, description: null },
      Date.now(),
    );
    const sender = createWebhookSender({ timeoutMs: 2000 });
    const loop = startEventDeliveryLoop(
      { store, sender, scheduler: systemClock, logger: silentLogger, random: Math.random },
      { owner: 'test', concurrency: 4, leaseMs: 10_000, pollMs: 20, retry: RETRY },
    );
    onTestFinished(async () => {
      await loop.stop();
      await sender.close();
    });
    n = 0;

    await record(store, 40);
    await until('the first deliveries', () => receiver.received.length >= 10);
    receiver.mode = 'unavailable';
    await record(store, 40);
    const before = receiver.requests;
    await until('retries against 503', () => receiver.requests >= before + 10);
    await receiver.down();
    await record(store, 40);
    await new Promise((resolve) => setTimeout(resolve, 300)); // attempts refused while it is down
    receiver.mode = 'ok';
    await receiver.up();
    await record(store, 40);
    loop.kick();
    await until('every event', () => new Set(receiver.received.map((r) => r.webhookId)).size >= 160);

    expect(receiver.unverified).toBe(0);
    const processed = firstOfEach(receiver.received);
    expect(processed.map((r) => r.data['n']).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 160 }, (_, i) => i + 1));
    for (let contact = 1; contact <= CONTACTS; contact++) {
      const got = processed.filter((r) => r.data['contactId'] === contact).map((r) => Number(r.data['n']));
      expect(got, `contact ${contact}`).toEqual([...got].sort((a, b) => a - b));
      expect(got.length).toBe(20);
    }
    expect(processed[0]).toMatchObject({ type: 'message.delivered', timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string });
    expect(receiver.requests).toBeGreaterThan(160); // the 503s and refusals were retried
    await until(
      'every delivery settled',
      async () => (await store.listEventDeliveries({ status: 'delivered', limit: 1000 })).length === 160,
    );
    const retried = (await store.listEventDeliveries({ limit: 1000 })).filter((d) => d.attempts > 1);
    expect(retried.length).toBeGreaterThan(0);
    const attempts = await store.listDeliveryAttempts(retried[0]?.id ?? -1);
    expect(attempts).toHaveLength(retried[0]?.attempts ?? -1);
    expect(attempts.at(-1)).toMatchObject({ statusCode: 204, error: null });
    expect(attempts.slice(0, -1).every((a) => a.statusCode === 503 || (a.statusCode === null && a.error !== null))).toBe(true);
  });

  it("gives up after the schedule on a receiver that never answers, says so, and lets the contact's next event go", async () => {
    const store = await backend.open();
    const receiver = await startEventReceiver(SECRET);
    onTestFinished(() => receiver.close());
    receiver.mode = 'hang';
    const sub = await store.createEventSubscription(
      { url: receiver.url, secret: SECRET, eventTypes: ['*'], campaignId: null, phoneNumberId: null, description: null },
      Date.now(),
    );
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const sender = createWebhookSender({ timeoutMs: 100 });
    // Gaps of 10, 20 and 20 ms add up to the 50 ms allowed: four attempts, then it fails for good.
    const loop = startEventDeliveryLoop(
      { store, sender, scheduler: systemClock, logger, random: () => 0 },
      { owner: 'test', concurrency: 2, leaseMs: 10_000, pollMs: 20, retry: { firstMs: 10, maxMs: 20, giveUpAfterMs: 50 } },
    );
    onTestFinished(async () => {
      await loop.stop();
      await sender.close();
    });
    n = 0;
    await record(store, 1);
    await until('the first event failed', async () => (await store.listEventDeliveries({ status: 'failed', limit: 10 })).length === 1);
    receiver.mode = 'ok';
    await store.recordOutboundEvents(events(CONTACTS).slice(-1), Date.now()); // the same contact as the first
    loop.kick();
    await until('the next event delivered', () => receiver.received.length === 1);
    const [failed] = await store.listEventDeliveries({ subscriptionId: sub.id, status: 'failed', limit: 10 });
    expect(failed).toMatchObject({ attempts: 4, lastStatusCode: null, lastError: 'no complete answer within 100 ms' });
    expect((await store.listDeliveryAttempts(failed?.id ?? -1)).map((a) => a.error)).toEqual(
      Array(4).fill('no complete answer within 100 ms'),
    );
    expect(warnings).toEqual(['event delivery failed for good after its last retry; replay it once the receiver is fixed']);
    expect(receiver.received[0]?.data).toMatchObject({ contactId: 2 });
  });
});
