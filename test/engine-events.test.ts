import { describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_DELIVERY_RETRY } from '../src/core/event-retry.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { startEngine } from '../src/main/engine.js';
import { systemClock } from '../src/ports/clock.js';
import { silentLogger } from '../src/ports/logger.js';
import { eventually } from './await-state.js';
import { startEventReceiver } from './event-receiver.js';
import { BACKENDS } from './store-backends.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe.each(BACKENDS)('the engine delivers events ($name)', (backend) => {
  it('runs the delivery loop beside the server: events another process records arrive, and /metrics counts them', async () => {
    const place = backend.place();
    const store = place.open();
    await store.migrate();
    const receiver = await startEventReceiver(SECRET);
    onTestFinished(() => receiver.close());
    await store.createEventSubscription(
      { url: receiver.url, secret: SECRET, eventTypes: ['*'], campaignId: null, phoneNumberId: null, description: null },
      Date.now(),
    );
    const engine = await startEngine({
      store,
      clock: systemClock,
      policy: DEFAULT_POLICY,
      random: Math.random,
      logger: silentLogger,
      http: { host: '127.0.0.1', port: 0, appSecrets: ['s'], verifyToken: null, mode: 'production' },
      worker: { owner: 'engine-events', mps: 10 },
      events: { concurrency: 4, timeoutMs: 5000, pollMs: 50, retry: DEFAULT_DELIVERY_RETRY },
    });
    let stopped = false;
    onTestFinished(async () => {
      if (!stopped) await engine.stop();
    });
    expect(engine.events).not.toBeNull();
    const other = place.open(); // as another process would record
    const events = [1, 2, 3].map((n) => ({
      type: 'campaign.completed' as const,
      occurredAt: Date.now(),
      contactId: null,
      campaignId: n,
      phoneNumberId: null,
      data: { campaignId: n },
    }));
    await other.transaction((tx) => tx.recordOutboundEvents(events, Date.now()));
    expect(await eventually(() => receiver.received.length === 3, Date.now() + 15_000)).toBe(true);
    expect(receiver.received.map((r) => r.data['campaignId'])).toEqual([1, 2, 3]); // no contact: in order all the same
    expect(
      await eventually(async () => (await store.listEventDeliveries({ status: 'delivered', limit: 10 })).length === 3, Date.now() + 15_000),
    ).toBe(true);
    const metrics = await (await fetch(`${engine.url}/metrics`)).text();
    expect(metrics).toContain('pacer_event_deliveries{status="delivered"} 3');
    expect(await (await fetch(`${engine.url}/healthz`)).json()).toMatchObject({ status: 'ok' });
    await engine.stop();
    stopped = true;
    expect(engine.events?.inFlight()).toBe(0);
  });
});
