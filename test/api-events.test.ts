import { describe, expect, it } from 'vitest';
import { iso, MINUTE } from '../src/core/time.js';
import type { NewOutboundEvent } from '../src/core/outbound-event.js';
import { body, startApi, T0 } from './api-harness.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

interface Subscription {
  id: number;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  secret?: string;
  deliveries: { pending: number; delivered: number; failed: number; oldestPendingAt: string | null };
}
interface Delivery {
  id: number;
  eventId: number;
  status: string;
  attempts: number;
  webhookId: string;
}

const URL = 'https://crm.example.com/pacer/events';
const event = (contactId: number, n: number): NewOutboundEvent => ({
  type: 'message.delivered',
  occurredAt: T0 - MINUTE * n,
  contactId,
  campaignId: null,
  phoneNumberId: '1001',
  data: { n },
});

describe.each(BACKENDS)('REST API: event subscriptions and deliveries ($name)', (backend) => {
  it('creates a subscription with a generated secret shown once, and never shows it again', async () => {
    const rig = await startApi(backend);
    const r = await rig.call('POST', '/api/v1/event-subscriptions', {
      body: { url: URL, eventTypes: ['message.failed', 'contact.replied', 'message.failed'], description: 'CRM' },
    });
    expect(r.status).toBe(201);
    const created = body<Subscription>(r);
    expect(created).toMatchObject({ url: URL, eventTypes: ['message.failed', 'contact.replied'], enabled: true, description: 'CRM' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const secret = created.secret ?? '';
    const list = await rig.call('GET', '/api/v1/event-subscriptions');
    const one = await rig.call('GET', `/api/v1/event-subscriptions/${created.id}`);
    expect(body<{ items: Subscription[] }>(list).items.map((s) => s.id)).toEqual([created.id]);
    expect(body<Subscription>(one)).toMatchObject({
      id: created.id,
      deliveries: { pending: 0, delivered: 0, failed: 0, oldestPendingAt: null },
    });
    for (const text of [list.text, one.text, rig.logText()]) expect(text).not.toContain(secret.slice(6));
    expect((await rig.store.getEventSubscription(created.id))?.secret).toBe(secret);

    const own = 'whsec_' + Buffer.alloc(24, 7).toString('base64');
    const mine = await rig.call('POST', '/api/v1/event-subscriptions', { body: { url: URL, eventTypes: ['*'], secret: own } });
    expect(mine).toMatchObject({ status: 201, json: { secret: own, eventTypes: ['*'] } });
  });

  it('refuses a bad subscription naming the field, and stores nothing', async () => {
    const rig = await startApi(backend);
    const cases: Array<[unknown, string]> = [
      [{ url: URL, eventTypes: ['*'], extra: 1 }, 'extra'],
      [{ eventTypes: ['*'] }, 'url'],
      [{ url: 'ftp://crm.example.com/', eventTypes: ['*'] }, 'url'],
      [{ url: 'not a url', eventTypes: ['*'] }, 'url'],
      [{ url: 'http://crm.example.com/hook', eventTypes: ['*'] }, 'url'],
      [{ url: 'https://user:pw@crm.example.com/', eventTypes: ['*'] }, 'url'],
      [{ url: URL, eventTypes: [] }, 'eventTypes'],
      [{ url: URL, eventTypes: ['message.sent'] }, 'eventTypes.0'],
      [{ url: URL, eventTypes: ['*'], campaignId: 99 }, 'campaignId'],
      [{ url: URL, eventTypes: ['*'], phoneNumberId: '+44 7700' }, 'phoneNumberId'],
      [{ url: URL, eventTypes: ['*'], secret: 'hunter2' }, 'secret'],
      [{ url: URL, eventTypes: ['*'], secret: 'whsec_' + Buffer.alloc(8).toString('base64') }, 'secret'],
    ];
    for (const [bad, path] of cases) {
      const r = await rig.call('POST', '/api/v1/event-subscriptions', { body: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.json, JSON.stringify(bad)).toMatchObject({ error: 'invalid_body', issues: [{ path }] });
    }
    expect(await rig.store.listEventSubscriptions()).toEqual([]);
  });

  it('takes plain http to loopback in production, and anywhere in development mode', async () => {
    const prod = await startApi(backend);
    const local = await prod.call('POST', '/api/v1/event-subscriptions', {
      body: { url: 'http://127.0.0.1:9000/hook', eventTypes: ['*'] },
    });
    expect(local.status).toBe(201);
    const dev = await startApi(backend, { mode: 'development' });
    const internal = await dev.call('POST', '/api/v1/event-subscriptions', {
      body: { url: 'http://crm.internal:8080/', eventTypes: ['*'] },
    });
    expect(internal.status).toBe(201);
  });

  it('filters by campaign and number, disables, enables and deletes; unknown ids are 404', async () => {
    const rig = await startApi(backend);
    const seed = await seedCampaign(rig.store, T0, 1);
    const r = await rig.call('POST', '/api/v1/event-subscriptions', {
      body: { url: URL, eventTypes: ['*'], campaignId: seed.campaignId, phoneNumberId: '1001' },
    });
    const { id } = body<Subscription>(r);
    expect(r.json).toMatchObject({ campaignId: seed.campaignId, phoneNumberId: '1001' });
    expect(await rig.call('POST', `/api/v1/event-subscriptions/${id}/disable`)).toMatchObject({ status: 200, json: { enabled: false } });
    expect(await rig.call('POST', `/api/v1/event-subscriptions/${id}/enable`)).toMatchObject({ status: 200, json: { enabled: true } });
    expect(await rig.call('DELETE', `/api/v1/event-subscriptions/${id}`)).toMatchObject({ status: 200, json: { id, deleted: true } });
    for (const [method, url] of [
      ['GET', `/api/v1/event-subscriptions/${id}`],
      ['POST', `/api/v1/event-subscriptions/${id}/enable`],
      ['POST', `/api/v1/event-subscriptions/${id}/disable`],
      ['DELETE', `/api/v1/event-subscriptions/${id}`],
      ['GET', `/api/v1/event-subscriptions/${id}/deliveries`],
      ['GET', '/api/v1/event-deliveries/999/attempts'],
      ['GET', '/api/v1/events/999'],
    ] as const) {
      expect(await rig.call(method, url), `${method} ${url}`).toMatchObject({ status: 404, json: { error: 'not_found' } });
    }
    expect(await rig.call('GET', '/api/v1/event-subscriptions/abc')).toMatchObject({ status: 400, json: { issues: [{ path: 'id' }] } });
  });

  it('shows deliveries, attempts and events, replays by event or range, and reports them in /metrics and /healthz', async () => {
    const rig = await startApi(backend);
    const { id } = body<Subscription>(await rig.call('POST', '/api/v1/event-subscriptions', { body: { url: URL, eventTypes: ['*'] } }));
    await rig.store.recordOutboundEvents([event(1, 3), event(2, 2), event(3, 1)], T0);
    const [c1, c2] = await rig.store.claimEventDeliveries({ owner: 'w', now: T0, leaseMs: MINUTE, limit: 2 });
    const attempt = { at: T0, durationMs: 40, statusCode: 500, error: 'HTTP 500' };
    await rig.store.settleEventDelivery({ deliveryId: c1?.delivery.id ?? -1, owner: 'w', attempt, outcome: { kind: 'failed' } }, T0);
    await rig.store.settleEventDelivery(
      {
        deliveryId: c2?.delivery.id ?? -1,
        owner: 'w',
        attempt: { ...attempt, statusCode: 204, error: null },
        outcome: { kind: 'delivered' },
      },
      T0,
    );
    rig.clock.t = T0 + 2 * 3600_000;

    const failed = body<{ items: Delivery[] }>(await rig.call('GET', `/api/v1/event-subscriptions/${id}/deliveries?status=failed`));
    expect(failed.items).toEqual([
      expect.objectContaining({ eventId: c1?.event.id, status: 'failed', attempts: 1, webhookId: `evt_${c1?.event.id}_${id}` }),
    ]);
    const p1 = body<{ items: Delivery[]; next: string }>(await rig.call('GET', `/api/v1/event-subscriptions/${id}/deliveries?limit=2`));
    const p2 = body<{ items: Delivery[]; next: null }>(
      await rig.call('GET', `/api/v1/event-subscriptions/${id}/deliveries?limit=2&after=${p1.next}`),
    );
    expect([...p1.items, ...p2.items].map((d) => d.status)).toEqual(['failed', 'delivered', 'pending']);
    expect(p2.next).toBeNull();
    expect(await rig.call('GET', `/api/v1/event-deliveries/${c1?.delivery.id}/attempts`)).toMatchObject({
      status: 200,
      json: { delivery: { status: 'failed' }, attempts: [{ at: iso(T0), statusCode: 500, error: 'HTTP 500', durationMs: 40 }] },
    });
    expect(await rig.call('GET', `/api/v1/events/${c1?.event.id}`)).toMatchObject({
      status: 200,
      json: { event: { type: 'message.delivered', contactId: 1, data: { n: 3 } }, deliveries: [{ status: 'failed' }] },
    });

    const metrics = (await rig.call('GET', '/metrics', { token: null })).text.split('\n');
    for (const line of [
      'pacer_event_deliveries{status="pending"} 1',
      'pacer_event_deliveries{status="delivered"} 1',
      'pacer_event_deliveries{status="failed"} 1',
      `pacer_event_subscription_deliveries{subscription_id="${id}",status="failed"} 1`,
      'pacer_event_delivery_oldest_pending_seconds 7200',
    ])
      expect(metrics).toContain(line);
    expect(await rig.call('GET', '/healthz', { token: null })).toMatchObject({
      status: 200,
      json: { status: 'degraded', events: [{ subscriptionId: id, failedRecently: 1, oldestPendingSeconds: 7200 }] },
    });

    expect(await rig.call('POST', '/api/v1/events/replay', { body: { eventIds: [c1?.event.id] } })).toMatchObject({
      json: { requeued: 1 },
    });
    const range = { from: iso(T0 - 150_000), to: iso(T0), subscriptionId: id };
    expect(await rig.call('POST', '/api/v1/events/replay', { body: range })).toMatchObject({ status: 200, json: { requeued: 2 } });
    expect(body<Subscription>(await rig.call('GET', `/api/v1/event-subscriptions/${id}`)).deliveries).toMatchObject({
      pending: 3,
      failed: 0,
    });
    expect(await rig.call('GET', '/healthz', { token: null })).toMatchObject({ json: { status: 'ok' } });
    await rig.call('POST', `/api/v1/event-subscriptions/${id}/disable`);
    rig.clock.t += 2 * 3600_000;
    expect(await rig.call('GET', '/healthz', { token: null })).toMatchObject({ json: { status: 'ok' } }); // a disabled backlog is nobody's trouble
  });

  it('refuses a replay that names neither events nor a whole range, or both, naming the field', async () => {
    const rig = await startApi(backend);
    const cases: Array<[unknown, string]> = [
      [{}, 'eventIds'],
      [{ eventIds: [] }, 'eventIds'],
      [{ eventIds: [1], from: iso(T0), to: iso(T0 + 1) }, 'eventIds'],
      [{ from: iso(T0) }, 'to'],
      [{ from: iso(T0), to: iso(T0) }, 'to'],
      [{ from: 'yesterday', to: iso(T0) }, 'from'],
      [{ eventIds: [1], extra: true }, 'extra'],
    ];
    for (const [bad, path] of cases) {
      const r = await rig.call('POST', '/api/v1/events/replay', { body: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.json, JSON.stringify(bad)).toMatchObject({ error: 'invalid_body', issues: [{ path }] });
    }
  });
});
