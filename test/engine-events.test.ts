import { describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_DELIVERY_RETRY } from '../src/core/event-retry.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { startEngine } from '../src/main/engine.js';
import { systemClock, VirtualClock } from '../src/ports/clock.js';
import { DAY, MINUTE } from '../src/core/time.js';
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

  it('prunes events past PACER_EVENTS_RETENTION a minute after start, and keeps them all when retention is off', async () => {
    for (const retentionMs of [30 * DAY, null]) {
      const start = Date.UTC(2026, 5, 1, 12, 0, 0);
      const clock = new VirtualClock(start);
      const store = backend.place().open();
      await store.migrate();
      const sub = await store.createEventSubscription(
        {
          url: 'https://crm.example.com/hook',
          secret: SECRET,
          eventTypes: ['*'],
          campaignId: null,
          phoneNumberId: null,
          description: null,
        },
        start,
      );
      const at = (n: number, ageDays: number) => ({
        type: 'campaign.completed' as const,
        occurredAt: start - ageDays * DAY,
        contactId: null,
        campaignId: n,
        phoneNumberId: null,
        data: { n },
      });
      await store.recordOutboundEvents([at(1, 45), at(2, 31), at(3, 2)], start);
      const ids = (await store.listEventDeliveries({ limit: 10 })).map((d) => d.eventId);
      await store.deleteEventSubscription(sub.id); // nothing owed on them any more
      const engine = await startEngine({
        store,
        clock,
        policy: DEFAULT_POLICY,
        random: Math.random,
        logger: silentLogger,
        http: { host: '127.0.0.1', port: 0, appSecrets: ['s'], verifyToken: null, mode: 'production' },
        worker: { owner: 'engine-prune', mps: 10 },
        events: { concurrency: 4, timeoutMs: 5000, pollMs: 50, retry: DEFAULT_DELIVERY_RETRY, retentionMs },
      });
      await clock.advance(MINUTE);
      const kept = await Promise.all(ids.map((id) => store.getOutboundEvent(id)));
      expect(
        kept.map((e) => e?.data['n'] ?? null),
        String(retentionMs),
      ).toEqual(retentionMs === null ? [1, 2, 3] : [null, null, 3]);
      await engine.stop();
      await store.close();
    }
  });
});
